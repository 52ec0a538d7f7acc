#pragma once
// What `variate compare` compares, from its arguments. Without a project each argument is
// a model: NAME=PATH[,PATH...], a path being a chain file, a glob of chain files (quoted,
// so that the shell leaves it: 'out/a/chain_*.csv') or a folder `variate sample --output`
// wrote (its chain_N.csv); or a folder alone, named by the folder's name. With a project
// each argument is a run's name or id, or a glob of run names ('radon*').

#include <string>
#include <vector>

#include "engine/store/project.h"

namespace variate::cli {

struct ComparedChains {
  std::string name;
  std::vector<std::string> files;  ///< one per chain
};

/// @throws ArgumentError for an argument that is neither form, a glob or folder that
/// matches no chain file, or two models of one name.
std::vector<ComparedChains> compared_chains(const std::vector<std::string>& arguments);

/// The runs the arguments name, each once, in the order first named.
/// @throws ArgumentError for a name, id or glob that matches no run (services::find_run).
std::vector<store::RunInfo> compared_runs(const store::Project& project, const std::vector<std::string>& arguments);

}  // namespace variate::cli
