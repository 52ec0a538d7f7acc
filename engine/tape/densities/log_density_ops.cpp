#include "engine/tape/densities/log_density_ops.h"

#include "engine/tape/program/unsupported.h"

namespace variate::tape {

void emit_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  if (emit_continuous_log_density(builder, term)) return;
  if (emit_discrete_log_density(builder, term)) return;
  if (emit_multivariate_log_density(builder, term)) return;
  throw Unsupported("the tape has no kernel for " + term.family);
}

}  // namespace variate::tape
