// `y ~ F(...) T[lo, hi]` on the tape: distributions::Truncated's normalizer built from the
// expression ops, in the same operations as the families' log_cdf/log_ccdf
// (engine/distributions: normal.cpp, cauchy.cpp, logistic.cpp, exponential.cpp), so that
// values and gradients agree with LibTorch's autograd to rounding:
//   log mass = log_diff_exp(log_cdf(hi), log_cdf(lo)), or log_ccdf(lo), or log_cdf(hi),
//   log_diff_exp(a, b) = a + log(-expm1(b - a)).

#include <cmath>
#include <limits>

#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/gather.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

using model::BinaryOp;

class Normalizer {
 public:
  Normalizer(ProgramBuilder& builder, const DensityTerm& term) : b_(builder), term_(term) {
    const std::string& f = term.family;
    if (f != "Normal" && f != "Cauchy" && f != "Logistic" && f != "Exponential") {
      throw Unsupported("the tape has no truncated " + f);
    }
    if (term.parameterization != 0) {
      throw Unsupported("the tape truncates " + f + " in its first parameterization only");
    }
  }

  // log P(X <= x).
  Slot log_cdf(const Slot& x) {
    const std::string& f = term_.family;
    if (f == "Normal") return unary("log_ndtr", standardized(x));
    if (f == "Cauchy") return unary("log", add(b_.scalar(0.5), divide(unary("atan", standardized(x)), pi())));
    if (f == "Logistic") return emit_negate(b_, unary("softplus", divide(emit_negate(b_, centered(x)), scale())));
    return unary("log", emit_negate(b_, unary("expm1", multiply(emit_negate(b_, rate()), positive(x)))));
  }

  // log P(X > x).
  Slot log_ccdf(const Slot& x) {
    const std::string& f = term_.family;
    if (f == "Normal") return unary("log_ndtr", divide(subtract(location(), x), scale()));
    if (f == "Cauchy") {
      return unary("log", subtract(b_.scalar(0.5), divide(unary("atan", standardized(x)), pi())));
    }
    if (f == "Logistic") return emit_negate(b_, unary("softplus", standardized(x)));
    return multiply(emit_negate(b_, rate()), positive(x));
  }

  Slot log_diff_exp(const Slot& a, const Slot& c) {
    return add(a, unary("log", emit_negate(b_, unary("expm1", subtract(c, a)))));
  }

 private:
  const Slot& location() const { return term_.arguments.at(0); }
  const Slot& scale() const { return term_.arguments.at(1); }
  const Slot& rate() const { return term_.arguments.at(0); }
  Slot centered(const Slot& x) { return subtract(x, location()); }
  Slot standardized(const Slot& x) { return divide(centered(x), scale()); }
  Slot pi() { return b_.scalar(M_PI); }
  // at::clamp_min(x, 0), whose gradient passes where x >= 0.
  Slot positive(const Slot& x) {
    return emit_conditional(b_, emit_arithmetic(b_, BinaryOp::greater_equal, x, b_.scalar(0)), x, b_.scalar(0));
  }
  Slot unary(const char* f, const Slot& x) { return emit_unary(b_, f, x); }
  Slot add(const Slot& x, const Slot& y) { return emit_arithmetic(b_, BinaryOp::add, x, y); }
  Slot subtract(const Slot& x, const Slot& y) { return emit_arithmetic(b_, BinaryOp::subtract, x, y); }
  Slot multiply(const Slot& x, const Slot& y) { return emit_arithmetic(b_, BinaryOp::multiply, x, y); }
  Slot divide(const Slot& x, const Slot& y) { return emit_arithmetic(b_, BinaryOp::divide, x, y); }

  ProgramBuilder& b_;
  const DensityTerm& term_;
};

// log P(lo <= X <= hi), of the bounds' shape.
Slot log_mass(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
              const std::optional<Slot>& hi) {
  if (!lo && !hi) throw Unsupported("a truncation needs a bound");
  Normalizer normalizer(builder, term);
  return lo && hi ? normalizer.log_diff_exp(normalizer.log_cdf(*hi), normalizer.log_cdf(*lo))
         : lo     ? normalizer.log_ccdf(*lo)
                  : normalizer.log_cdf(*hi);
}

// 1 where the value lies in [lo, hi], else 0; nothing where data the compiler checked
// against constant bounds when it was bound needs no test.
std::optional<Slot> inside(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                           const std::optional<Slot>& hi) {
  if (!term.value.varying && !(lo && lo->varying) && !(hi && hi->varying)) return std::nullopt;
  std::optional<Slot> result;
  const auto both = [&](const Slot& test) {
    result = result ? emit_arithmetic(builder, model::BinaryOp::logical_and, *result, test) : test;
  };
  if (lo) both(emit_arithmetic(builder, model::BinaryOp::greater_equal, term.value, *lo));
  if (hi) both(emit_arithmetic(builder, model::BinaryOp::less_equal, term.value, *hi));
  return result;
}

}  // namespace

Slot emit_log_cdf(ProgramBuilder& builder, const DensityTerm& term, bool upper) {
  Normalizer normalizer(builder, term);
  return upper ? normalizer.log_ccdf(term.value) : normalizer.log_cdf(term.value);
}

void emit_truncation(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                     const std::optional<Slot>& hi) {
  const Shape& shape = term.value.shape;
  emit_target_increment(builder, emit_negate(builder, broadcast_to(builder, log_mass(builder, term, lo, hi), shape)));
  if (const std::optional<Slot> within = inside(builder, term, lo, hi)) {
    const Slot outside = builder.scalar(-std::numeric_limits<double>::infinity());
    emit_target_increment(builder, emit_conditional(builder, *within, builder.scalar(0), outside));
  }
}

Slot emit_truncated_pointwise(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                              const std::optional<Slot>& hi, const Slot& pointwise) {
  const Slot mass = broadcast_to(builder, log_mass(builder, term, lo, hi), term.value.shape);
  const Slot lp = emit_arithmetic(builder, model::BinaryOp::subtract, pointwise, mass);
  const std::optional<Slot> within = inside(builder, term, lo, hi);
  if (!within) return lp;
  return emit_conditional(builder, *within, lp, builder.scalar(-std::numeric_limits<double>::infinity()));
}

}  // namespace variate::tape
