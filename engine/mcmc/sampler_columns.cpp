#include "engine/mcmc/sampler_columns.h"

#include <algorithm>

#include "engine/mcmc/nuts.h"

namespace variate {

const std::string& sampler_column_name(SamplerColumn column) {
  return sampler_column_names()[column_index(column)];
}

bool starts_with_sampler_columns(const std::vector<std::string>& columns) {
  const auto& names = sampler_column_names();
  return columns.size() >= names.size() && std::equal(names.begin(), names.end(), columns.begin());
}

std::vector<double> sampler_values(const NutsResult& result) {
  return {result.log_density,
          result.accept_stat,
          result.step_size,
          static_cast<double>(result.tree_depth),
          static_cast<double>(result.leapfrog_steps),
          result.has_divergence ? 1.0 : 0.0,
          result.energy};
}

}  // namespace variate
