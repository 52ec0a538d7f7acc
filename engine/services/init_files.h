#pragma once
/// `--init FILE.json` as CmdStan's init: every chain starts at the parameter values the file
/// gives (CmdStan JSON, on the constrained scale); `--init A.json,B.json,...` gives one file
/// per chain.

#include <string>
#include <vector>

#include "engine/target/parameter_layout.h"

namespace variate::services {

/// Whether `init` names init files (each ends in ".json") rather than a radius or
/// "pathfinder".
bool names_init_files(const std::string& init);

/// One unconstrained start per chain from the files `init` names. Names in
/// `derived_names` may appear in a file and are ignored (a CmdStan output's draw has them).
/// @throws ArgumentError naming the file: unreadable, a value missing or of the wrong
/// shape, outside its support, or a count of files that is neither 1 nor `chains`.
std::vector<std::vector<double>> init_positions(const std::string& init, const ParameterLayout& layout,
                                                const std::vector<std::string>& derived_names, int chains);

}  // namespace variate::services
