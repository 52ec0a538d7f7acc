// `target += x`: the sum of x added to lp, as LibTorch's LogDensityTerm does. A sink, so
// its partials (all 1) go straight into x's adjoints during the forward sweep.

#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/ops/partial_sums.h"

namespace variate::tape {
namespace {

void target_increment_forward(const Instruction& op, Sweep& s) {
  s.lp += sum_of(s.values + op.in[0], op.n);
  if (!op.varying[0]) return;
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] += 1;
}

}  // namespace

void emit_target_increment(ProgramBuilder& builder, const Slot& x) {
  Instruction op;
  op.sink = true;
  op.name = "target_increment";
  op.forward = target_increment_forward;
  op.n = x.size;
  op.in[0] = x.offset;
  op.stride[0] = 1;
  op.varying[0] = x.varying;
  builder.append(op);
}

}  // namespace variate::tape
