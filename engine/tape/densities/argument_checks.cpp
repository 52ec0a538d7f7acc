#include "engine/tape/densities/argument_checks.h"

#include <cmath>

namespace variate::tape {
namespace {

void reject_point(Sweep& s) {
  s.failed = true;
  s.rejected = true;
}

// A comparison per element: the cost the check adds to an evaluation.
template <bool (*InDomain)(double)>
void check_domain_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  bool ok = true;
  for (int64_t i = 0; i < op.n; ++i) ok &= InDomain(x[i]);
  if (!ok) reject_point(s);
}

bool is_positive(double x) { return x > 0; }
bool is_nonnegative(double x) { return x >= 0; }
bool is_probability(double x) { return x >= 0 && x <= 1; }
bool is_finite(double x) { return std::isfinite(x); }

// Rows of dims[0] entries, each non-negative and summing to 1 within 1e-8 (check_simplex).
void check_simplex_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const int64_t length = op.dims[0];
  for (int64_t row = 0; row < op.n / length; ++row) {
    double sum = 0;
    bool nonnegative_entries = true;
    for (int64_t k = 0; k < length; ++k) {
      const double v = x[row * length + k];
      nonnegative_entries &= v >= 0;
      sum += v;
    }
    if (!nonnegative_entries || !(std::abs(sum - 1) <= 1e-8)) return reject_point(s);
  }
}

void check_less_forward(const Instruction& op, Sweep& s) {
  const double* lo = s.values + op.in[0];
  const double* hi = s.values + op.in[1];
  bool ok = true;
  for (int64_t i = 0; i < op.n; ++i) ok &= lo[i * op.stride[0]] < hi[i * op.stride[1]];
  if (!ok) reject_point(s);
}

// A check is a sink that adds nothing: it runs in the forward sweep only.
Instruction check_instruction(const char* name, Kernel forward, const Slot& argument) {
  Instruction op;
  op.sink = true;
  op.name = name;
  op.forward = forward;
  op.n = argument.size;
  op.in[0] = argument.offset;
  op.stride[0] = 1;
  return op;
}

}  // namespace

void emit_argument_check(ProgramBuilder& builder, model::ArgumentDomain domain, const Slot& argument) {
  using D = model::ArgumentDomain;
  if (!argument.varying || argument.size == 0) return;
  switch (domain) {
    case D::positive: return builder.append(check_instruction("check_positive", check_domain_forward<is_positive>, argument));
    case D::nonnegative: return builder.append(check_instruction("check_nonnegative", check_domain_forward<is_nonnegative>, argument));
    case D::probability: return builder.append(check_instruction("check_probability", check_domain_forward<is_probability>, argument));
    case D::simplex: {
      Instruction op = check_instruction("check_simplex", check_simplex_forward, argument);
      op.dims[0] = argument.shape.empty() ? 1 : argument.shape.back();
      if (op.dims[0] > 0) builder.append(op);
      return;
    }
    case D::any: return;
  }
}

void emit_finite_check(ProgramBuilder& builder, const Slot& argument) {
  if (!argument.varying || argument.size == 0) return;
  builder.append(check_instruction("check_finite", check_domain_forward<is_finite>, argument));
}

void emit_less_check(ProgramBuilder& builder, const Slot& lo, const Slot& hi) {
  if (!lo.varying && !hi.varying) return;
  Instruction op;
  op.sink = true;
  op.name = "check_less";
  op.forward = check_less_forward;
  op.n = std::max(lo.size, hi.size);
  op.in = {lo.offset, hi.offset, -1, -1, -1, -1};
  op.stride = {lo.size == 1 ? 0 : 1, hi.size == 1 ? 0 : 1, 0, 0, 0, 0};
  builder.append(op);
}

}  // namespace variate::tape
