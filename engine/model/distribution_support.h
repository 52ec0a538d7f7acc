#pragma once
/// Where each distribution family's draws live, for grouping families by support (the
/// studio's palette). Found by building each family through the distribution table with
/// example arguments, so it is the support the engine samples and checks, not a second
/// list to keep in step with it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/support.h"

namespace variate::model {

struct FamilySupport {
  Support::Kind kind = Support::Kind::Real;
  /// Dimensions one draw spans: 0 for scalars, 1 for vectors (MultiNormal, Dirichlet), 2
  /// for matrices (LKJCorrCholesky).
  int64_t event_rank = 0;
  /// Mixture: the support is its component's (the one reported is a Normal component's).
  bool from_component = false;
  /// "real", "positive", "interval(0, 1)", "simplex"...: the support's own description.
  std::string description;
};

/// The support of `family`'s draws; nullopt for a name the language does not know.
std::optional<FamilySupport> family_support(const std::string& family);

/// Whether `family` can be truncated (`T[lo, hi]`): univariate with a known CDF.
bool can_truncate(const std::string& family);
/// The families that can, for messages: "Cauchy, Exponential, Logistic, Normal".
std::string truncatable_families();

}  // namespace variate::model
