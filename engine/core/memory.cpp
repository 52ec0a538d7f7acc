#include "engine/core/memory.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "engine/core/argument_error.h"

namespace variate {
namespace {

constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

// A number from a one-line file ("max" or a missing file: unlimited).
int64_t read_number(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return kUnlimited;
  try {
    return std::stoll(text);
  } catch (const std::exception&) {
    return kUnlimited;
  }
}

// A "Key:   12345 kB" line of /proc/meminfo or /proc/self/status, in bytes.
int64_t read_kilobytes(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0) {
      std::istringstream fields(line.substr(key.size()));
      int64_t kilobytes = 0;
      if (fields >> kilobytes) return kilobytes * 1024;
    }
  }
  return kUnlimited;
}

// What is left under a resource limit, given what the process uses of it.
int64_t left_under(int resource, int64_t used) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return std::max<int64_t>(0, static_cast<int64_t>(limit.rlim_cur) - used);
}

}  // namespace

int64_t available_memory() {
  int64_t available = read_kilobytes("/proc/meminfo", "MemAvailable:");
  // cgroup v2: the group's limit less what the group uses.
  const int64_t group_limit = read_number("/sys/fs/cgroup/memory.max");
  if (group_limit != kUnlimited) {
    available = std::min(available, std::max<int64_t>(0, group_limit - read_number("/sys/fs/cgroup/memory.current")));
  }
  const int64_t address_space = read_kilobytes("/proc/self/status", "VmSize:");
  const int64_t data = read_kilobytes("/proc/self/status", "VmData:");
  available = std::min(available, left_under(RLIMIT_AS, address_space == kUnlimited ? 0 : address_space));
  available = std::min(available, left_under(RLIMIT_DATA, data == kUnlimited ? 0 : data));
  return available;
}

std::string describe_bytes(double bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int unit = 0;
  while (bytes >= 1000 && unit < 6) {
    bytes /= 1000;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

void check_memory(double bytes, const std::string& what, const std::string& advice) {
  constexpr double kTooSmallToCheck = 16.0 * 1024 * 1024;
  if (bytes < kTooSmallToCheck) return;
  const int64_t available = available_memory();
  if (bytes <= static_cast<double>(available)) return;
  throw ArgumentError(what + " needs " + describe_bytes(bytes) + " of memory, and " +
                      describe_bytes(static_cast<double>(available)) + " is available: " + advice);
}

}  // namespace variate
