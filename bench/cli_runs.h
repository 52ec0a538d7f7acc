#pragma once
/// One run of `variate sample` as a user runs it, for variate-bench-models: the same model,
/// data, chains and seed as the bench's own NUTS run, through the command line with CSV
/// output. What it adds to the sampler — each draw's parameters, derived quantities and
/// writing — is the difference between its chains' own elapsed times (the CSV timing
/// blocks) and the sampler-only run's.

#include <cstdint>
#include <string>

#include "bench_models.h"
#include "report.h"

namespace variate::bench {

struct ModelBenchOptions;

struct CliFigures {
  double chain_s = kNotAvailable;  // warm-up + sampling from each chain's timing block, summed
  double wall_s = kNotAvailable;   // the whole process, start-up included
  int64_t sampling_leapfrog = 0;   // n_leapfrog__ over the post-warmup rows of all chains
};

/// Runs `variate sample` (the one built beside the bench) into a temporary folder.
/// @throws std::runtime_error when it cannot start or exits with an error.
CliFigures run_variate_sample(const BenchModel& model, const ModelBenchOptions& options);

}  // namespace variate::bench
