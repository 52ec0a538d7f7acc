#pragma once
/// Times Stan on the same problems in the same run, through Rscript and Debian's
/// r-cran-rstan (Stan 2.21): bench/stan_logistic.R (ms per gradient of
/// bernoulli_logit_glm and a short NUTS run) and bench/stan_eight_schools.R (a 4-chain run
/// for ESS per second). Each script compiles its .stan file once, cached by its text.

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/diagnostics/draws.h"

#include "r_script.h"
#include "synthetic_logistic.h"
#include "timing.h"

namespace variate::bench {

struct StanOptions {
  int warmup = 100;  // NUTS iterations
  int draws = 100;
  int max_tree_depth = 10;
  uint64_t seed = 1;
  TimingOptions gradient;
  std::string cache_dir;  // compiled models; empty: $XDG_CACHE_HOME or ~/.cache, /variate-bench
};

struct StanResult {
  bool compiled_fresh = false;
  double compile_s = 0;     // compiling, or loading the cached model
  double gradient_ms = 0;   // median of grad_log_prob
  double log_prob = 0;      // Stan drops constants: differs from Variate's by a constant
  std::vector<double> gradient;
  double nuts_warmup_s = 0;
  double nuts_sampling_s = 0;
  int64_t nuts_leapfrog = 0;      // over the sampling iterations
  int64_t nuts_leapfrog_all = 0;  // warmup and sampling
  double nuts_step_size = 0;
  int64_t nuts_divergent = 0;
};

/// Times Stan at `theta` [D] (float64) on `data`.
/// @throws std::runtime_error with the end of R's output if the R script fails.
StanResult run_stan(const LogisticData& data, const at::Tensor& theta, const StanOptions& options);

struct StanEightSchools {
  bool compiled_fresh = false;
  double compile_s = 0;
  double wall_s = 0;  // sampling() as a user waits for it, chains in parallel processes
  int64_t leapfrog = 0;  // all chains, warmup and sampling
  int64_t divergent = 0;
  /// Sampling draws of mu, log(tau), theta_trans[1..8]: per parameter, per chain.
  std::vector<diagnostics::Draws> draws;
};

/// Eight schools (non-centered) with `chains` chains on `cores` processes.
/// @throws std::runtime_error with the end of R's output if the R script fails.
StanEightSchools run_stan_eight_schools(int chains, int cores, int warmup, int draws, uint64_t seed,
                                        const std::string& cache_dir);

}  // namespace variate::bench
