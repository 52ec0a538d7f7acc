// + - * / ^, the comparisons and && || under NumPy broadcasting. Operands of the result's size are read elementwise,
// one-element operands at stride 0 (their adjoint is the sum of their terms); any other
// broadcast is a gather of the operand to the result's shape first. Kernels are
// specialized on the stride pattern and on which operands vary, and the backward formulas
// are LibTorch's (derivatives.yaml): the same products and quotients, and at::pow's masks.
// Comparisons and logic give 1 or 0 (as model/evaluator.cpp's compare) and pass no
// gradient: their ops have no backward.

#include <cmath>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/gather.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

struct Add {
  static constexpr bool differentiable = true;
  static constexpr const char* name = "add";
  static double value(double a, double b) { return a + b; }
  static double adjoint_a(double g, double, double, double) { return g; }
  static double adjoint_b(double g, double, double, double) { return g; }
};
struct Subtract {
  static constexpr bool differentiable = true;
  static constexpr const char* name = "subtract";
  static double value(double a, double b) { return a - b; }
  static double adjoint_a(double g, double, double, double) { return g; }
  static double adjoint_b(double g, double, double, double) { return -g; }
};
struct Multiply {
  static constexpr bool differentiable = true;
  static constexpr const char* name = "multiply";
  static double value(double a, double b) { return a * b; }
  static double adjoint_a(double g, double, double b, double) { return g * b; }
  static double adjoint_b(double g, double a, double, double) { return g * a; }
};
// d/db (a / b) = -grad * ((a / b) / b), with a / b the output.
struct Divide {
  static constexpr bool differentiable = true;
  static constexpr const char* name = "divide";
  static double value(double a, double b) { return a / b; }
  static double adjoint_a(double g, double, double b, double) { return g / b; }
  static double adjoint_b(double g, double, double b, double y) { return -g * (y / b); }
};
// pow_backward_self: 0 where the exponent is 0 (also at a = 0, where b a^(b-1) is NaN);
// pow_backward_exponent: 0 where a = 0 and b >= 0 (where log(a) is -inf).
struct Power {
  static constexpr bool differentiable = true;
  static constexpr const char* name = "power";
  static double value(double a, double b) { return std::pow(a, b); }
  static double adjoint_a(double g, double a, double b, double) {
    return b == 0 ? 0.0 : g * (b * std::pow(a, b - 1));
  }
  static double adjoint_b(double g, double a, double b, double y) {
    return a == 0 && b >= 0 ? 0.0 : g * (y * std::log(a));
  }
};

// A comparison or logical operator: a 1 or 0, no adjoints.
template <class Compare>
struct Predicate {
  static constexpr bool differentiable = false;
  static constexpr const char* name = Compare::name;
  static double value(double a, double b) { return Compare::holds(a, b) ? 1.0 : 0.0; }
};
struct Equal {
  static constexpr const char* name = "equal";
  static bool holds(double a, double b) { return a == b; }
};
struct NotEqual {
  static constexpr const char* name = "not_equal";
  static bool holds(double a, double b) { return a != b; }
};
struct Less {
  static constexpr const char* name = "less";
  static bool holds(double a, double b) { return a < b; }
};
struct LessEqual {
  static constexpr const char* name = "less_equal";
  static bool holds(double a, double b) { return a <= b; }
};
struct Greater {
  static constexpr const char* name = "greater";
  static bool holds(double a, double b) { return a > b; }
};
struct GreaterEqual {
  static constexpr const char* name = "greater_equal";
  static bool holds(double a, double b) { return a >= b; }
};
struct LogicalAnd {
  static constexpr const char* name = "logical_and";
  static bool holds(double a, double b) { return a != 0 && b != 0; }
};
struct LogicalOr {
  static constexpr const char* name = "logical_or";
  static bool holds(double a, double b) { return a != 0 || b != 0; }
};

// An operand read at stride 1 (a vector of the result's size) or 0 (one value, loaded
// once so that the loops do not reload it).
template <int Stride>
struct Operand;
template <>
struct Operand<1> {
  const double* p;
  explicit Operand(const double* x) : p(x) {}
  double operator[](int64_t i) const { return p[i]; }
};
template <>
struct Operand<0> {
  double v;
  explicit Operand(const double* x) : v(x[0]) {}
  double operator[](int64_t) const { return v; }
};

template <class Op, int SA, int SB>
void arithmetic_forward(const Instruction& op, Sweep& s) {
  const Operand<SA> a(s.values + op.in[0]);
  const Operand<SB> b(s.values + op.in[1]);
  double* __restrict y = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) y[i] = Op::value(a[i], b[i]);
}

template <class Op, int SA, int SB, bool VA, bool VB>
void arithmetic_backward(const Instruction& op, Sweep& s) {
  const Operand<SA> a(s.values + op.in[0]);
  const Operand<SB> b(s.values + op.in[1]);
  const double* y = s.values + op.out;
  const double* g = s.adjoints + op.out;
  double* adjoint_a = s.adjoints + op.in[0];
  double* adjoint_b = s.adjoints + op.in[1];
  const int64_t n = op.n;
  if constexpr (SA == 1 && SB == 1) {
    // a and b may be one slot (x * x): both adds, one after the other.
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (VA) adjoint_a[i] += Op::adjoint_a(g[i], a[i], b[i], y[i]);
      if constexpr (VB) adjoint_b[i] += Op::adjoint_b(g[i], a[i], b[i], y[i]);
    }
  } else {
    // One operand is a broadcast scalar, whose adjoint is the sum of its terms. Two loops
    // rather than one: each vectorizes on its own.
    if constexpr (VA && SA == 1) {
      for (int64_t i = 0; i < n; ++i) adjoint_a[i] += Op::adjoint_a(g[i], a[i], b[i], y[i]);
    }
    if constexpr (VB && SB == 1) {
      for (int64_t i = 0; i < n; ++i) adjoint_b[i] += Op::adjoint_b(g[i], a[i], b[i], y[i]);
    }
    if constexpr (VA && SA == 0) {
      adjoint_a[0] +=
          sum_of_terms(n, [&](int64_t i) { return Op::adjoint_a(g[i], a[i], b[i], y[i]); });
    }
    if constexpr (VB && SB == 0) {
      adjoint_b[0] +=
          sum_of_terms(n, [&](int64_t i) { return Op::adjoint_b(g[i], a[i], b[i], y[i]); });
    }
  }
}

template <class Op, int SA, int SB>
Kernel backward_kernel(bool va, bool vb) {
  if constexpr (Op::differentiable) {
    if (va && vb) return arithmetic_backward<Op, SA, SB, true, true>;
    if (va) return arithmetic_backward<Op, SA, SB, true, false>;
    if (vb) return arithmetic_backward<Op, SA, SB, false, true>;
  }
  return nullptr;
}

// Both operands constant (the compiler folds these, but the op stays correct): the
// values now, as a constant.
template <class Op>
Slot fold(ProgramBuilder& builder, const Slot& a, const Slot& b, const Shape& shape,
          int64_t stride_a, int64_t stride_b) {
  const std::vector<double> va = builder.constant_values(a);
  const std::vector<double> vb = builder.constant_values(b);
  std::vector<double> values(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] =
        Op::value(va[i * static_cast<size_t>(stride_a)], vb[i * static_cast<size_t>(stride_b)]);
  }
  return builder.constant(shape, std::move(values));
}

template <class Op>
Slot emit_binary(ProgramBuilder& builder, Slot a, Slot b) {
  const Shape shape = broadcast_shapes(a.shape, b.shape);
  const int64_t n = numel(shape);
  // Neither of the result's size nor a single value: gather both to the result's shape.
  if ((a.size != n && a.size != 1) || (b.size != n && b.size != 1)) {
    a = broadcast_to(builder, a, shape);
    b = broadcast_to(builder, b, shape);
  }
  const int64_t stride_a = a.size == n ? 1 : 0;
  const int64_t stride_b = b.size == n ? 1 : 0;
  if (!a.varying && !b.varying) return fold<Op>(builder, a, b, shape, stride_a, stride_b);

  const Slot out = builder.varying(shape);
  Instruction op;
  op.name = Op::name;
  op.out = out.offset;
  op.n = n;
  op.in[0] = a.offset;
  op.in[1] = b.offset;
  op.stride[0] = stride_a;
  op.stride[1] = stride_b;
  op.varying[0] = a.varying;
  op.varying[1] = b.varying;
  if (stride_a == 1 && stride_b == 1) {
    op.forward = arithmetic_forward<Op, 1, 1>;
    op.backward = backward_kernel<Op, 1, 1>(a.varying, b.varying);
  } else if (stride_a == 1) {
    op.forward = arithmetic_forward<Op, 1, 0>;
    op.backward = backward_kernel<Op, 1, 0>(a.varying, b.varying);
  } else {
    op.forward = arithmetic_forward<Op, 0, 1>;
    op.backward = backward_kernel<Op, 0, 1>(a.varying, b.varying);
  }
  builder.append(op);
  return out;
}

// x ^ 2 for a constant exponent 2 that does not enlarge the shape: at::square's kernel
// (x * x), far cheaper than pow, with the same gradient (grad * (2 * x)).
bool is_square(const ProgramBuilder& builder, const Slot& a, const Slot& b) {
  return !b.varying && b.size == 1 && builder.constant_values(b)[0] == 2.0 &&
         broadcast_shapes(a.shape, b.shape) == a.shape;
}

}  // namespace

Slot emit_arithmetic(ProgramBuilder& builder, model::BinaryOp op, const Slot& a, const Slot& b) {
  switch (op) {
    case model::BinaryOp::add:
      return emit_binary<Add>(builder, a, b);
    case model::BinaryOp::subtract:
      return emit_binary<Subtract>(builder, a, b);
    case model::BinaryOp::multiply:
      return emit_binary<Multiply>(builder, a, b);
    case model::BinaryOp::divide:
      return emit_binary<Divide>(builder, a, b);
    case model::BinaryOp::power:
      if (is_square(builder, a, b)) return emit_unary(builder, "square", a);
      return emit_binary<Power>(builder, a, b);
    case model::BinaryOp::matmul:
      return emit_matmul(builder, a, b);
    case model::BinaryOp::equal:
      return emit_binary<Predicate<Equal>>(builder, a, b);
    case model::BinaryOp::not_equal:
      return emit_binary<Predicate<NotEqual>>(builder, a, b);
    case model::BinaryOp::less:
      return emit_binary<Predicate<Less>>(builder, a, b);
    case model::BinaryOp::less_equal:
      return emit_binary<Predicate<LessEqual>>(builder, a, b);
    case model::BinaryOp::greater:
      return emit_binary<Predicate<Greater>>(builder, a, b);
    case model::BinaryOp::greater_equal:
      return emit_binary<Predicate<GreaterEqual>>(builder, a, b);
    case model::BinaryOp::logical_and:
      return emit_binary<Predicate<LogicalAnd>>(builder, a, b);
    case model::BinaryOp::logical_or:
      return emit_binary<Predicate<LogicalOr>>(builder, a, b);
  }
  throw Unsupported(std::string("the tape has no kernel for ") + model::binary_op_text(op));
}

}  // namespace variate::tape
