#pragma once
/// Samples a model with Stan 2.21 (Rscript, rstan: bench/stan_models.R) on the same data
/// file as Variate, and reads back Stan's own timings and the draws of its parameters.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::bench {

struct StanModelOptions {
  int chains = 4;
  int cores = 2;  // rstan's parallel processes
  int warmup = 1000;
  int draws = 1000;
  uint64_t seed = 1;
  std::string cache_dir;  // compiled models; empty: the default (r_script.h)
};

struct StanModelRun {
  bool compiled_fresh = false;
  double compile_s = 0;  // compiling, or loading the cached model
  /// get_elapsed_time per chain: Stan's C++ sampler times itself with clock(), the CPU
  /// time of the process that runs the chain.
  std::vector<double> warmup_s;
  std::vector<double> sampling_s;
  int64_t leapfrog = 0;            // all chains, warmup and sampling
  int64_t divergent = 0;           // sampling iterations
  std::vector<std::string> names;  // of the parameters block's elements: "beta[1]"
  /// Sampling draws of those elements (constrained): per parameter, per chain.
  std::vector<diagnostics::Draws> draws;

  /// Warmup and sampling, summed over chains.
  double seconds() const;
};

/// `stan_file` on `data_json` (CmdStan JSON).
/// @throws std::runtime_error with the end of R's output if Stan fails (a compile error).
StanModelRun run_stan_model(const std::string& stan_file, const std::string& data_json,
                            const StanModelOptions& options);

}  // namespace variate::bench
