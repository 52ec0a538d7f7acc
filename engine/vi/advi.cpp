#include "engine/vi/advi.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/vi/adam.h"
#include "engine/vi/elbo.h"
#include "engine/core/random_stream.h"
#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"
#include "engine/vi/whitened_gaussian.h"

namespace variate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxRestarts = 3;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether to stop here: the caller's flag, agreed with the other processes of a run
// several make together (core/lockstep.h), which also compare `state`.
class StopCheck {
 public:
  StopCheck(const std::atomic<bool>* flag, Lockstep* lockstep) : flag_(flag), lockstep_(lockstep) {}
  bool operator()(double state = 0) const {
    const bool asked = flag_ && flag_->load();
    return lockstep_ ? lockstep_->agree(&state, 1, asked) : asked;
  }

 private:
  const std::atomic<bool>* flag_;
  Lockstep* lockstep_;
};

bool all_finite(const ElboGradient& g) {
  if (!std::isfinite(g.elbo)) return false;
  for (const auto& t : g.gradient) {
    if (!at::isfinite(t).all().item<bool>()) return false;
  }
  return true;
}

// One gradient ascent step; false (and no step) when the estimate is not finite.
bool ascend(const Elbo& elbo, VariationalFamily& family, Adam& adam, int draws,
            at::Generator& generator, AdviResult& result, double* estimate = nullptr) {
  const ElboGradient g = elbo.value_and_gradient(family, draws, generator);
  result.gradient_evaluations += draws;
  if (estimate) *estimate = g.elbo;
  if (!all_finite(g)) return false;
  std::vector<at::Tensor> descent;
  for (const auto& t : g.gradient) descent.push_back(-t);
  adam.step(family.parameters(), descent, family.step_scales());
  return true;
}

Adam make_adam(double eta, const AdviOptions& options) {
  return Adam(AdamOptions()
                  .learning_rate(eta)
                  .beta1(options.adam_beta1())
                  .beta2(options.adam_beta2()));
}

// The running mean of a family's parameters over a window of iterations.
class IterateAverage {
 public:
  void add(const VariationalFamily& family) {
    const auto parameters = family.parameters();
    if (sums_.empty()) {
      for (const auto& p : parameters) sums_.push_back(at::zeros_like(p).detach());
    }
    for (size_t i = 0; i < parameters.size(); ++i) sums_[i].add_(parameters[i].detach());
    ++count_;
  }
  void clear() {
    sums_.clear();
    count_ = 0;
  }
  void apply(const VariationalFamily& family) const {
    if (count_ == 0) return;
    std::vector<at::Tensor> means;
    for (const auto& sum : sums_) means.push_back(sum / static_cast<double>(count_));
    restore_parameters(family, means);
  }

 private:
  std::vector<at::Tensor> sums_;
  long count_ = 0;
};

// Stan's adapt_eta: from the initial family, adapt_iter steps with each eta from large to
// small; keep the one with the best ELBO, stopping early once the ELBO got worse after an
// improvement on the initial ELBO. The family ends at its initial values. NaN if no eta
// improved on the initial ELBO.
double adapt_eta(const Elbo& elbo, VariationalFamily& family, const AdviOptions& options,
                 at::Generator& generator, AdviResult& result, AdviObserver* observer,
                 const StopCheck& stop_requested) {
  const auto initial = snapshot_parameters(family);
  double best_eta = kNaN;
  double best_elbo = -kInfinity;
  for (const double eta : {100.0, 10.0, 1.0, 0.1, 0.01}) {
    restore_parameters(family, initial);
    Adam adam = make_adam(eta, options);
    bool finite = true;
    for (int t = 0; t < options.adapt_iter() && finite && !stop_requested(); ++t) {
      finite = ascend(elbo, family, adam, options.grad_samples(), generator, result);
    }
    if (stop_requested()) break;
    double value =
        finite ? elbo.estimate(family, options.elbo_samples(), generator).elbo : -kInfinity;
    if (std::isnan(value)) value = -kInfinity;
    result.eta_trials.push_back({eta, value});
    if (observer) observer->on_eta_trial({eta, value});
    if (value > best_elbo) {
      best_elbo = value;
      best_eta = eta;
    } else if (best_elbo > result.initial_elbo) {
      break;
    }
  }
  restore_parameters(family, initial);
  return best_elbo > result.initial_elbo ? best_eta : kNaN;
}

// Stochastic gradient ascent with Stan's convergence rule (Kucukelbir et al. 2017, Alg. 1).
void optimize(const Elbo& elbo, VariationalFamily& family, const AdviOptions& options,
              at::Generator& generator, AdviResult& result, AdviObserver* observer,
              const StopCheck& stop_requested) {
  Adam adam = make_adam(result.eta, options);
  const size_t window = ElboConvergence::stan_window(options.iter(), options.eval_elbo());
  const auto make_convergence = [&] { return ElboConvergence(options.tol_rel_obj(), window); };
  double best = -kInfinity;
  int since_best = 0;
  ElboConvergence convergence = make_convergence();
  IterateAverage average;
  int skipped_in_window = 0;
  double eta = result.eta;
  ElboIterations pending;
  auto last_flush = Clock::now();
  const auto flush = [&] {
    if (observer && !pending.elbo.empty()) observer->on_iterations(pending);
    pending.first_iteration += static_cast<int>(pending.elbo.size());
    pending.elbo.clear();
    last_flush = Clock::now();
  };
  result.status = AdviStatus::max_iterations;
  double estimate = 0;  // of the last step, compared across processes
  for (int t = 1; t <= options.iter(); ++t) {
    if (stop_requested(estimate)) {
      result.status = AdviStatus::stopped;
      break;
    }
    estimate = 0;
    if (!ascend(elbo, family, adam, options.grad_samples(), generator, result, &estimate)) {
      ++result.skipped_steps;
      ++skipped_in_window;
    }
    pending.elbo.push_back(estimate);
    result.iterations = t;
    if (options.average_iterates()) average.add(family);
    if (t % options.eval_elbo() != 0) {
      if (seconds_since(last_flush) > 0.1) flush();
      continue;
    }
    flush();
    // The rule judges the averaged iterate, which is what the run returns.
    std::vector<at::Tensor> current;
    if (options.average_iterates()) {
      current = snapshot_parameters(family);
      average.apply(family);
    }
    ElboEvaluation e =
        convergence.add(t, elbo.estimate(family, options.elbo_samples(), generator).elbo);
    e.eta = eta;
    result.elbo = e.elbo;
    // A window of mostly failed steps leaves the ELBO unchanged, which the rule would
    // take for convergence.
    const bool diverged = !std::isfinite(e.elbo) || 2 * skipped_in_window > options.eval_elbo();
    skipped_in_window = 0;
    // No new best ELBO in a whole window of evaluations is a plateau too: the steps are
    // too coarse to improve (a too large eta leaves the ELBO jumping about).
    since_best = e.elbo > best ? 0 : since_best + 1;
    best = std::max(best, e.elbo);
    const bool plateau = e.converged() || since_best >= static_cast<int>(window);
    e.step_reduced = !diverged && plateau && t < options.iter() &&
                     result.step_reductions < options.step_reductions();
    result.trace.push_back(e);
    if (observer) observer->on_evaluation(e);
    if (diverged) {
      result.status = AdviStatus::diverged;
      return;
    }
    if (e.converged() && !e.step_reduced) {
      result.status = AdviStatus::converged;
      return;
    }
    if (t == options.iter()) return;
    if (e.step_reduced) {  // on from the average, with finer steps
      ++result.step_reductions;
      eta /= 10;
      adam.set_learning_rate(eta);
      convergence = make_convergence();
      since_best = 0;
    } else if (options.average_iterates()) {
      restore_parameters(family, current);
    }
    average.clear();
  }
  // Stopped between evaluations: the average of the iterates so far in this window.
  flush();
  average.apply(family);
}

}  // namespace

std::string to_string(AdviStatus status) {
  switch (status) {
    case AdviStatus::converged: return "converged";
    case AdviStatus::max_iterations: return "max_iterations";
    case AdviStatus::stopped: return "stopped";
    case AdviStatus::diverged: return "diverged";
    case AdviStatus::adaptation_failed: return "adaptation_failed";
  }
  return "unknown";
}

AdviResult fit_variational(const UnconstrainedTarget& target, VariationalFamily& family,
                           const AdviOptions& options, AdviObserver* observer,
                           const std::atomic<bool>* stop, Lockstep* lockstep) {
  const StopCheck stop_requested(stop, lockstep);
  const Elbo elbo(target, {options.analytic_entropy(), options.sticking_the_landing()});
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(options.seed());
  AdviResult result;
  const auto adaptation_start = Clock::now();
  // Checked once with validation on: a family that does not fit the model fails here.
  result.initial_elbo = elbo.estimate(family, options.elbo_samples(), generator).elbo;
  result.elbo = result.initial_elbo;
  if (!std::isfinite(result.initial_elbo)) {
    std::ostringstream message;
    message << "ADVI: the ELBO of the initial approximation is " << result.initial_elbo
            << "; check the model, its data and the starting point";
    throw ArgumentError(message.str());
  }
  ValidationGuard no_validation(false);

  result.eta = options.eta();
  if (options.adapt_engaged()) {
    result.eta = adapt_eta(elbo, family, options, generator, result, observer, stop_requested);
    result.eta_adapted = true;
  }
  result.seconds_adaptation = seconds_since(adaptation_start);
  if (stop_requested()) {
    result.status = AdviStatus::stopped;
    return result;
  }
  if (std::isnan(result.eta)) {
    result.status = AdviStatus::adaptation_failed;
    return result;
  }
  const auto start = Clock::now();
  const auto initial = snapshot_parameters(family);
  for (int attempt = 0;; ++attempt) {
    if (observer) observer->on_eta_chosen(result.eta, result.eta_adapted);
    result.trace.clear();
    result.step_reductions = 0;
    optimize(elbo, family, options, generator, result, observer, stop_requested);
    // An eta that adapt_iter steps liked can still diverge later: start again with a
    // smaller one, as the adaptation would have tried next.
    if (result.status != AdviStatus::diverged || attempt == kMaxRestarts) break;
    restore_parameters(family, initial);
    result.eta /= 10;
    ++result.restarts;
  }
  result.seconds_optimization = seconds_since(start);
  return result;
}

AdviFit advi(const UnconstrainedTarget& target, const AdviOptions& options,
             AdviObserver* observer, const std::atomic<bool>* stop, Lockstep* lockstep) {
  const int64_t d = target.dimension();
  // The start has its own stream, so it does not share draws with the optimization.
  RandomStream random = RandomStream::for_chain(options.seed(), 0);
  const double radius = options.init_radius();
  at::Tensor start;
  for (int attempt = 0; attempt < 100 && !start.defined(); ++attempt) {
    at::Tensor candidate = at::empty({d}, at::kDouble);
    auto values = candidate.accessor<double, 1>();
    for (int64_t i = 0; i < d; ++i) values[i] = radius * (2 * random.uniform() - 1);
    const auto [lp, gradient] = target.log_density_and_gradient(candidate);
    if (std::isfinite(lp.item<double>()) && at::isfinite(gradient).all().item<bool>()) {
      start = candidate;
    }
  }
  if (!start.defined()) {
    std::ostringstream message;
    message << "ADVI: no starting point with a finite log density and gradient in 100 tries "
               "(uniform(-" << radius << ", " << radius
            << ") on the unconstrained scale); check the model and its data";
    throw ArgumentError(message.str());
  }
  AdviFit fit;
  if (options.method() == AdviMethod::fullrank) {
    fit.family = std::make_shared<FullRankGaussian>(target.layout(), start);
  } else {
    fit.family = std::make_shared<MeanFieldGaussian>(target.layout(), start);
  }
  fit.result = fit_variational(target, *fit.family, options, observer, stop, lockstep);
  return fit;
}

AdviFit advi_whitened(const UnconstrainedTarget& target, const AdviOptions& options, const GaussianEstimate& estimate,
                      AdviObserver* observer, const std::atomic<bool>* stop, Lockstep* lockstep) {
  WhitenedGaussian whitened(target.layout(), options.method(), estimate.mean, estimate.covariance);
  AdviFit fit;
  fit.result = fit_variational(target, whitened, options, observer, stop, lockstep);
  if (fit.result.status == AdviStatus::adaptation_failed) {
    // From a good estimate no step size improves on the start within adapt_iter steps:
    // the start is near the optimum. Refine from it with the step size that lost least.
    double eta = 0.01, best = -kInfinity;
    for (const auto& trial : fit.result.eta_trials) {
      if (trial.elbo > best) std::tie(eta, best) = std::make_pair(trial.eta, trial.elbo);
    }
    const std::vector<EtaTrial> trials = fit.result.eta_trials;
    const long evaluations = fit.result.gradient_evaluations;
    const double seconds = fit.result.seconds_adaptation;
    fit.result = fit_variational(target, whitened, AdviOptions(options).eta(eta).adapt_engaged(false), observer,
                                 stop, lockstep);
    fit.result.eta_trials = trials;
    fit.result.eta_adapted = true;
    fit.result.gradient_evaluations += evaluations;
    fit.result.seconds_adaptation += seconds;
  }
  fit.family = whitened.to_plain();
  return fit;
}

}  // namespace variate
