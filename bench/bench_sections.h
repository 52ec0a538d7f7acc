#pragma once
/// The benchmark's later tables: NUTS ms per leapfrog step for each configuration, eight
/// schools' bulk-ESS per second against Stan, and the closing table of ratios.

#include <string>
#include <utility>
#include <vector>

#include "engine/model/compiled_model.h"

#include "report.h"
#include "stan_runner.h"
#include "timing.h"

namespace variate::bench {

struct BenchOptions {
  int64_t rows = 581012;
  int64_t columns = 55;
  uint64_t seed = 1;
  int threads = 0;  // 0: one per core
  bool row_major = false;
  TimingOptions timing;
  int nuts_warmup = 100;
  int nuts_draws = 100;
  int max_tree_depth = 10;
  int nuts_chains = 4;  // of the multi-chain rows
  bool skip_eight_schools = false;
  bool stan = false;
  std::string stan_cache;
};

/// The figures the closing table compares.
struct Summary {
  double stan_gradient_ms = kNotAvailable;
  double gradient_ms64 = kNotAvailable;  // (a), fused
  double gradient_ms32 = kNotAvailable;
  double nuts_ms64 = kNotAvailable;  // 1 chain, float64
  double nuts_ms32 = kNotAvailable;
  double nuts_ms_chains = kNotAvailable;  // several chains, a thread each
  double nuts_ms_batched = kNotAvailable;
  double stan_nuts_ms = kNotAvailable;
  std::vector<std::pair<std::string, double>> ess_per_second;  // Variate's modes
  double stan_ess_per_second = kNotAvailable;
};

/// The compiled logistic regression in float64 and float32 (both fused).
struct LogisticModels {
  const model::CompiledModel* float64;
  const model::CompiledModel* float32;
};

void print_nuts_section(const BenchOptions& options, const LogisticModels& models, const StanResult* stan,
                        Summary& summary);
void print_eight_schools_section(const BenchOptions& options, bool stan, Summary& summary,
                                 std::vector<std::pair<std::string, std::string>>& notes);
void print_summary(const Summary& summary);

}  // namespace variate::bench
