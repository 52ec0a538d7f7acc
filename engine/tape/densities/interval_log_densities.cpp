// The sinks of the families on an interval (interval_families.h).

#include "engine/tape/densities/continuous_families.h"
#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/interval_families.h"

namespace variate::tape {

bool emit_interval_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  return emit_family_sink<families::Beta>(builder, term, "Beta", "beta_lpdf") ||
         emit_family_sink<families::Uniform>(builder, term, "Uniform", "uniform_lpdf");
}

}  // namespace variate::tape
