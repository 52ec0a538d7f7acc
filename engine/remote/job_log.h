#pragma once
/// A job's events, append-only, numbered from 0 without gaps: kept in memory for the
/// streams that follow the job, and written to `events.log` in the job's folder (each event
/// as a 4-byte little-endian length and the message) so a restarted worker still serves a
/// finished job. Thread-safe: the job's threads append, any number of streams read.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "variate_worker.pb.h"

namespace variate::remote {

class JobLog {
 public:
  /// Opens (creating it if absent) the log at `path`, reading the events it holds; a torn
  /// last record (the worker died while writing it) is dropped.
  /// @throws std::runtime_error when the file cannot be opened.
  explicit JobLog(const std::string& path);

  /// Numbers `event`, stores it and wakes the readers; returns its seq. After close(),
  /// events are dropped.
  uint64_t append(v1::RunEvent event);
  /// No more events (after the job's last one); wakes the readers.
  void close();

  uint64_t size() const;
  bool closed() const;
  /// The event numbered `seq`, waiting until `deadline` for it; nullopt when the deadline
  /// passed or the log closed before it.
  std::optional<v1::RunEvent> wait_for(uint64_t seq, std::chrono::steady_clock::time_point deadline) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<v1::RunEvent> events_;
  std::ofstream file_;
  bool closed_ = false;
};

}  // namespace variate::remote
