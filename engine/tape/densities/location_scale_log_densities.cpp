// The sinks of the location-scale families besides Normal and of their halves; their
// densities are location_scale_families.h.

#include "engine/tape/densities/continuous_families.h"
#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/location_scale_families.h"

namespace variate::tape {

bool emit_location_scale_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  return emit_family_sink<families::HalfNormal>(builder, term, "HalfNormal", "half_normal_lpdf") ||
         emit_family_sink<families::Cauchy>(builder, term, "Cauchy", "cauchy_lpdf") ||
         emit_family_sink<families::HalfCauchy>(builder, term, "HalfCauchy", "half_cauchy_lpdf") ||
         emit_family_sink<families::StudentT>(builder, term, "StudentT", "student_t_lpdf") ||
         emit_family_sink<families::HalfStudentT>(builder, term, "HalfStudentT", "half_student_t_lpdf") ||
         emit_family_sink<families::Laplace>(builder, term, "Laplace", "laplace_lpdf") ||
         emit_family_sink<families::Logistic>(builder, term, "Logistic", "logistic_lpdf");
}

}  // namespace variate::tape
