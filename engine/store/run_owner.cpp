#include "engine/store/run_owner.h"

#include <cerrno>
#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>

#include <signal.h>
#include <unistd.h>

namespace variate::store {
namespace {

struct ProcessStat {
  char state = '?';  // 'Z': a zombie, dead but not yet reaped by its parent
  int64_t start_time = 0;
};

// Fields 3 and 22 of /proc/PID/stat; the second field (the command) may contain spaces
// and parentheses, so fields are counted after its last ')'.
ProcessStat process_stat(int64_t pid) {
  ProcessStat stat;
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  if (close == std::string::npos) return stat;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int index = 3; index <= 22 && fields >> field; ++index) {
    if (index == 3) stat.state = field.empty() ? '?' : field[0];
    if (index == 22) stat.start_time = std::stoll(field);
  }
  return stat;
}

}  // namespace

RunOwner current_run_owner() {
  RunOwner owner;
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) owner.host = host;
  owner.pid = static_cast<int64_t>(getpid());
  owner.start_time = process_stat(owner.pid).start_time;
  return owner;
}

bool run_owner_alive(const RunOwner& owner) {
  if (owner.pid <= 0) return false;
  // EPERM: the process exists but belongs to another user.
  if (kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno != EPERM) return false;
  const ProcessStat stat = process_stat(owner.pid);
  if (stat.state == 'Z' || stat.state == 'X') return false;
  return owner.start_time == 0 || stat.start_time == 0 || stat.start_time == owner.start_time;
}

double unix_seconds_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace variate::store
