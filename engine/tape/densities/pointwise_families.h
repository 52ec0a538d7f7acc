#pragma once
/// The families written in pointwise form (pointwise_family.h), by the language's name and
/// parameterization: what `log_lik` (pointwise_log_densities.cpp) and a density in an
/// expression (density_expression.cpp) evaluate element by element.

#include <cstddef>
#include <string>

#include "engine/tape/densities/interval_families.h"
#include "engine/tape/densities/location_scale_families.h"
#include "engine/tape/densities/normal_family.h"
#include "engine/tape/densities/poisson_family.h"
#include "engine/tape/densities/positive_families.h"

namespace variate::tape {

/// A family as a value, for with_pointwise_family's callback.
template <class Family>
struct FamilyTag {
  using type = Family;
};

/// Calls `use(FamilyTag<Family>{})` for the family `name` in `parameterization`; false when
/// none is written in pointwise form.
template <class Use>
bool with_pointwise_family(const std::string& name, size_t parameterization, Use&& use) {
  namespace f = families;
  const auto is = [&](const char* family, size_t p) { return name == family && parameterization == p; };
  if (is("Normal", 0)) return use(FamilyTag<f::Normal>{}), true;
  if (is("HalfNormal", 0)) return use(FamilyTag<f::HalfNormal>{}), true;
  if (is("Cauchy", 0)) return use(FamilyTag<f::Cauchy>{}), true;
  if (is("HalfCauchy", 0)) return use(FamilyTag<f::HalfCauchy>{}), true;
  if (is("StudentT", 0)) return use(FamilyTag<f::StudentT>{}), true;
  if (is("HalfStudentT", 0)) return use(FamilyTag<f::HalfStudentT>{}), true;
  if (is("Laplace", 0)) return use(FamilyTag<f::Laplace>{}), true;
  if (is("Logistic", 0)) return use(FamilyTag<f::Logistic>{}), true;
  if (is("Exponential", 0)) return use(FamilyTag<f::Exponential>{}), true;
  if (is("Gamma", 0)) return use(FamilyTag<f::Gamma>{}), true;
  if (is("InvGamma", 0)) return use(FamilyTag<f::InvGamma>{}), true;
  if (is("LogNormal", 0)) return use(FamilyTag<f::LogNormal>{}), true;
  if (is("Weibull", 0)) return use(FamilyTag<f::Weibull>{}), true;
  if (is("Beta", 0)) return use(FamilyTag<f::Beta>{}), true;
  if (is("Uniform", 0)) return use(FamilyTag<f::Uniform>{}), true;
  if (is("Poisson", 0)) return use(FamilyTag<f::PoissonRate>{}), true;
  if (is("Poisson", 1)) return use(FamilyTag<f::PoissonLogRate>{}), true;
  return false;
}

}  // namespace variate::tape
