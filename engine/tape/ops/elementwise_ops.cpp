// The elementwise functions and negation. Each function is a value and the adjoint its
// operand receives, written as LibTorch's kernel and backward formula write them (the
// same operations in the same order), so that values and gradients agree to rounding.

#include <ATen/native/Math.h>

#include <cmath>
#include <limits>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// at::softplus's default threshold: above it the value is x and the derivative 1.
constexpr double kSoftplusThreshold = 20.0;

struct Exp {
  static double value(double x) { return std::exp(x); }
  static double adjoint(double g, double, double y) { return g * y; }
};
struct Log {
  static double value(double x) { return std::log(x); }
  static double adjoint(double g, double x, double) { return g / x; }
};
struct Log1p {
  static double value(double x) { return std::log1p(x); }
  static double adjoint(double g, double x, double) { return g / (x + 1); }
};
struct Expm1 {
  static double value(double x) { return std::expm1(x); }
  static double adjoint(double g, double, double y) { return g * (y + 1); }
};
struct Sqrt {
  static double value(double x) { return std::sqrt(x); }
  static double adjoint(double g, double, double y) { return g / (2 * y); }
};
// at::square is pow(x, 2): x * x forward, grad * (2 * x) backward.
struct Square {
  static double value(double x) { return x * x; }
  static double adjoint(double g, double x, double) { return g * (2 * x); }
};
// grad * sgn(x): 0 at the kink, as LibTorch.
struct Abs {
  static double value(double x) { return std::abs(x); }
  static double adjoint(double g, double x, double) {
    return g * static_cast<double>((x > 0) - (x < 0));
  }
};
struct InvLogit {
  static double value(double x) { return 1 / (1 + std::exp(-x)); }
  static double adjoint(double g, double, double y) { return g * (1 - y) * y; }
};
// at::logit without eps; its backward is NaN outside [0, 1] and infinite at the ends.
struct Logit {
  static double value(double x) { return std::log(x / (1 - x)); }
  static double adjoint(double g, double x, double) {
    if (x < 0 || x > 1) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0 || x == 1) return g * std::numeric_limits<double>::infinity();
    return g / (x * (1 - x));
  }
};
struct Softplus {
  static double value(double x) { return x > kSoftplusThreshold ? x : std::log1p(std::exp(x)); }
  static double adjoint(double g, double x, double) {
    if (x > kSoftplusThreshold) return g;
    const double z = std::exp(x);
    return g * z / (z + 1);
  }
};
struct Tanh {
  static double value(double x) { return std::tanh(x); }
  static double adjoint(double g, double, double y) { return g * (1 - y * y); }
};
// std::lgamma's algorithm; glibc's reentrant form, since chains evaluate on several threads
// and std::lgamma writes the global signgam.
struct Lgamma {
  static double value(double x) {
#if defined(__GLIBC__)
    int sign;
    return lgamma_r(x, &sign);
#else
    return std::lgamma(x);
#endif
  }
  static double adjoint(double g, double x, double) { return g * calc_digamma(x); }
};

// The two below are not functions of the language: densities/truncation.cpp builds the cumulative
// distribution functions of Normal and Cauchy from them.
// at::special_log_ndtr's kernel (calc_log_ndtr) and its backward,
// grad / sqrt(2 pi) * exp(-(y + x^2 / 2)).
struct LogNdtr {
  static double value(double x) { return calc_log_ndtr(x); }
  static double adjoint(double g, double x, double y) {
    return g / std::sqrt(2 * M_PI) * std::exp(-(y + x * x / 2));
  }
};
struct Atan {
  static double value(double x) { return std::atan(x); }
  static double adjoint(double g, double x, double) { return g / (x * x + 1); }
};

template <class F>
void unary_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  double* __restrict y = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) y[i] = F::value(x[i]);
}

template <class F>
void unary_backward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  const double* y = s.values + op.out;
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] += F::adjoint(g[i], x[i], y[i]);
}

struct UnaryKernels {
  const char* name;
  Kernel forward;
  Kernel backward;
  double (*value)(double);  // for folding a constant operand
};

template <class F>
constexpr UnaryKernels kernels_of(const char* name) {
  return {name, unary_forward<F>, unary_backward<F>, F::value};
}

constexpr UnaryKernels kUnary[] = {
    kernels_of<Exp>("exp"),     kernels_of<Log>("log"),
    kernels_of<Log1p>("log1p"), kernels_of<Expm1>("expm1"),
    kernels_of<Sqrt>("sqrt"),   kernels_of<Square>("square"),
    kernels_of<Abs>("abs"),     kernels_of<InvLogit>("inv_logit"),
    kernels_of<Logit>("logit"), kernels_of<Softplus>("softplus"),
    kernels_of<Tanh>("tanh"),   kernels_of<Lgamma>("lgamma"),
    kernels_of<LogNdtr>("log_ndtr"), kernels_of<Atan>("atan"),
};

const UnaryKernels* find_unary(const std::string& function) {
  for (const UnaryKernels& k : kUnary) {
    if (function == k.name) return &k;
  }
  return nullptr;
}

void negate_forward(const Instruction& op, Sweep& s) {
  const double* x = s.values + op.in[0];
  double* __restrict y = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) y[i] = -x[i];
}

void negate_backward(const Instruction& op, Sweep& s) {
  const double* g = s.adjoints + op.out;
  double* ax = s.adjoints + op.in[0];
  for (int64_t i = 0; i < op.n; ++i) ax[i] -= g[i];
}

// out = f(x) elementwise; a constant x is folded into a constant.
Slot emit_elementwise(ProgramBuilder& builder, const char* name, Kernel forward, Kernel backward,
                      double (*value)(double), const Slot& x) {
  if (!x.varying) {
    std::vector<double> values = builder.constant_values(x);
    for (double& v : values) v = value(v);
    return builder.constant(x.shape, std::move(values));
  }
  const Slot out = builder.varying(x.shape);
  Instruction op;
  op.forward = forward;
  op.backward = backward;
  op.name = name;
  op.out = out.offset;
  op.n = out.size;
  op.in[0] = x.offset;
  op.stride[0] = 1;
  op.varying[0] = true;
  builder.append(op);
  return out;
}

}  // namespace

bool has_unary_kernel(const std::string& function) { return find_unary(function) != nullptr; }

Slot emit_unary(ProgramBuilder& builder, const std::string& function, const Slot& x) {
  const UnaryKernels* k = find_unary(function);
  if (!k) throw Unsupported("the tape has no kernel for " + function);
  return emit_elementwise(builder, k->name, k->forward, k->backward, k->value, x);
}

Slot emit_negate(ProgramBuilder& builder, const Slot& x) {
  return emit_elementwise(
      builder, "negate", negate_forward, negate_backward, [](double v) { return -v; }, x);
}

}  // namespace variate::tape
