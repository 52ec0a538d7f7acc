#include "engine/mcmc/fisher_warmup.h"

#include <algorithm>
#include <cmath>

#include "engine/mcmc/initial_step_size.h"
#include "engine/mcmc/low_rank_estimate.h"

namespace variate {
namespace {

constexpr int kEarlyWindow = 10;
constexpr int kLongestEarlyPhase = 100;
constexpr long kFirstWindow = 80;
constexpr double kWindowGrowth = 1.5;
constexpr int kStepSizeOnly = 50;
// The low-rank metric: eigenvalues kept beyond this factor of 1, and estimated again
// whenever the foreground window has grown by a quarter, from 20 draws on. The sample
// covariance of ~100 draws in ~25 dimensions has eigenvalues within ~1/4 to ~2.5 of the
// true ones (Marchenko-Pastur), so those kept are the posterior's; nutpie keeps those
// beyond 100, which leaves a correlation below 0.9999 to the diagonal: measured on the
// reference posteriors, a cutoff of 4 against 100 took 35x fewer gradients per effective
// draw on kidscore_interaction, and one of 2 lost a fifth on eight schools.
constexpr double kEigenvalueCutoff = 4;
constexpr double kLowRankGrowth = 1.25;
constexpr size_t kLowRankFewestDraws = 20;
// When two windows' estimates agree (see the header).
constexpr double kSettledSpread = 0.3;
const double kSettledLargest = std::log(3.0);
constexpr double kSettledAccept = 0.1;
constexpr int kStuckRun = 10;  // transitions
constexpr double kStuckAccept = 0.999;

double median(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Whether two diagonal estimates differ by little more than a common scale.
bool agree(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> log_ratios(a.size());
  for (size_t i = 0; i < a.size(); ++i) log_ratios[i] = std::log(b[i] / a[i]);
  const double centre = median(log_ratios);
  double squares = 0;
  for (const double r : log_ratios) {
    if (std::abs(r - centre) > kSettledLargest) return false;
    squares += (r - centre) * (r - centre);
  }
  return std::sqrt(squares / static_cast<double>(a.size())) <= kSettledSpread;
}

}  // namespace

FisherWarmup::FisherWarmup(const NutsOptions& options, EuclideanMetric& metric, const Hamiltonian& hamiltonian,
                           RandomStream& random, bool metric_given)
    : metric_(metric),
      hamiltonian_(hamiltonian),
      random_(random),
      metric_given_(metric_given),
      target_accept_(options.target_accept()),
      cap_(options.warmup()),
      end_(options.warmup()),
      early_end_(std::min(static_cast<int>(0.3 * options.warmup()), kLongestEarlyPhase)),
      step_size_only_(options.warmup() - static_cast<int>(0.15 * options.warmup())),
      window_(kFirstWindow),
      step_size_(options.target_accept()),
      draws_(metric.dimension()),
      gradients_(metric.dimension()),
      background_draws_(metric.dimension()),
      background_gradients_(metric.dimension()),
      inverse_metric_(metric.dimension(), 1.0),
      low_rank_(metric.kind() == MetricKind::low_rank),
      keeps_window_(low_rank_ && metric.dimension() <= kLargestLowRank) {
  if (metric.kind() == MetricKind::dense) {
    throw ArgumentError("FisherWarmup: the Fisher adaptation estimates a diagonal or low-rank metric");
  }
  // A given metric's diagonal (a low-rank one's variances) stands where an estimate fails.
  if (metric_given) {
    const auto& given = metric.inverse_metric();
    std::copy_n(given.begin() + (low_rank_ ? 1 : 0), inverse_metric_.size(), inverse_metric_.begin());
  }
}

void FisherWarmup::add(const PhasePoint& point) {
  draws_.add(point.q);
  gradients_.add(point.gradient);
  background_draws_.add(point.q);
  background_gradients_.add(point.gradient);
  last_q_ = point.q;
  if (keeps_window_) {
    window_draws_.push_back(point.q);
    window_gradients_.push_back(point.gradient);
  }
}

void FisherWarmup::search_step_size(const PhasePoint& point, double& step_size) {
  step_size = initial_step_size(hamiltonian_, point, step_size, random_);
  step_size_.restart(step_size);
}

void FisherWarmup::metric_from_gradient(const PhasePoint& point) {
  // The variance of a standard normal scaled to have this gradient here.
  for (size_t i = 0; i < inverse_metric_.size(); ++i) {
    const double magnitude = std::abs(point.gradient[i]);
    inverse_metric_[i] = magnitude > 0 && std::isfinite(magnitude)
                             ? std::clamp(1 / magnitude, kSmallestVariance, kLargestVariance)
                             : 1.0;
  }
  set_diagonal();
}

void FisherWarmup::set_diagonal() {
  if (!low_rank_) {
    metric_.set_inverse_metric(inverse_metric_);
    return;
  }
  packed_.assign(1, 0.0);  // rank 0
  packed_.insert(packed_.end(), inverse_metric_.begin(), inverse_metric_.end());
  metric_.set_inverse_metric(packed_);
}

double FisherWarmup::start(const PhasePoint& point, double step_size) {
  if (!metric_given_) metric_from_gradient(point);
  add(point);
  search_step_size(point, step_size);
  return step_size;
}

void FisherWarmup::start_again(const PhasePoint& point, double& step_size) {
  const size_t d = inverse_metric_.size();
  draws_ = gradients_ = background_draws_ = background_gradients_ = RunningVariance(d);
  window_draws_.clear();
  window_gradients_.clear();
  background_start_ = 0;
  low_rank_draws_ = 0;
  previous_window_.clear();
  previous_length_ = 0;
  window_accept_ = 0;
  window_transitions_ = 0;
  metric_from_gradient(point);
  add(point);
  try {
    search_step_size(point, step_size);
  } catch (const ArgumentError&) {  // no step size in range from here: dual averaging goes on
    step_size_.restart(step_size);
  }
}

bool FisherWarmup::estimate(const RunningVariance& draws, const RunningVariance& gradients,
                            std::vector<double>& out) const {
  if (draws.count() < 3) return false;
  const auto& draw_squares = draws.sum_of_squares();
  const auto& gradient_squares = gradients.sum_of_squares();
  for (size_t i = 0; i < out.size(); ++i) {
    const double variance = std::sqrt(draw_squares[i] / gradient_squares[i]);
    if (std::isfinite(variance) && variance > 0) out[i] = std::clamp(variance, kSmallestVariance, kLargestVariance);
  }
  return true;
}

bool FisherWarmup::switch_windows() {
  std::vector<double> finished = inverse_metric_;
  const long length = background_draws_.count();
  const bool compared = estimate(background_draws_, background_gradients_, finished) &&
                        previous_length_ >= kFirstWindow && length >= kFirstWindow;
  const bool settled = compared && agree(previous_window_, finished) &&
                       std::abs(window_accept_ / std::max(1, window_transitions_) - target_accept_) <= kSettledAccept;
  previous_window_ = std::move(finished);
  previous_length_ = length;
  draws_ = background_draws_;
  gradients_ = background_gradients_;
  background_draws_ = RunningVariance(inverse_metric_.size());
  background_gradients_ = RunningVariance(inverse_metric_.size());
  const auto dropped = static_cast<std::ptrdiff_t>(background_start_);
  window_draws_.erase(window_draws_.begin(), window_draws_.begin() + dropped);
  window_gradients_.erase(window_gradients_.begin(), window_gradients_.begin() + dropped);
  background_start_ = window_draws_.size();
  low_rank_draws_ = 0;
  return settled;
}

void FisherWarmup::estimate_low_rank_metric() {
  const size_t n = window_draws_.size();
  if (n < kLowRankFewestDraws || static_cast<double>(n) < kLowRankGrowth * static_cast<double>(low_rank_draws_)) {
    if (low_rank_draws_ == 0) set_diagonal();  // none yet for this window
    return;
  }
  low_rank_draws_ = n;
  const LowRankEstimate estimate = estimate_low_rank(window_draws_, window_gradients_, kEigenvalueCutoff);
  metric_.set_inverse_metric(low_rank_entries(estimate.variances, estimate.values, estimate.vectors));
}

WarmupStep FisherWarmup::learn(int iteration, const PhasePoint& point, const NutsResult& stats) {
  double step_size = step_size_.learn(stats.accept_stat);
  window_accept_ += stats.accept_stat;
  ++window_transitions_;
  recent_accept_ += stats.accept_stat;
  // Every 10 transitions: were they all accepted? Then the step is far too small.
  bool stuck = false;
  if ((iteration + 1) % kStuckRun == 0) {
    stuck = recent_accept_ / kStuckRun > kStuckAccept;
    recent_accept_ = 0;
  }
  if (iteration < step_size_only_) {
    const bool early = iteration < early_end_;
    if (iteration == early_end_) window_ = std::max(window_, background_draws_.count());
    if (point.q != last_q_) add(point);
    const long length = early ? kEarlyWindow : window_;
    const long next = early ? kEarlyWindow : std::max(window_ + 1, std::lround(window_ * kWindowGrowth));
    // Switch when the background window is full, unless no full window fits after it.
    if (background_draws_.count() >= length && iteration + next <= step_size_only_) {
      if (switch_windows()) {  // settled
        step_size_only_ = iteration + 1;
        end_ = std::min(cap_, step_size_only_ + kStepSizeOnly);
      }
      if (!early) window_ = next;
      window_accept_ = 0;
      window_transitions_ = 0;
    }
    if (stuck) {
      start_again(point, step_size);
    } else if (estimate(draws_, gradients_, inverse_metric_)) {
      if (!keeps_window_ || early) {
        set_diagonal();
      } else {
        estimate_low_rank_metric();
      }
      if (!searched_) search_step_size(point, step_size);
      searched_ = true;
    }
  }
  const bool last = iteration + 1 == end_;
  return {last ? step_size_.final_step_size() : step_size, last};
}

}  // namespace variate
