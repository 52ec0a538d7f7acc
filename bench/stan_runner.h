#pragma once
/// Times Stan on the same data in the same run: writes the data to a temporary folder and
/// runs bench/stan_logistic.R through Rscript (Debian's r-cran-rstan, Stan 2.21), which
/// compiles bench/logistic_regression.stan once (cached by its text) and measures ms per
/// gradient (rstan's grad_log_prob) and a short NUTS run.

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

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
  int64_t nuts_leapfrog = 0;  // over the sampling iterations
  double nuts_step_size = 0;
  int64_t nuts_divergent = 0;
};

/// Whether `Rscript -e 'library(rstan)'` works here.
bool stan_available();

/// Times Stan at `theta` [D] (float64) on `data`.
/// @throws std::runtime_error with the end of R's output if the R script fails.
StanResult run_stan(const LogisticData& data, const at::Tensor& theta, const StanOptions& options);

}  // namespace variate::bench
