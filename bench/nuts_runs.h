#pragma once
/// One NUTS run of the engine as the benchmark reports it: wall time over all leapfrog
/// steps of all chains (warmup included), the CPU time of the chains, and how the cores
/// were split between chain threads and LibTorch's intra-op threads.

#include <cstdint>
#include <vector>

#include "engine/mcmc/sample.h"

#include "report.h"

namespace variate::bench {

struct NutsFigures {
  double wall_s = kNotAvailable;  // the whole run, warmup included
  /// CPU time of the threads that ran the chains, summed over chains (each chain's share:
  /// its thread's CPU time from its start to its end), warmup included; LibTorch's
  /// intra-op worker threads are not counted.
  double cpu_s = 0;
  int64_t leapfrog = 0;           // all chains, warmup and sampling
  double ms_per_leapfrog = kNotAvailable;
  double step_size = 0;           // mean over chains
  int64_t divergent = 0;          // sampling iterations
  int chain_threads = 0;          // threads that ran chains
  int intra_op_threads = 0;       // at::get_num_threads() on a chain's thread
  std::vector<ChainResult> chains;
};

NutsFigures run_nuts(const UnconstrainedTarget& target, const NutsOptions& options);

}  // namespace variate::bench
