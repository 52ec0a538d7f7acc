#include "engine/distributed/child_ranks.h"

#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "engine/distributed/distributed_error.h"

extern char** environ;

namespace variate::distributed {
namespace {

using Clock = std::chrono::steady_clock;

// This process's own arguments, as the kernel holds them.
std::vector<std::string> own_arguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> arguments;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\0') continue;
    arguments.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  return arguments;
}

std::string own_executable() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw DistributedError("cannot find this program's executable (/proc/self/exe)");
  return std::string(path, static_cast<size_t>(n));
}

}  // namespace

ChildRanks::ChildRanks(int world_size, const std::string& rendezvous, std::string executable,
                       std::vector<std::string> arguments) {
  if (executable.empty()) executable = own_executable();
  if (arguments.empty()) arguments = own_arguments();
  std::vector<std::string> environment;
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    if (entry.rfind("VARIATE_RANK=", 0) == 0 || entry.rfind("VARIATE_WORLD_SIZE=", 0) == 0 ||
        entry.rfind("VARIATE_RENDEZVOUS=", 0) == 0 || entry.rfind("VARIATE_PARENT_PID=", 0) == 0) {
      continue;
    }
    environment.push_back(entry);
  }
  environment.push_back("VARIATE_WORLD_SIZE=" + std::to_string(world_size));
  environment.push_back("VARIATE_RENDEZVOUS=" + rendezvous);
  environment.push_back("VARIATE_PARENT_PID=" + std::to_string(::getpid()));
  for (int rank = 1; rank < world_size; ++rank) {
    std::vector<std::string> env = environment;
    env.push_back("VARIATE_RANK=" + std::to_string(rank));
    std::vector<char*> argv;
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    pid_t pid = 0;
    const int error = ::posix_spawn(&pid, executable.c_str(), nullptr, nullptr, argv.data(), envp.data());
    if (error != 0) {
      stop();
      throw DistributedError("cannot start rank " + std::to_string(rank) + ": " + std::strerror(error));
    }
    pids_.push_back(pid);
    status_.push_back(0);
    reaped_.push_back(false);
  }
}

ChildRanks::~ChildRanks() { stop(); }

std::string ChildRanks::describe(size_t i) const {
  const std::string who = "rank " + std::to_string(i + 1) + " (pid " + std::to_string(pids_[i]) + ")";
  if (!reaped_[i]) return who + " is still running";
  const int status = status_[i];
  if (WIFSIGNALED(status)) {
    return who + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    return who + " exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return "";
}

void ChildRanks::reap(bool block) {
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (reaped_[i]) continue;
    int status = 0;
    const pid_t done = ::waitpid(pids_[i], &status, block ? 0 : WNOHANG);
    if (done == pids_[i]) {
      reaped_[i] = true;
      status_[i] = status;
    }
  }
}

std::string ChildRanks::poll_failure() {
  reap(false);
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!reaped_[i]) continue;
    if (std::string what = describe(i); !what.empty()) return what;
  }
  return "";
}

std::string ChildRanks::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    reap(false);
    if (std::string failure = poll_failure(); !failure.empty()) return failure;
    if (std::all_of(reaped_.begin(), reaped_.end(), [](bool r) { return r; })) return "";
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!reaped_[i]) return describe(i);
  }
  return "";
}

void ChildRanks::stop(std::chrono::milliseconds grace) {
  reap(false);
  bool running = false;
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!reaped_[i]) {
      ::kill(pids_[i], SIGTERM);
      ::kill(pids_[i], SIGCONT);  // a stopped (hung) child acts on it only when continued
      running = true;
    }
  }
  if (!running) return;
  const auto deadline = Clock::now() + grace;
  while (Clock::now() < deadline) {
    reap(false);
    if (std::all_of(reaped_.begin(), reaped_.end(), [](bool r) { return r; })) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (size_t i = 0; i < pids_.size(); ++i) {
    if (!reaped_[i]) ::kill(pids_[i], SIGKILL);
  }
  reap(true);
}

void follow_parent_rank() {
  const char* parent = std::getenv("VARIATE_PARENT_PID");
  if (!parent || !*parent) return;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (std::to_string(::getppid()) != parent) std::_Exit(1);  // the parent died before prctl
}

}  // namespace variate::distributed
