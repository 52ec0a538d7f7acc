#pragma once
/// One worker per jobs folder: two would each take the other's running jobs for ones a
/// crash left behind (marking them interrupted) and append to their logs. The lock is an
/// flock(2) on JOBS_DIR/worker.lock, released by the kernel when the worker ends however it
/// ends (kill -9 included); the file holds the PID of the worker that has it.

#include <filesystem>

namespace variate::remote {

class JobsDirLock {
 public:
  /// Creates the folder if needed and takes its lock.
  /// @throws std::runtime_error naming the PID of the worker that holds it, or why the
  /// folder cannot be used.
  explicit JobsDirLock(const std::filesystem::path& jobs_dir);
  ~JobsDirLock();
  JobsDirLock(const JobsDirLock&) = delete;
  JobsDirLock& operator=(const JobsDirLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace variate::remote
