#include "engine/remote/jobs_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace variate::remote {

JobsDirLock::JobsDirLock(const std::filesystem::path& jobs_dir) {
  std::filesystem::create_directories(jobs_dir);
  const std::string path = (jobs_dir / "worker.lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char pid[32] = {};
    const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
    ::close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) throw std::runtime_error("cannot lock '" + path + "': " + std::strerror(error));
    const std::string holder = n > 0 ? std::string(pid, static_cast<size_t>(n)) : std::string("?");
    throw std::runtime_error("another worker (PID " + holder.substr(0, holder.find('\n')) +
                             ") serves the jobs in this folder; give this worker a --jobs-dir of its own");
  }
  const std::string mine = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, mine.data(), mine.size(), 0) != static_cast<ssize_t>(mine.size())) {
    // The lock holds without the PID; only the message of a second worker is the poorer.
  }
}

JobsDirLock::~JobsDirLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace variate::remote
