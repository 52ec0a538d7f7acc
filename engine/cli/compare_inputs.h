#pragma once
// What `variate compare` compares, from its arguments. Without a project each argument is
// a model: NAME=PATH[,PATH...], a path being a chain file, a glob of chain files (quoted,
// so that the shell leaves it: 'out/a/chain_*.csv') or a folder `variate sample --output`
// wrote (its chain_N.csv); or a folder alone, named by the folder's name. With a project
// each argument is a run's name or id, or a glob of run names ('radon*'): project_loo.h.

#include <string>
#include <vector>

namespace variate::cli {

struct ComparedChains {
  std::string name;
  std::vector<std::string> files;  ///< one per chain
};

/// @throws ArgumentError for an argument that is neither form, a glob or folder that
/// matches no chain file, or two models of one name.
std::vector<ComparedChains> compared_chains(const std::vector<std::string>& arguments);

/// Whether an argument is a glob (holds *, ? or [).
bool is_glob(const std::string& text);

}  // namespace variate::cli
