#include "engine/tape/log_density_ops.h"

#include "engine/tape/unsupported.h"

namespace variate::tape {

void emit_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  if (emit_continuous_log_density(builder, term)) return;
  if (emit_discrete_log_density(builder, term)) return;
  if (emit_multivariate_log_density(builder, term)) return;
  throw Unsupported("the tape has no kernel for " + term.family);
}

}  // namespace variate::tape
