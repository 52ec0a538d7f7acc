#include "variate/optimize/find_mode.h"

#include <chrono>
#include <cmath>

#include "variate/optimize/point_objective.h"

namespace variate {

ModeResult find_mode(const UnconstrainedTarget& target, const ModeOptions& options, const std::atomic<bool>* stop,
                     const LbfgsObserver& observer) {
  const auto started = std::chrono::steady_clock::now();
  const LogDensityFunction log_density = point_log_density(target, options.jacobian);
  ModeResult result;
  if (options.init.empty()) {
    result.start = random_start(log_density, target.dimension(), options.init_radius, options.seed, 0, "optimize");
  } else {
    if (static_cast<int64_t>(options.init.size()) != target.dimension()) {
      throw ArgumentError("optimize: the start has " + std::to_string(options.init.size()) +
                          " unconstrained values, the model has " + std::to_string(target.dimension()));
    }
    result.start = options.init;
  }
  result.lbfgs = minimize_lbfgs(negated(log_density), result.start, options.lbfgs,
                                [&](const LbfgsIterate& iterate) {
                                  if (stop && stop->load()) return false;
                                  return !observer || observer(iterate);
                                });
  result.log_density = -result.lbfgs.value;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace variate
