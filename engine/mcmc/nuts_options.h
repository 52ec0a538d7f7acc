#pragma once
/// Options of a NUTS run, with Stan's defaults, set by chainable setters that validate:
///
///   NutsOptions().chains(4).warmup(1000).draws(1000).seed(1).target_accept(0.9)

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/checked_option.h"
#include "engine/mcmc/euclidean_metric.h"

namespace variate {

enum class Adaptation { fisher, stan };

/// Where a chain continues an earlier run ("run more draws"): its last unconstrained
/// position and the step size and inverse metric its warmup adapted.
struct ChainStart {
  std::vector<double> position;
  double step_size = 1.0;
  std::vector<double> inverse_metric;  // d values (diagonal) or d*d row-major (dense)
};

class NutsOptions {
 public:
#define VARIATE_OPTION(type, name, default_value, check) VARIATE_CHECKED_OPTION(NutsOptions, type, name, default_value, check)

  VARIATE_OPTION(int, chains, 4, value >= 1)
  VARIATE_OPTION(int, warmup, 1000, value >= 0)
  VARIATE_OPTION(int, draws, 1000, value >= 0)
  VARIATE_OPTION(uint64_t, seed, 0, true)
  VARIATE_OPTION(int, max_tree_depth, 10, value >= 1 && value <= 30)
  VARIATE_OPTION(double, target_accept, 0.8, value > 0 && value < 1)
  /// Where the search for a first step size starts (Stan's stepsize): the step size is
  /// doubled or halved from it until one leapfrog step's acceptance crosses 0.8.
  VARIATE_OPTION(double, step_size, 1.0, value > 0 && std::isfinite(value))
  /// Chains run in parallel on at most this many threads; 0 picks one per chain, bounded
  /// by the hardware's cores. In lockstep with other processes (sample_nuts), chains run
  /// one at a time and this is the threads their density gets (0: all cores).
  VARIATE_OPTION(int, threads, 0, value >= 0)
  /// Initial positions are uniform on (-init_radius, init_radius) in unconstrained space.
  VARIATE_OPTION(double, init_radius, 2.0, value >= 0)
  /// Draws handed to the observer at once (it also gets what is pending every ~100 ms).
  VARIATE_OPTION(int, batch_size, 100, value >= 1)
#undef VARIATE_OPTION

 public:
  NutsOptions& metric(MetricKind kind) {
    metric_ = kind;
    return *this;
  }
  MetricKind metric() const { return metric_; }

  /// How warmup adapts the metric (warmup.h): from draws and gradients (fisher_warmup.h),
  /// or by Stan's windowed variance of draws (stan_warmup.h).
  NutsOptions& adaptation(Adaptation kind) {
    adaptation_ = kind;
    return *this;
  }
  Adaptation adaptation() const { return adaptation_; }

  /// Evaluate all chains' log densities in one batched tensor computation (each chain on
  /// its own thread, waiting for the others); faster where one evaluation has a large
  /// fixed cost, as for small models or on a GPU. Draws can differ from the per-chain
  /// mode in the last bits, since batched arithmetic may round differently.
  NutsOptions& batched_chains(bool batched) {
    batched_chains_ = batched;
    return *this;
  }
  bool batched_chains() const { return batched_chains_; }

  /// Continue chains from where an earlier run left them, one start per chain: no
  /// initialization, no adaptation (warmup must be 0). Chains draw from random streams
  /// other than a fresh run's with the same seed; give each continuation its own seed.
  NutsOptions& resume_from(std::vector<ChainStart> starts) {
    if (starts.empty()) throw ArgumentError("NutsOptions: argument 'resume_from' must not be empty");
    for (const auto& start : starts) {
      if (!(start.step_size > 0)) {
        throw ArgumentError("NutsOptions: argument 'resume_from' needs positive step sizes, got " +
                            std::to_string(start.step_size));
      }
    }
    resume_from_ = std::move(starts);
    return *this;
  }
  const std::vector<ChainStart>& resume_from() const { return resume_from_; }

  /// Where each chain starts (unconstrained, one position per chain) instead of a random
  /// point: draws from an approximation such as Pathfinder's. Warmup runs as usual.
  NutsOptions& initial_positions(std::vector<std::vector<double>> positions) {
    if (positions.empty()) throw ArgumentError("NutsOptions: argument 'initial_positions' must not be empty");
    initial_positions_ = std::move(positions);
    return *this;
  }
  const std::vector<std::vector<double>>& initial_positions() const { return initial_positions_; }

  /// The inverse metric warmup starts from instead of the identity (d values for a
  /// diagonal metric, d*d row-major for a dense one): a covariance estimate such as
  /// Pathfinder's, so the first windows do not explore with the wrong scales. Adaptation
  /// replaces it at the end of its first slow window, as it does the identity.
  NutsOptions& initial_inverse_metric(std::vector<double> values) {
    if (values.empty()) throw ArgumentError("NutsOptions: argument 'initial_inverse_metric' must not be empty");
    initial_inverse_metric_ = std::move(values);
    return *this;
  }
  const std::vector<double>& initial_inverse_metric() const { return initial_inverse_metric_; }

 private:
  MetricKind metric_ = MetricKind::diagonal;
  Adaptation adaptation_ = Adaptation::stan;
  bool batched_chains_ = false;
  std::vector<ChainStart> resume_from_;
  std::vector<std::vector<double>> initial_positions_;
  std::vector<double> initial_inverse_metric_;
};

}  // namespace variate
