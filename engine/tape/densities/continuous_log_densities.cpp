#include "engine/tape/densities/continuous_families.h"

namespace variate::tape {

bool emit_continuous_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  return emit_normal_log_density(builder, term) || emit_location_scale_log_density(builder, term) ||
         emit_positive_log_density(builder, term) || emit_interval_log_density(builder, term) ||
         emit_flat_log_density(builder, term);
}

}  // namespace variate::tape
