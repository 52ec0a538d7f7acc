#pragma once
/// What a run may still allocate, and the check that refuses work which cannot fit before
/// it starts: a model of 10^6 parameters whose draws would take 64 GB fails at once with
/// the sizes named, not minutes later in the kernel's out-of-memory killer.
///
///   check_memory(bytes, "4 chains x 2000 iterations of 1000000 parameters", "run fewer draws");

#include <cstdint>
#include <string>

namespace variate {

/// Bytes this process may still allocate: the machine's available memory
/// (/proc/meminfo's MemAvailable), lowered by the control group's limit (memory.max less
/// memory.current) and by this process's RLIMIT_AS and RLIMIT_DATA, less what it holds.
int64_t available_memory();

/// "3.2 GB", "512 MB": a size for messages (decimal units, as df and free -H print).
std::string describe_bytes(double bytes);

/// @throws ArgumentError "WHAT needs 64.0 GB of memory, and 21.3 GB is available: ADVICE"
///         when `bytes` exceeds available_memory(). Requests under 16 MiB pass unchecked:
///         reading what is available costs four file reads, and a model of 400,000 small
///         variables asks once for each.
void check_memory(double bytes, const std::string& what, const std::string& advice);

}  // namespace variate
