#pragma once
/// Which process writes a run, so that a later open can tell a run still being written
/// from one whose writer died: the host name, the pid and the process's start time (a
/// pid can be reused; its start time cannot repeat).

#include <cstdint>
#include <string>

namespace variate::store {

struct RunOwner {
  std::string host;
  int64_t pid = 0;
  int64_t start_time = 0;  ///< clock ticks since boot (Linux /proc/PID/stat field 22); 0 if unknown
};

/// This process.
RunOwner current_run_owner();

/// Whether `owner` (a process on this host) still runs: the pid exists and, where both
/// start times are known, has the same start time.
bool run_owner_alive(const RunOwner& owner);

/// Seconds since the Unix epoch, the timestamps of project files.
double unix_seconds_now();

}  // namespace variate::store
