#include "engine/services/reparam_pilot.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <ATen/ATen.h>

#include "engine/model/reparameterize.h"

namespace variate::services {
namespace {

// How many times the prior's information the data must give about an element for it to
// be sampled as written.
constexpr double kCentredInformation = 25;

// The median of the square of a standard normal draw (chi-square with 1 degree of freedom).
constexpr double kMedianSquareOfNormal = 0.4549364;

// The draw column of element `e` (row-major) of a parameter whose columns start at `first`:
// draws flatten column-major, as CmdStan does.
size_t column_of(const ParameterInfo& p, size_t first, int64_t e) {
  int64_t column = 0, stride = 1, rest = e;
  std::vector<int64_t> index(p.shape.size());
  for (size_t axis = p.shape.size(); axis-- > 0;) {
    index[axis] = rest % p.shape[axis];
    rest /= p.shape[axis];
  }
  for (size_t axis = 0; axis < p.shape.size(); ++axis) {
    column += index[axis] * stride;
    stride *= p.shape[axis];
  }
  return first + static_cast<size_t>(column);
}

double variance(const std::vector<double>& values) {
  if (values.size() < 2) return 1;
  double mean = 0;
  for (double x : values) mean += x;
  mean /= static_cast<double>(values.size());
  double squares = 0;
  for (double x : values) squares += (x - mean) * (x - mean);
  return std::max(squares / static_cast<double>(values.size() - 1), 1e-12);
}

const ParameterInfo& standardized(const ParameterLayout& layout, const std::string& name) {
  const std::string wanted = model::standardized_name(name);
  for (const ParameterInfo& p : layout.parameters()) {
    if (p.name == wanted) return p;
  }
  throw std::logic_error("the pilot's target has no parameter " + wanted);
}

}  // namespace

double centering_from_gradients(const std::vector<std::vector<double>>& chain_gradients) {
  // The variance from the median square (each chain's mean taken out), 0.455 times the
  // variance for a Gaussian: the typical draw's information, not the heavy tail's (a
  // hierarchical scale's draws far out in its tail would centre elements whose funnel neck
  // is where most of the mass is).
  std::vector<double> squares;
  for (const auto& g : chain_gradients) {
    if (g.size() < 2) continue;
    double mean = 0;
    for (double x : g) mean += x;
    mean /= static_cast<double>(g.size());
    for (double x : g) squares.push_back((x - mean) * (x - mean));
  }
  if (squares.empty()) return 0;
  const auto middle = squares.begin() + static_cast<std::ptrdiff_t>(squares.size() / 2);
  std::nth_element(squares.begin(), middle, squares.end());
  const double variance = *middle / kMedianSquareOfNormal;
  if (!std::isfinite(variance)) return 0;
  // r: what the data say about the element relative to its prior, at a typical draw of
  // its scale. Partial centerings estimated from a short pilot are noisy, and an element
  // centred a little too much brings back the funnel (eight schools: 1-3% divergent with
  // centerings of 0 to 0.4 where 0 has none); a scale's posterior spans a range, and at
  // its low end the prior dominates an element the typical draw would centre (centred
  // radon counties: up to 0.9% divergent with r > 1, 0.5% with r > 4, none with all
  // non-centered). So the rule picks an end, and centres only where the data dominate by
  // far: groups of hundreds of observations, whose non-centered form couples each z to
  // the location and scale.
  return variance - 1 > kCentredInformation ? 1.0 : 0.0;
}

ReparamPilot run_reparam_pilot(const UnconstrainedTarget& target, const DrawColumns& columns,
                               const model::Centering& noncentered, const NutsOptions& options,
                               const std::atomic<bool>* stop, Lockstep* lockstep) {
  ReparamPilot pilot;
  pilot.iterations = std::min(kPilotIterations, options.warmup() / 2);
  NutsOptions pilot_options = options;
  pilot_options.warmup(pilot.iterations).draws(0);
  const std::vector<ChainResult> chains = sample_nuts(target, pilot_options, nullptr, stop, lockstep);
  // Stopped before it ended (a stop request): nothing to decide from; the run stops too.
  const bool stopped =
      std::any_of(chains.begin(), chains.end(), [](const ChainResult& c) { return c.positions.size() < 2; });
  if (stopped) {
    pilot.centering = noncentered;
    return pilot;
  }

  // Gradients at each chain's second half, where the pilot's adaptation has begun.
  const int64_t d = target.layout().dimension();
  std::vector<std::vector<std::vector<double>>> gradients;  // [chain][draw][coordinate]
  for (const ChainResult& chain : chains) {
    pilot.gradient_evaluations += chain.gradient_evaluations;
    auto& series = gradients.emplace_back();
    for (size_t i = chain.positions.size() / 2; i < chain.positions.size(); ++i) {
      const at::Tensor theta = at::tensor(chain.positions[i], at::kDouble);
      const at::Tensor g = target.log_density_and_gradient(theta).second.contiguous();
      series.emplace_back(g.data_ptr<double>(), g.data_ptr<double>() + d);
      ++pilot.gradient_evaluations;
    }
  }
  for (const auto& [name, unused] : noncentered) {
    const ParameterInfo& p = standardized(target.layout(), name);
    std::vector<double> centering;
    for (int64_t k = 0; k < p.size; ++k) {
      std::vector<std::vector<double>> element;
      for (const auto& series : gradients) {
        auto& values = element.emplace_back();
        for (const auto& g : series) values.push_back(g[static_cast<size_t>(p.offset + k)]);
      }
      centering.push_back(centering_from_gradients(element));
    }
    if (centering.empty()) centering = {0.0};  // a variable of no elements
    // One value for all elements where they agree, or where the variable is not a vector
    // (a centering literal is a number or a vector): then their median.
    const bool same = std::all_of(centering.begin(), centering.end(), [&](double c) { return c == centering[0]; });
    if (same || p.shape.size() != 1) {
      std::vector<double> sorted = centering;
      std::sort(sorted.begin(), sorted.end());
      centering = {sorted[sorted.size() / 2]};
    }
    pilot.centering[name] = std::move(centering);
  }

  // The ends in the decided space: a centred element's coordinate is its value, which the
  // draw's columns hold (parameters first, in the layout's order); the metric's entry for
  // it, the variance of that value over the second halves.
  std::map<std::string, size_t> first_column;
  size_t column = 0;
  for (const ParameterInfo& p : target.layout().parameters()) {
    first_column[p.name] = column;
    column += static_cast<size_t>(numel(p.shape));
  }
  const bool diagonal = options.metric() == MetricKind::diagonal;
  if (diagonal) pilot.inverse_metric.assign(static_cast<size_t>(d), 0.0);
  std::vector<double> step_sizes;
  for (const ChainResult& chain : chains) {
    step_sizes.push_back(chain.step_size);
    for (size_t i = 0; diagonal && i < pilot.inverse_metric.size(); ++i) {
      pilot.inverse_metric[i] += chain.inverse_metric.at(i) / static_cast<double>(chains.size());
    }
    std::vector<std::vector<double>> second_half(
        chain.positions.begin() + static_cast<std::ptrdiff_t>(chain.positions.size() / 2), chain.positions.end());
    const std::vector<std::vector<double>> rows = columns.rows(second_half);
    std::vector<double> end = chain.positions.back();
    for (const auto& [name, centering] : pilot.centering) {
      const ParameterInfo& p = standardized(target.layout(), name);
      for (int64_t k = 0; k < p.size; ++k) {
        const double centred = centering.size() == 1 ? centering[0] : centering[static_cast<size_t>(k)];
        if (centred != 1) continue;
        const size_t at = column_of(p, first_column.at(p.name), k);
        const size_t coordinate = static_cast<size_t>(p.offset + k);
        end[coordinate] = rows.back()[at];
        if (!diagonal) continue;
        std::vector<double> values;
        for (const auto& row : rows) values.push_back(row[at]);
        if (chain.chain == chains.front().chain) pilot.inverse_metric[coordinate] = 0;
        pilot.inverse_metric[coordinate] += variance(values) / static_cast<double>(chains.size());
      }
    }
    pilot.ends.push_back(std::move(end));
  }
  std::sort(step_sizes.begin(), step_sizes.end());
  pilot.step_size = step_sizes[step_sizes.size() / 2];
  return pilot;
}

}  // namespace variate::services
