#pragma once
/// Whether an exported program's C++ model and the model text it was generated from are
/// the same model: the same draw columns, and at a few points of the unconstrained space
/// the same log density, gradient and draw values. An exported program runs the text on
/// the tape only then (cpp_model_source.h); a model.h edited by hand runs as written.

#include <string>

#include "engine/services/model_source.h"

namespace variate::cli {

/// Empty when `cpp` and `text` agree to 1e-8 relative; else what differs, as
/// "the log density at point 2: -31.25 (C++) vs -30.75 (text)".
std::string text_disagreement(const services::BoundModel& cpp, const services::BoundModel& text);

}  // namespace variate::cli
