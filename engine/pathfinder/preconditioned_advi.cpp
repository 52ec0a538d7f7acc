#include "engine/pathfinder/preconditioned_advi.h"

#include <chrono>
#include <cmath>
#include <optional>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/random_stream.h"
#include "engine/optimize/hessian.h"
#include "engine/optimize/laplace.h"
#include "engine/optimize/point_objective.h"
#include "engine/pathfinder/pathfinder.h"

namespace variate {
namespace {

// Draws that judge the candidate estimates against each other.
constexpr int64_t kElboDraws = 100;
// A dense Hessian costs d gradients and O(d^3): beyond this, Pathfinder's estimate alone.
constexpr int64_t kMaxHessianDimension = 1000;

struct Candidate {
  std::string name;
  GaussianEstimate estimate;
  double elbo = -INFINITY;
};

// The ELBO of N(mean, covariance) from kElboDraws draws; -inf if it is not finite.
double gaussian_elbo(const UnconstrainedTarget& target, const GaussianEstimate& g, at::Generator& generator) {
  const auto [cholesky, info] = at::linalg_cholesky_ex(g.covariance);
  if (info.item<int64_t>() != 0) return -INFINITY;
  const int64_t d = g.mean.size(0);
  const at::Tensor z = at::randn({kElboDraws, d}, generator, at::kDouble);
  const at::Tensor points = g.mean.unsqueeze(0) + at::matmul(z, cholesky.t());
  const at::Tensor log_q = -0.5 * (z * z).sum(1) - at::log(cholesky.diagonal()).sum() - 0.5 * d * std::log(2 * M_PI);
  const double elbo = (target.log_density(points, true).to(at::kDouble) - log_q).mean().item<double>();
  return std::isfinite(elbo) ? elbo : -INFINITY;
}

// The Laplace approximation where L-BFGS ended, one Newton step on: N(x + S grad log p(x),
// S) with S = (-H(x))^-1, exact for a Gaussian posterior from any x, the Laplace
// approximation at the mode when x is one. None where -H(x) is not positive definite.
std::optional<GaussianEstimate> laplace_estimate(const UnconstrainedTarget& target, const PathResult& path,
                                                bool several_processes) {
  if (path.lbfgs_point.empty() || target.dimension() > kMaxHessianDimension) return std::nullopt;
  try {
    const HessianResult hessian =
        log_density_hessian(target, path.lbfgs_point, /*jacobian=*/true, /*autograd=*/!several_processes);
    const LaplaceApproximation laplace(path.lbfgs_point, hessian.hessian);
    std::vector<double> gradient;
    point_log_density(target, /*jacobian=*/true)(path.lbfgs_point, gradient);
    const at::Tensor covariance = laplace.covariance();
    const at::Tensor mean =
        at::tensor(path.lbfgs_point, at::kDouble) + at::matmul(covariance, at::tensor(gradient, at::kDouble));
    if (!at::isfinite(mean).all().item<bool>()) return std::nullopt;
    return GaussianEstimate{mean, covariance};
  } catch (const ArgumentError&) {
    return std::nullopt;
  }
}

}  // namespace

AdviFit preconditioned_advi(const UnconstrainedTarget& target, const AdviOptions& options, AdviObserver* observer,
                            const std::atomic<bool>* stop, Lockstep* lockstep, std::string* fallback) {
  const auto started = std::chrono::steady_clock::now();
  // Its own streams of the seed (paths take streams from 0 and 1000): none shared with ADVI's.
  const uint64_t seed = options.seed() + 0x5eed;
  const PathfinderOptions path_options = PathfinderOptions().seed(seed).num_paths(1).num_draws(1);
  // Several processes must take the same steps: no early stop inside the path.
  const PathResult path = pathfinder_path(target, path_options, 0, {}, lockstep ? nullptr : stop);
  std::string note = path.failure;
  if (note.empty()) {
    // Pathfinder's best estimate, and the Laplace approximation where L-BFGS found a mode:
    // the one with the higher ELBO (Pathfinder's own criterion) starts and whitens ADVI.
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(seed, 1).next());
    std::vector<Candidate> candidates;
    candidates.push_back({"pathfinder", {path.approximation->mean(), path.approximation->covariance()}});
    if (auto laplace = laplace_estimate(target, path, lockstep != nullptr)) candidates.push_back({"laplace", *laplace});
    Candidate* best = nullptr;
    for (auto& c : candidates) {
      c.elbo = gaussian_elbo(target, c.estimate, generator);
      if (!best || c.elbo > best->elbo) best = &c;
    }
    try {
      // Mean-field takes Kucukelbir et al.'s gradient: "sticking the landing" adds the noise
      // (1/sigma) eps to the mean's gradient, which cancels only where q matches p. Along a
      // ridge mean-field's sigma is the conditional sd, hundreds of times below the
      // marginal one, and that noise drives the mean far along the ridge (kilpisjarvi:
      // 0.3-1.3 posterior sds off over five seeds, 0.03-0.14 without it).
      AdviOptions whitened = options;
      if (options.method() == AdviMethod::meanfield) whitened.sticking_the_landing(false);
      AdviFit fit = advi_whitened(target, whitened, best->estimate, observer, stop, lockstep);
      fit.start = best->name;
      fit.result.gradient_evaluations += path.gradient_evaluations + kElboDraws * candidates.size();
      fit.result.seconds_adaptation =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() -
          fit.result.seconds_optimization;
      return fit;
    } catch (const ArgumentError& e) {
      note = e.what();
    }
  }
  if (fallback) *fallback = "Pathfinder found no estimate to start from (" + note + "); ADVI starts at random";
  return advi(target, options, observer, stop, lockstep);
}

}  // namespace variate
