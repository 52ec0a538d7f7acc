// The improper families, as distributions/flat.cpp and half_flat.cpp: 0 on the support
// (x finite; for HalfFlat also x > 0), -inf outside, and a zero gradient, so the sink adds
// nothing to any adjoint.

#include <cmath>
#include <limits>

#include "engine/tape/densities/continuous_families.h"
#include "engine/tape/densities/density_sink.h"

namespace variate::tape {
namespace {

bool finite(double x) { return std::isfinite(x); }

template <bool (*kInside)(double)>
void improper_sink(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) {
    if (!kInside(x[i])) {
      s.lp += -std::numeric_limits<double>::infinity();
      return;
    }
  }
}

bool emit_improper(ProgramBuilder& builder, const DensityTerm& term, const char* family,
                   Kernel kernel, const char* name) {
  if (term.family != family) return false;
  Instruction op = density_sink(term, 0, name);
  op.forward = kernel;
  builder.append(op);
  return true;
}

}  // namespace

bool emit_flat_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  return emit_improper(builder, term, "Flat", improper_sink<finite>, "flat_lpdf") ||
         emit_improper(builder, term, "HalfFlat", improper_sink<positive_finite>, "half_flat_lpdf");
}

}  // namespace variate::tape
