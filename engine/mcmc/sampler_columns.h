#pragma once
/// The sampler columns every NUTS draw row begins with — in Stan CSV files, project files,
/// summaries and the studio — in CmdStan's order: their names, their positions in a row and
/// their values from a transition's NutsResult. The one place these names are written.
///
///   row[column_index(SamplerColumn::divergent)]  // 1 after a divergent transition

#include <cstddef>
#include <string>
#include <vector>

namespace variate {

struct NutsResult;  // mcmc/nuts.h; declared only, so that this header stays free of ATen

enum class SamplerColumn : size_t { lp, accept_stat, stepsize, treedepth, n_leapfrog, divergent, energy };

/// How many sampler columns a row begins with.
inline constexpr size_t kSamplerColumnCount = 7;

/// The position of a sampler column in a draw row.
constexpr size_t column_index(SamplerColumn column) { return static_cast<size_t>(column); }

/// The names, in the order of SamplerColumn.
inline const std::vector<std::string>& sampler_column_names() {
  static const std::vector<std::string> names = {"lp__",        "accept_stat__", "stepsize__",
                                                 "treedepth__", "n_leapfrog__",  "divergent__",
                                                 "energy__"};
  return names;
}
const std::string& sampler_column_name(SamplerColumn column);

/// Whether a transition of tree depth `depth` reached the limit `max_tree_depth`: the one
/// rule the sampler, the summaries, the warnings and the studio's Sampler panel count
/// tree-depth hits by.
constexpr bool reached_max_depth(double depth, int max_tree_depth) { return depth >= max_tree_depth; }

/// Whether `columns` begins with the sampler columns (a NUTS run's header).
bool starts_with_sampler_columns(const std::vector<std::string>& columns);

/// A transition's values, one per sampler column: log density, mean acceptance, step
/// size, tree depth, leapfrog steps, 1 or 0 for a divergence, energy.
std::vector<double> sampler_values(const NutsResult& result);

}  // namespace variate
