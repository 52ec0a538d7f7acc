#pragma once
/// What variate-bench-models measures on one model: µs per gradient on the tape and on
/// LibTorch, a NUTS run on the tape (min bulk-ESS, time, leapfrog steps), and the same run
/// with Stan 2.21; and the figures the tables derive from them.

#include <cstdint>
#include <string>
#include <vector>

#include "bench_models.h"
#include "bulk_ess.h"
#include "cli_runs.h"
#include "report.h"
#include "timing.h"

namespace variate::bench {

struct ModelBenchOptions {
  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  uint64_t seed = 1;
  int threads = 2;  // chain threads for Variate, rstan's cores: the "cores" of ESS/s
  int runs = 10;    // runs of Variate's NUTS alone and through `variate sample`: medians
  int points = 16;  // points the gradients are timed at
  TimingOptions timing{3, 25, true};  // batches, timed by the thread's CPU time
  bool stan = true;
  std::string stan_cache;
};

struct ModelFigures {
  std::string name;
  int64_t dimension = 0;
  // Gradients (one thread).
  double tape_us = kNotAvailable;
  double torch_us = kNotAvailable;
  double max_difference = kNotAvailable;  // tape against LibTorch, relative
  // Variate's NUTS run.
  std::string nuts_backend;        // "tape", or "torch" when the tape cannot run the model
  double chain_s = kNotAvailable;  // seconds_warmup + seconds_sampling, summed over chains (median of runs)
  double cpu_s = kNotAvailable;    // CPU time of the chains' threads, summed (median of runs)
  int64_t leapfrog = 0;            // all chains, warmup and sampling
  int64_t sampling_leapfrog = 0;   // all chains, sampling only
  int64_t gradients = 0;           // gradient evaluations, all chains
  int64_t divergent = 0;
  MinBulkEss ess;
  // The same run through `variate sample` (CSV output).
  CliFigures cli;
  // Stan's run (Stan's clock, summed over chains).
  double stan_s = kNotAvailable;
  int64_t stan_leapfrog = 0;
  int64_t stan_divergent = 0;
  MinBulkEss stan_ess;
  double stan_compile_s = kNotAvailable;
  bool stan_compiled_fresh = false;
  /// What could not run, and why.
  std::vector<std::string> notes;

  double torch_over_tape() const { return torch_us / tape_us; }
  /// min bulk-ESS per second of `variate sample`, its chains' seconds (CSV timing blocks)
  /// summed and divided by `cores`: what a user gets.
  double ess_per_s(int cores) const { return ess.ess / (cli.chain_s / cores); }
  /// The same for the sampler alone (sample_nuts without the command line's observers).
  double sampler_ess_per_s(int cores) const { return ess.ess / (chain_s / cores); }
  /// The share of `variate sample`'s chain time spent outside NUTS: each draw's values,
  /// derived quantities and writing.
  double outside_nuts_share() const { return (cli.chain_s - chain_s) / cli.chain_s; }
  /// Whether the command line drew what the sampler-only run drew (the same leapfrog steps).
  bool cli_same_draws() const { return cli.sampling_leapfrog == sampling_leapfrog; }
  double ess_per_cpu_s(int cores) const { return ess.ess / (cpu_s / cores); }
  double stan_ess_per_s(int cores) const { return stan_ess.ess / (stan_s / cores); }
  double us_per_leapfrog() const { return per_leapfrog(cpu_s, leapfrog); }
  double stan_us_per_leapfrog() const { return per_leapfrog(stan_s, stan_leapfrog); }
  /// µs per gradient of the NUTS backend x gradient evaluations, per leapfrog step.
  double gradient_us_per_leapfrog() const;

 private:
  static double per_leapfrog(double seconds, int64_t steps) {
    return steps > 0 ? 1e6 * seconds / static_cast<double>(steps) : kNotAvailable;
  }
};

/// Everything for `model`; what fails lands in `notes`, its figures stay n/a.
ModelFigures measure_model(const BenchModel& model, const ModelBenchOptions& options);

}  // namespace variate::bench
