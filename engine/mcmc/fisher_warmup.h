#pragma once
/// Warmup from draws and gradients (nutpie's, after Seyboldt, Carlson & Carpenter): the
/// diagonal inverse metric that minimizes the Fisher divergence between the posterior and
/// a standard normal mapped by the metric, sqrt(var(draws) / var(gradients)) per
/// coordinate (on a Gaussian posterior with independent coordinates, their variances). It
/// starts from 1/|gradient| at the initial point and is estimated again after every
/// transition from the draws of the current window:
///
///   early: windows of 10 draws, over the first 30% of warmup (at most 100 draws);
///   then windows of 80 draws, each 1.5 times as long as the one before;
///   last: 50 draws (or the last 15% of a warmup that runs to its end) where the metric
///   stays and only the step size adapts.
///
/// Two estimates run side by side: the "foreground" one gives the metric and the
/// "background" one, begun at the last switch, takes its place once it holds a full
/// window; so the metric rests on the draws since the switch before last. Draws a
/// transition did not move (its proposal was its start) add nothing.
///
/// Warmup ends early, before options.warmup() (the user's cap), once it has settled: at
/// the end of a window of 80 draws or more whose estimate agrees with the window's before
/// it (over the coordinates, the log ratios of the two estimates, less their median, have
/// a root mean square of at most 0.3 and none beyond log 3: the noise of two windows of
/// ~40 effective draws each is ~0.2) and whose mean acceptance is within 0.1 of the
/// target. The last, step-size-only part follows.
///
/// The step size is dual averaging, searched for again when the first estimate replaces
/// the initial metric; sampling uses the averaged step size, as Stan's does.
///
/// A low-rank metric (MetricKind::low_rank) is estimated from the same windows, after the
/// early ones (low_rank_estimate.h): the foreground window's draws and gradients are kept,
/// and the estimate is made again whenever that window has grown by a quarter. Beyond
/// kLargestLowRank parameters the window would not fit in memory (d = 10^5 takes 800 MB
/// a chain): the metric stays diagonal (rank 0).
///
/// A chain that starts where the gradients are enormous (an explosive recurrence, far in a
/// tail) gets a tiny metric and step there and crawls. When 10 transitions in a row all
/// accept (mean acceptance above 0.999: the step is far too small), warmup begins again
/// where the chain is: estimates dropped, the metric from the gradient there, a new step
/// size.

#include "engine/mcmc/running_variance.h"
#include "engine/mcmc/step_size_adaptation.h"
#include "engine/mcmc/warmup.h"

namespace variate {

/// The most parameters a low-rank metric estimates its eigenvectors for.
constexpr size_t kLargestLowRank = 2000;

class FisherWarmup : public Warmup {
 public:
  FisherWarmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
               RandomStream& random, bool metric_given);
  double start(const PhasePoint& point, double step_size) override;
  WarmupStep learn(int iteration, const PhasePoint& point, const NutsResult& stats) override;

 private:
  void add(const PhasePoint& point);
  /// The background window becomes the foreground one; true when the one it replaces
  /// agreed with it (warmup has settled).
  bool switch_windows();
  /// The Fisher estimate of the foreground window into `out`, where it has 3 draws or
  /// more; false otherwise.
  bool estimate(const RunningVariance& draws, const RunningVariance& gradients, std::vector<double>& out) const;
  void search_step_size(const PhasePoint& point, double& step_size);
  void metric_from_gradient(const PhasePoint& point);
  /// The low-rank metric from the foreground window's draws, when it has grown enough since
  /// the last estimate.
  void estimate_low_rank_metric();
  /// The metric from inverse_metric_ alone (a low-rank one of rank 0).
  void set_diagonal();
  /// Warmup begins again at `point`: the chain was stuck, and what it learned there is
  /// dropped.
  void start_again(const PhasePoint& point, double& step_size);

  EuclideanMetric& metric_;
  const Hamiltonian& hamiltonian_;
  RandomStream& random_;
  bool metric_given_;
  double target_accept_;
  int cap_;                // options.warmup()
  int end_;                // the transitions warmup takes: cap_ until it settles
  int early_end_;          // the first transition after the early windows
  int step_size_only_;     // the first transition of the last, step-size-only part
  long window_;            // the length of the current window after the early ones
  bool searched_ = false;  // the step size was searched for after the first estimate
  StepSizeAdaptation step_size_;
  RunningVariance draws_, gradients_;                        // foreground
  RunningVariance background_draws_, background_gradients_;  // background
  std::vector<double> last_q_;
  std::vector<double> inverse_metric_;
  std::vector<double> previous_window_;  // the estimate of the window before the background one
  long previous_length_ = 0;             // and its draws
  double window_accept_ = 0;
  int window_transitions_ = 0;
  double recent_accept_ = 0;  // over the last 10 transitions or fewer
  // The low-rank metric: the foreground window's draws and gradients (the background
  // window's from background_start_ on), and how many the last estimate used.
  bool low_rank_;      // the metric is a low-rank one
  bool keeps_window_;  // and estimates its eigenvectors (kLargestLowRank)
  std::vector<std::vector<double>> window_draws_, window_gradients_;
  size_t background_start_ = 0;
  size_t low_rank_draws_ = 0;
  std::vector<double> packed_;  // a low-rank metric's entries of rank 0 (euclidean_metric.h)
};

}  // namespace variate
