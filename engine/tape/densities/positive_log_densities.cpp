// The sinks of the families on [0, inf) or (0, inf) that are not halves of a location-scale
// family; their densities are positive_families.h.

#include "engine/tape/densities/continuous_families.h"
#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/positive_families.h"

namespace variate::tape {

bool emit_positive_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  return emit_family_sink<families::Exponential>(builder, term, "Exponential", "exponential_lpdf") ||
         emit_family_sink<families::Gamma>(builder, term, "Gamma", "gamma_lpdf") ||
         emit_family_sink<families::InvGamma>(builder, term, "InvGamma", "inv_gamma_lpdf") ||
         emit_family_sink<families::LogNormal>(builder, term, "LogNormal", "lognormal_lpdf") ||
         emit_family_sink<families::Weibull>(builder, term, "Weibull", "weibull_lpdf");
}

}  // namespace variate::tape
