#pragma once
/// The columns a variational fit's draw rows begin with, as CmdStan writes them.

#include <string>
#include <vector>

namespace variate {

/// CmdStan's variational columns, which a draw row of a variational fit begins with: lp__
/// (written as 0), log_p__ and log_g__ (ApproximationDraws::log_p and log_g).
const std::vector<std::string>& variational_column_names();

/// Whether `columns` begins with the variational columns (a variational fit's header).
bool starts_with_variational_columns(const std::vector<std::string>& columns);

}  // namespace variate
