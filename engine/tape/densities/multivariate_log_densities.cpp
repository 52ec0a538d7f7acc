// The multivariate group: Dirichlet and LKJCorrCholesky here; MultiNormal and Mixture in
// their own files. Values are rows of event entries (a simplex, a Cholesky factor) whose
// leading dimensions are iid copies and the batch; an argument row is shared by the value
// rows that NumPy's broadcasting maps onto it (density_arguments.h).

#include <ATen/ATen.h>
#include <ATen/native/Math.h>

#include <cmath>
#include <limits>

#include "engine/distributions/lkj_corr_cholesky.h"
#include "engine/distributions/parameters.h"
#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
constexpr double kLog2 = 0.69314718055994530942;

// at::xlogy: 0 where a = 0 (unless x is NaN), a log x elsewhere.
double xlogy(double a, double x) {
  if (std::isnan(x)) return x;
  return a == 0 ? 0.0 : a * std::log(x);
}

// The derivative of xlogy(a, x) in a, as LibTorch's backward has it: log x, but 0 at
// a = 0, x <= 0 (the directional derivative along a = 0).
double xlogy_derivative(double a, double x) { return a == 0 && x <= 0 ? 0.0 : xlogy(1.0, x); }

// Dirichlet ------------------------------------------------------------------------------

// Operands: 0 alpha [alpha rows, K], 1 the value [rows, K], 2 alpha's normalizers
// lgamma(sum alpha) - sum lgamma(alpha) per alpha row (constant alpha: folded), or
// scratch [alpha rows, K + 2] (varying alpha: normalizer, digamma(sum), digamma(alpha)).
// dims: rows, K, alpha rows. constants[0]: the simplex tolerance.
template <bool kAlphaVaries>
void dirichlet_sink(const Instruction& op, Sweep& s) {
  const int64_t rows = op.dims[0];
  const int64_t K = op.dims[1];
  const int64_t alpha_rows = op.dims[2];
  const double* alpha = s.values + op.in[0];
  const double* x = s.values + op.in[1];
  double* alpha_adjoint = s.adjoints + op.in[0];
  double* x_adjoint = s.adjoints + op.in[1];
  const bool x_varies = op.varying[1];
  double* cache = s.values + op.in[2];
  const int64_t width = kAlphaVaries ? K + 2 : 1;
  if constexpr (kAlphaVaries) {
    for (int64_t r = 0; r < alpha_rows; ++r) {
      const double* a = alpha + r * K;
      double* c = cache + r * width;
      double total = 0;
      double lgammas = 0;
      for (int64_t j = 0; j < K; ++j) {
        total += a[j];
        lgammas += std::lgamma(a[j]);
        c[2 + j] = calc_digamma(a[j]);
      }
      c[0] = std::lgamma(total) - lgammas;
      c[1] = calc_digamma(total);
    }
  }
  double lp = 0;
  int64_t r = 0;  // alpha's row for value row i
  for (int64_t i = 0; i < rows; ++i, r = r + 1 == alpha_rows ? 0 : r + 1) {
    const double* xi = x + i * K;
    const double* a = alpha + r * K;
    double sum = 0;
    bool nonnegative = true;
    for (int64_t j = 0; j < K; ++j) {
      sum += xi[j];
      nonnegative = nonnegative && xi[j] >= 0;
    }
    if (!nonnegative || !(std::abs(sum - 1) < op.constants[0])) {
      s.lp += kMinusInfinity;
      return;
    }
    double row = cache[r * width];
    for (int64_t j = 0; j < K; ++j) row += xlogy(a[j] - 1, xi[j]);
    lp += row;
    if (x_varies) {
      for (int64_t j = 0; j < K; ++j) x_adjoint[i * K + j] += (a[j] - 1) / xi[j];
    }
    if constexpr (kAlphaVaries) {
      const double* c = cache + r * width;
      for (int64_t j = 0; j < K; ++j) {
        alpha_adjoint[r * K + j] += c[1] - c[2 + j] + xlogy_derivative(a[j] - 1, xi[j]);
      }
    }
  }
  s.lp += lp;
}

// The rows of event entries of `value` (its shape less the last `event_rank` dimensions).
Shape value_rows(const DensityTerm& term, int64_t event_rank, const char* family) {
  if (static_cast<int64_t>(term.value.shape.size()) < event_rank) {
    throw Unsupported(std::string("the tape has no kernel for ") + family +
                      " of a value of shape " + to_string(term.value.shape));
  }
  return leading_shape(term.value.shape, event_rank);
}

}  // namespace

void emit_dirichlet(ProgramBuilder& builder, const DensityTerm& term) {
  const Shape rows = value_rows(term, 1, "Dirichlet");
  const Slot& alpha = term.arguments[0];
  const int64_t K = term.value.shape.back();
  if (alpha.shape.empty() || alpha.shape.back() != K) {
    throw Unsupported("the tape has no kernel for Dirichlet with alpha of shape " +
                      to_string(alpha.shape) + " and a value of shape " +
                      to_string(term.value.shape));
  }
  const int64_t alpha_rows = row_period(alpha, 1, rows, "Dirichlet's alpha");
  Instruction op = sink_instruction(alpha.varying ? dirichlet_sink<true> : dirichlet_sink<false>,
                                    "Dirichlet", term.value.size);
  set_operand(op, 0, alpha);
  set_operand(op, 1, term.value);
  if (alpha.varying) {
    set_operand(op, 2, builder.varying({alpha_rows, K + 2}));
  } else {
    const at::Tensor a = constant_tensor(builder, alpha).reshape({alpha_rows, K});
    const at::Tensor normalizer = at::lgamma(a.sum(-1)) - at::lgamma(a).sum(-1);
    set_operand(op, 2,
                builder.constant({alpha_rows},
                                 std::vector<double>(normalizer.data_ptr<double>(),
                                                     normalizer.data_ptr<double>() + alpha_rows)));
  }
  op.dims = {numel(rows), K, alpha_rows, 0};
  op.constants[0] = distributions::rounding_tolerance(at::kDouble, K);
  builder.append(op);
}

namespace {

// LKJCorrCholesky ------------------------------------------------------------------------

struct LogNormalizer {
  double value = 0;
  double derivative = 0;
};

// log c_K(eta) as the family's constructor computes it (LKJ 2009, eq. 16), with its
// derivative in eta.
LogNormalizer lkj_log_normalizer(int64_t K, double eta) {
  LogNormalizer c;
  for (int64_t step = 1; step < K; ++step) {
    const auto m = static_cast<double>(step);
    const double b = eta + (m - 1) / 2;
    const double log_beta = 2 * std::lgamma(b) - std::lgamma(2 * b);
    c.value += (2 * eta - 2 + m) * m * kLog2 + m * log_beta;
    c.derivative += 2 * m * kLog2 + m * (2 * calc_digamma(b) - 2 * calc_digamma(2 * b));
  }
  return c;
}

// Whether L is a Cholesky factor of a correlation matrix: lower triangular, a positive
// diagonal, rows of unit length (within `tolerance`), as the family's support mask.
bool is_cholesky_corr(const double* L, int64_t K, double tolerance) {
  for (int64_t i = 0; i < K; ++i) {
    double length = 0;
    for (int64_t j = 0; j < K; ++j) {
      if (j > i && L[i * K + j] != 0) return false;
      length += L[i * K + j] * L[i * K + j];
    }
    if (!(L[i * K + i] > 0) || !(std::abs(length - 1) < tolerance)) return false;
  }
  return true;
}

// Operands: 0 eta [eta rows], 1 the value [matrices, K, K], 2 the log normalizers per
// eta row (constant eta; unread when eta varies). dims: matrices, K, eta rows.
// constants[0]: the unit-row tolerance.
template <bool kEtaVaries>
void lkj_corr_cholesky_sink(const Instruction& op, Sweep& s) {
  const int64_t matrices = op.dims[0];
  const int64_t K = op.dims[1];
  const int64_t eta_rows = op.dims[2];
  const double* eta = s.values + op.in[0];
  const double* L = s.values + op.in[1];
  const double* log_normalizers = s.values + op.in[2];
  double* eta_adjoint = s.adjoints + op.in[0];
  double* L_adjoint = s.adjoints + op.in[1];
  const bool L_varies = op.varying[1];
  double lp = 0;
  int64_t r = 0;
  for (int64_t m = 0; m < matrices; ++m, r = r + 1 == eta_rows ? 0 : r + 1) {
    const double* Lm = L + m * K * K;
    if (!is_cholesky_corr(Lm, K, op.constants[0])) {
      s.lp += kMinusInfinity;
      return;
    }
    // Row i (0-based, from 1) carries exponent (K - i - 3) + 2 eta.
    double log_density = 0;
    double sum_log_diagonal = 0;
    for (int64_t i = 1; i < K; ++i) {
      const double diagonal = Lm[i * K + i];
      const double exponent = static_cast<double>(K - i - 3) + 2 * eta[r];
      const double log_diagonal = std::log(diagonal);
      log_density += exponent * log_diagonal;
      sum_log_diagonal += log_diagonal;
      if (L_varies) L_adjoint[m * K * K + i * K + i] += exponent / diagonal;
    }
    if constexpr (kEtaVaries) {
      const LogNormalizer c = lkj_log_normalizer(K, eta[r]);
      lp += log_density - c.value;
      eta_adjoint[r] += 2 * sum_log_diagonal - c.derivative;
    } else {
      lp += log_density - log_normalizers[r];
    }
  }
  s.lp += lp;
}

}  // namespace

void emit_lkj_corr_cholesky(ProgramBuilder& builder, const DensityTerm& term) {
  const Shape rows = value_rows(term, 2, "LKJCorrCholesky");
  const int64_t K = term.value.shape.back();
  if (term.value.shape[term.value.shape.size() - 2] != K || K < 2) {
    throw Unsupported("the tape has no kernel for LKJCorrCholesky of a value of shape " +
                      to_string(term.value.shape));
  }
  const Slot& eta = term.arguments[0];
  const int64_t eta_rows = row_period(eta, 0, rows, "LKJCorrCholesky's eta");
  Instruction op =
      sink_instruction(eta.varying ? lkj_corr_cholesky_sink<true> : lkj_corr_cholesky_sink<false>,
                       "LKJCorrCholesky", term.value.size);
  set_operand(op, 0, eta);
  set_operand(op, 1, term.value);
  if (eta.varying) {
    set_operand(op, 2, eta);  // unused: the kernel computes the normalizer
  } else {
    // The family's own constant, so the two paths add the same number.
    const distributions::LKJCorrCholesky family(K,
                                                constant_tensor(builder, eta).reshape({eta_rows}));
    const at::Tensor c = family.log_normalizer().contiguous();
    set_operand(op, 2,
                builder.constant({eta_rows}, std::vector<double>(c.data_ptr<double>(),
                                                                 c.data_ptr<double>() + eta_rows)));
  }
  op.dims = {numel(rows), K, eta_rows, 0};
  op.constants[0] = distributions::rounding_tolerance(at::kDouble, K);
  builder.append(op);
}

bool emit_multivariate_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  if (term.family == "Dirichlet") {
    emit_dirichlet(builder, term);
  } else if (term.family == "LKJCorrCholesky") {
    emit_lkj_corr_cholesky(builder, term);
  } else if (term.family == "MultiNormal") {
    emit_multi_normal(builder, term);
  } else if (term.family == "Mixture") {
    emit_mixture(builder, term);
  } else {
    return false;
  }
  return true;
}

}  // namespace variate::tape
