#include "engine/pathfinder/pathfinder.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <sstream>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/argument_error.h"
#include "engine/core/memory.h"
#include "engine/core/random_stream.h"
#include "engine/diagnostics/psis.h"
#include "engine/optimize/point_objective.h"

namespace variate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
// Streams of the seed: a path's start is stream `path`; its Monte Carlo draws, this plus
// `path`; the resampling, kResamplingStream.
constexpr uint64_t kDrawStreams = 1000;
constexpr uint64_t kResamplingStream = 999;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

at::Tensor to_tensor(const std::vector<double>& values) { return at::tensor(values, at::kDouble); }

// log p of each row [n, d]; -inf where it is not a number.
at::Tensor log_densities(const UnconstrainedTarget& target, const at::Tensor& points) {
  at::Tensor lp = target.log_density(points, /*jacobian=*/true).to(at::kDouble);
  return at::where(at::isnan(lp), at::full_like(lp, kMinusInfinity), lp);
}

std::vector<double> to_vector(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace

PathResult pathfinder_path(const UnconstrainedTarget& target, const PathfinderOptions& options, int path,
                           const PathfinderObserver& observer, const std::atomic<bool>* stop) {
  PathResult result;
  result.path = path;
  const LogDensityFunction log_density = point_log_density(target, /*jacobian=*/true);
  std::vector<LbfgsIterate> iterates;
  try {
    const std::vector<double> start =
        random_start(log_density, target.dimension(), options.init_radius(), options.seed(),
                     static_cast<uint64_t>(path), "pathfinder path " + std::to_string(path + 1));
    const LbfgsResult lbfgs = minimize_lbfgs(negated(log_density), start, options.lbfgs(), [&](const LbfgsIterate& i) {
      iterates.push_back(i);
      return !(stop && stop->load());
    });
    result.lbfgs_status = lbfgs.status;
    result.lbfgs_point = lbfgs.x;
    result.iterations = lbfgs.iterations;
    result.gradient_evaluations = lbfgs.evaluations;
  } catch (const ArgumentError& e) {
    result.failure = e.what();
    return result;
  }

  at::Generator generator =
      at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(options.seed(), kDrawStreams + path).next());
  at::Tensor alpha = at::ones({target.dimension()}, at::kDouble);
  std::deque<std::pair<at::Tensor, at::Tensor>> pairs;  // (s, y), oldest first
  result.best_elbo = kMinusInfinity;
  for (size_t l = 1; l < iterates.size(); ++l) {
    const at::Tensor x = to_tensor(iterates[l].x), gradient = to_tensor(iterates[l].gradient);
    const at::Tensor s = x - to_tensor(iterates[l - 1].x);
    const at::Tensor y = gradient - to_tensor(iterates[l - 1].gradient);
    // Only pairs with positive curvature enter the estimate (Algorithm 3).
    if ((s * y).sum().item<double>() > std::numeric_limits<double>::epsilon() * (y * y).sum().item<double>()) {
      alpha = update_diagonal(alpha, s, y);
      pairs.emplace_back(s, y);
      if (static_cast<int>(pairs.size()) > options.lbfgs().history_size()) pairs.pop_front();
    }
    std::vector<at::Tensor> steps, changes;
    for (const auto& [step, change] : pairs) {
      steps.push_back(step);
      changes.push_back(change);
    }
    const int64_t d = target.dimension();
    const at::Tensor s_matrix = steps.empty() ? at::zeros({d, 0}, at::kDouble) : at::stack(steps, 1);
    const at::Tensor y_matrix = changes.empty() ? at::zeros({d, 0}, at::kDouble) : at::stack(changes, 1);
    double elbo = kMinusInfinity;
    std::optional<LbfgsGaussian> approximation = LbfgsGaussian::at_point(x, -gradient, alpha, s_matrix, y_matrix);
    if (approximation) {
      const auto [points, log_q] = approximation->draw(options.num_elbo_draws(), generator);
      const at::Tensor log_p = log_densities(target, points);
      result.gradient_evaluations += options.num_elbo_draws();
      elbo = (log_p - log_q).mean().item<double>();
      if (std::isnan(elbo)) elbo = kMinusInfinity;
    }
    result.elbo.push_back(elbo);
    if (observer) observer(path, static_cast<int>(l), elbo);
    if (elbo > result.best_elbo) {
      result.best_elbo = elbo;
      result.best_iteration = static_cast<int>(l);
      result.approximation = std::move(approximation);
    }
  }
  if (!result.approximation) {
    result.failure = iterates.size() < 2 ? "L-BFGS made no step from its start (" + describe(result.lbfgs_status) + ")"
                                         : "no approximation along the path had a finite ELBO";
    return result;
  }
  std::tie(result.draws, result.log_q) = result.approximation->draw(options.num_draws(), generator);
  result.log_p = log_densities(target, result.draws);
  return result;
}

PathfinderResult pathfinder(const UnconstrainedTarget& target, const PathfinderOptions& options,
                            const PathfinderObserver& observer, const std::atomic<bool>* stop) {
  const auto started = Clock::now();
  // Every path's draws are kept for the importance resampling, and the resampled ones with
  // them; a caller's constrained copy doubles that.
  const double d = static_cast<double>(target.dimension());
  check_memory(2 * 8 * d * (options.num_paths() * (options.num_draws() + options.num_elbo_draws()) + options.num_psis_draws()),
               "Pathfinder's " + std::to_string(options.num_paths()) + " paths of " + std::to_string(options.num_draws()) +
                   " draws of " + std::to_string(target.dimension()) + " parameters",
               "ask for fewer paths or draws");
  PathfinderResult result;
  std::vector<at::Tensor> draws, log_p, log_q;
  std::ostringstream failures;
  for (int path = 0; path < options.num_paths(); ++path) {
    if (stop && stop->load() && !draws.empty()) break;
    PathResult one = pathfinder_path(target, options, path, observer, stop);
    result.gradient_evaluations += one.gradient_evaluations;
    if (one.failure.empty()) {
      draws.push_back(one.draws);
      log_p.push_back(one.log_p);
      log_q.push_back(one.log_q);
    } else {
      failures << "\n  path " << path + 1 << ": " << one.failure;
    }
    result.paths.push_back(std::move(one));
  }
  result.seconds_paths = seconds_since(started);
  if (draws.empty()) throw ArgumentError("pathfinder: every path failed:" + failures.str());

  const auto psis_started = Clock::now();
  const at::Tensor pooled = at::cat(draws), pooled_p = at::cat(log_p), pooled_q = at::cat(log_q);
  const std::vector<double> log_ratios = to_vector(pooled_p - pooled_q);
  const diagnostics::PsisResult psis = diagnostics::pareto_smooth(log_ratios);
  result.pareto_k = psis.k_hat;
  if (options.num_paths() == 1 || !options.psis_resample()) {
    result.draws = pooled;
    result.log_p = pooled_p;
    result.log_q = pooled_q;
  } else {
    const at::Tensor weights = at::softmax(to_tensor(psis.log_weights), 0);
    at::Generator generator =
        at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(options.seed(), kResamplingStream).next());
    const at::Tensor picks = at::multinomial(weights, options.num_psis_draws(), /*replacement=*/true, generator);
    result.draws = pooled.index_select(0, picks);
    result.log_p = pooled_p.index_select(0, picks);
    result.log_q = pooled_q.index_select(0, picks);
  }
  result.seconds_psis = seconds_since(psis_started);
  return result;
}

}  // namespace variate
