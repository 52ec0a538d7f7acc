#include "engine/core/threading.h"

#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <thread>

#include <ATen/Parallel.h>

#include "engine/core/checks.h"

namespace variate {
namespace {

// OpenBLAS's entry points, looked up at run time: the engine links the system BLAS by
// its generic name, which may or may not be OpenBLAS.
using SetThreads = void (*)(int);
using GetThreads = int (*)();

SetThreads openblas_setter() {
  static const auto f = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  return f;
}

GetThreads openblas_getter() {
  static const auto f = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  return f;
}

}  // namespace

int hardware_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

namespace {
thread_local int core_limit = 0;  // 0: none
}  // namespace

int available_cores() { return core_limit > 0 ? std::min(core_limit, hardware_threads()) : hardware_threads(); }

CoreLimit::CoreLimit(int cores) : previous_(core_limit) {
  if (cores < 1) throw ArgumentError("CoreLimit: argument 'cores' must be >= 1, got " + std::to_string(cores));
  core_limit = cores;
}

CoreLimit::~CoreLimit() { core_limit = previous_; }

ThreadPlan plan_threads(int chains, int max_threads, bool batched_chains) {
  if (chains < 1) throw ArgumentError("plan_threads: argument 'chains' must be >= 1, got " + std::to_string(chains));
  if (max_threads < 0) {
    throw ArgumentError("plan_threads: argument 'max_threads' must be >= 0, got " + std::to_string(max_threads));
  }
  const int cores = available_cores();
  if (batched_chains) return {chains, cores};
  const int chain_threads = std::min(chains, max_threads > 0 ? max_threads : cores);
  return {chain_threads, std::max(1, cores / chain_threads)};
}

IntraOpThreads::IntraOpThreads(int threads)
    : previous_torch_(at::get_num_threads()), previous_blas_(openblas_threads()) {
  if (threads < 1) throw ArgumentError("IntraOpThreads: argument 'threads' must be >= 1, got " + std::to_string(threads));
  at::set_num_threads(threads);
  if (previous_blas_ > 0) openblas_setter()(threads);
}

IntraOpThreads::~IntraOpThreads() {
  at::set_num_threads(previous_torch_);
  if (previous_blas_ > 0) openblas_setter()(previous_blas_);
}

int openblas_threads() {
  const GetThreads get = openblas_getter();
  return get && openblas_setter() ? get() : 0;
}

}  // namespace variate
