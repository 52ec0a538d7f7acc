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
  // centred a little too much brings back the funnel (eight schools: 0.5-3% divergent with
  // centerings of 0 to 0.4 where 0 has none); a scale's posterior spans a range, and at
  // its low end the prior dominates an element the typical draw would centre (centred
  // radon counties: up to 0.9% divergent with r > 1, 0.5% with r > 4, none with all
  // non-centered). So the rule picks an end, and centres only where the data dominate by
  // far: groups of hundreds of observations, whose non-centered form couples each z to
  // the location and scale.
  return variance - 1 > kCentredInformation ? 1.0 : 0.0;
}

namespace {

// Each chain's gradients at the positions of its second half, where the pilot's adaptation
// has begun: [chain][draw][coordinate].
std::vector<std::vector<std::vector<double>>> second_half_gradients(const UnconstrainedTarget& target,
                                                                    const std::vector<ChainResult>& chains,
                                                                    long& evaluations) {
  const int64_t d = target.layout().dimension();
  std::vector<std::vector<std::vector<double>>> gradients;
  for (const ChainResult& chain : chains) {
    auto& series = gradients.emplace_back();
    for (size_t i = chain.positions.size() / 2; i < chain.positions.size(); ++i) {
      const at::Tensor g =
          target.log_density_and_gradient(at::tensor(chain.positions[i], at::kDouble)).second.contiguous();
      series.emplace_back(g.data_ptr<double>(), g.data_ptr<double>() + d);
      ++evaluations;
    }
  }
  return gradients;
}

// Each variable's centerings: one per element of a vector, one value where they agree or
// the variable is not a vector (a centering literal is a number or a vector: then their
// median).
model::Centering decide(const ParameterLayout& layout, const model::Centering& noncentered,
                        const std::vector<std::vector<std::vector<double>>>& gradients) {
  model::Centering decided;
  for (const auto& [name, unused] : noncentered) {
    const ParameterInfo& p = standardized(layout, name);
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
    const bool same = std::all_of(centering.begin(), centering.end(), [&](double c) { return c == centering[0]; });
    if (same || p.shape.size() != 1) {
      std::sort(centering.begin(), centering.end());
      centering = {centering[centering.size() / 2]};
    }
    decided[name] = std::move(centering);
  }
  return decided;
}

// Where the rest of warmup starts, in the decided space: a centred element's coordinate is
// its value, which the draws' columns hold (parameters first, in the layout's order), and
// its metric entry that value's variance over the second halves; the other entries are the
// chains' adapted ones (a low-rank metric's diagonal part: its eigenvectors were the other
// space's), averaged. The step size is the chains' median.
void carry_over(const UnconstrainedTarget& target, const DrawColumns& columns, const std::vector<ChainResult>& chains,
                MetricKind metric, ReparamPilot& pilot) {
  const bool diagonal = metric != MetricKind::dense;
  const size_t first_variance = metric == MetricKind::low_rank ? 1 : 0;  // after the rank
  std::map<std::string, size_t> first_column;
  size_t column = 0;
  for (const ParameterInfo& p : target.layout().parameters()) {
    first_column[p.name] = column;
    column += static_cast<size_t>(numel(p.shape));
  }
  const double share = 1.0 / static_cast<double>(chains.size());
  if (diagonal) pilot.inverse_metric.assign(static_cast<size_t>(target.layout().dimension()), 0.0);
  std::map<size_t, double> centred_variance;  // by coordinate
  std::vector<double> step_sizes;
  for (const ChainResult& chain : chains) {
    step_sizes.push_back(chain.step_size);
    for (size_t i = 0; i < pilot.inverse_metric.size(); ++i)
      pilot.inverse_metric[i] += share * chain.inverse_metric.at(first_variance + i);
    const std::vector<std::vector<double>> rows = columns.rows(std::vector<std::vector<double>>(
        chain.positions.begin() + static_cast<std::ptrdiff_t>(chain.positions.size() / 2), chain.positions.end()));
    std::vector<double> end = chain.positions.back();
    for (const auto& [name, centering] : pilot.centering) {
      const ParameterInfo& p = standardized(target.layout(), name);
      for (int64_t k = 0; k < p.size; ++k) {
        if ((centering.size() == 1 ? centering[0] : centering[static_cast<size_t>(k)]) != 1) continue;
        const size_t at = column_of(p, first_column.at(p.name), k);
        const size_t coordinate = static_cast<size_t>(p.offset + k);
        end[coordinate] = rows.back()[at];
        std::vector<double> values;
        for (const auto& row : rows) values.push_back(row[at]);
        centred_variance[coordinate] += share * variance(values);
      }
    }
    pilot.ends.push_back(std::move(end));
  }
  for (const auto& [coordinate, value] : centred_variance) {
    if (diagonal) pilot.inverse_metric[coordinate] = value;
  }
  if (metric == MetricKind::low_rank) pilot.inverse_metric = low_rank_entries(pilot.inverse_metric, {}, {});
  std::sort(step_sizes.begin(), step_sizes.end());
  pilot.step_size = step_sizes[step_sizes.size() / 2];
}

}  // namespace

ReparamPilot run_reparam_pilot(const UnconstrainedTarget& target, const DrawColumns& columns,
                               const model::Centering& noncentered, const NutsOptions& options,
                               const std::atomic<bool>* stop, Lockstep* lockstep) {
  ReparamPilot pilot;
  pilot.iterations = std::min(kPilotIterations, options.warmup() / 2);
  NutsOptions pilot_options = options;
  pilot_options.warmup(pilot.iterations).draws(0);
  const std::vector<ChainResult> chains = sample_nuts(target, pilot_options, nullptr, stop, lockstep);
  for (const ChainResult& chain : chains) pilot.gradient_evaluations += chain.gradient_evaluations;
  // Stopped before it ended (a stop request): nothing to decide from; the run stops too.
  const bool stopped =
      std::any_of(chains.begin(), chains.end(), [](const ChainResult& c) { return c.positions.size() < 2; });
  if (stopped) {
    pilot.centering = noncentered;
    return pilot;
  }
  pilot.centering =
      decide(target.layout(), noncentered, second_half_gradients(target, chains, pilot.gradient_evaluations));
  carry_over(target, columns, chains, options.metric(), pilot);
  return pilot;
}

}  // namespace variate::services
