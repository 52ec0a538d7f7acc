#include "engine/services/pathfinder_init.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/random_stream.h"
#include "engine/pathfinder/pathfinder.h"

namespace variate::services {

PathfinderInit pathfinder_starts(const UnconstrainedTarget& target, int chains, uint64_t seed, bool dense) {
  // Streams of their own: the chains' streams of `seed` are 0, 1, ...
  const uint64_t pathfinder_seed = RandomStream::for_chain(seed, uint64_t{1} << 40).next();
  const PathfinderResult fit = pathfinder(target, PathfinderOptions().seed(pathfinder_seed));
  PathfinderInit init;
  init.gradient_evaluations = fit.gradient_evaluations;
  init.pareto_k = fit.pareto_k;
  // Distinct draws where there are enough (resampling repeats the heavily weighted ones).
  const at::Tensor unique = std::get<0>(at::unique_dim(fit.draws, 0));
  const at::Tensor pool = unique.size(0) >= chains ? unique : fit.draws;
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(pathfinder_seed + 1);
  const at::Tensor picks = at::randperm(pool.size(0), generator, at::kLong);
  for (int c = 0; c < chains; ++c) {
    const at::Tensor row = pool[picks[c % pool.size(0)]].contiguous();
    init.positions.emplace_back(row.data_ptr<double>(), row.data_ptr<double>() + row.numel());
  }
  const at::Tensor centered = fit.draws - fit.draws.mean(0);
  const at::Tensor covariance = at::matmul(centered.t(), centered) / std::max<int64_t>(1, fit.draws.size(0) - 1);
  const at::Tensor metric = (dense ? covariance : covariance.diagonal()).contiguous();
  // Resampling can leave too few distinct draws for a covariance: then the identity.
  if (at::isfinite(metric).all().item<bool>() && (covariance.diagonal() > 0).all().item<bool>()) {
    init.inverse_metric.assign(metric.data_ptr<double>(), metric.data_ptr<double>() + metric.numel());
  }
  return init;
}

}  // namespace variate::services
