#pragma once
/// The setting reparam as a run reads it: "auto" (a pilot decides each variable's
/// centering), "none" (the model as written), "noncentered" (every location-scale
/// variable whose location or scale reads parameters, fully non-centered), or the
/// centerings themselves, "theta=0.05,0.3,...;alpha=0": what an `auto` run decided and
/// records, so that more draws of it sample the same space.

#include <optional>
#include <string>

#include "engine/model/checker.h"

namespace variate::services {

struct ReparamChoice {
  enum class Kind { automatic, none, noncentered, given };
  Kind kind = Kind::automatic;
  model::Centering given;  ///< Kind::given
};

/// @throws ArgumentError for text that is none of the forms, a name without values or a
/// value that is not a number in [0, 1].
ReparamChoice parse_reparam(const std::string& text);

/// "" for text parse_reparam takes, else what is wrong with it (the setting's check).
std::string reparam_text_problem(const std::string& text);

/// "theta=0.05,0.3;alpha=0", values with at most 3 significant digits.
std::string reparam_text(const model::Centering& centering);

}  // namespace variate::services
