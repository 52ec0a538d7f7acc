#pragma once
/// Stan's windowed warmup schedule and metric estimation: an initial fast interval (75
/// iterations) for the step size, slow windows (25, 50, 100, ...) that each end with a
/// new metric estimated from their draws (Welford's algorithm, regularized toward a small
/// multiple of the identity), and a terminal fast interval (50). When the warmup is too
/// short for that, 15% / 75% / 10% of it.

#include <vector>

#include "engine/mcmc/euclidean_metric.h"

namespace variate {

class WindowedAdaptation {
 public:
  WindowedAdaptation(MetricKind kind, size_t dimension, int num_warmup, int init_buffer = 75,
                     int term_buffer = 50, int base_window = 25);

  /// Feeds one warmup draw (unconstrained). Returns true when a slow window just ended
  /// and `inverse_metric` holds a new estimate (d entries, or d*d row-major).
  bool learn(const std::vector<double>& q, std::vector<double>& inverse_metric);

  /// Whether the metric is adapted at all (Stan skips it for fewer than 20 warmup draws).

 private:
  bool in_window() const;
  bool window_ends() const;
  void next_window();

  MetricKind kind_;
  size_t dimension_;
  int num_warmup_, init_buffer_, term_buffer_, base_window_;
  bool adapts_metric_ = true;
  int counter_ = 0;
  int window_size_;
  int next_window_end_;
  // Welford accumulators.
  long samples_ = 0;
  std::vector<double> mean_;
  std::vector<double> m2_;  // d (diagonal) or d*d (dense)
  std::vector<double> delta_;  // a draw's distance from the running mean (scratch)
};

}  // namespace variate
