#pragma once
/// What a diagnostic reports where it is undefined (a constant chain, too few draws), as R's
/// posterior package reports NA.

#include <limits>

namespace variate::diagnostics {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace variate::diagnostics
