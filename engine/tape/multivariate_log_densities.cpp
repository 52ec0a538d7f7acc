#include "variate/tape/log_density_ops.h"

namespace variate::tape {

bool emit_multivariate_log_density(ProgramBuilder&, const DensityTerm&) { return false; }

}  // namespace variate::tape
