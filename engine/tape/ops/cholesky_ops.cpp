// cholesky(A): the lower factor L of A = L L^T, as at::linalg_cholesky_ex (which reads
// the lower triangle of A only). Not positive definite: L is NaN and the sweep fails, as
// the LibTorch path's NaN factor makes the density -inf.
//
// Backward: LibTorch's cholesky_backward (Murray 2016, "Differentiation of the Cholesky
// decomposition", symmetrized):
//   P = Phi(L^T Lbar),  Abar = L^-T P L^-1,
// with Phi(T) = (tril(T) + tril(T, -1)^T) / 2, so that Abar is symmetric: an upper entry of
// A gets half of the gradient of the lower entry it mirrors, as in LibTorch.

#include <cmath>
#include <limits>

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// Cholesky-Banachiewicz, row by row: L[i, j] = (A[i, j] - L[i, :j] . L[j, :j]) / L[j, j].
// Returns false when a pivot is not positive (or NaN), as LAPACK's potrf.
bool factor(const double* a, int64_t n, double* l) {
  for (int64_t i = 0; i < n; ++i) {
    double* row = l + i * n;
    for (int64_t j = 0; j < i; ++j) {
      row[j] = (a[i * n + j] - dot_of(row, l + j * n, j)) / l[j * n + j];
    }
    const double pivot = a[i * n + i] - dot_of(row, row, i);
    if (!(pivot > 0)) return false;
    row[i] = std::sqrt(pivot);
    for (int64_t j = i + 1; j < n; ++j) row[j] = 0;
  }
  return true;
}

// dims = {n}; in[0] = A.
void cholesky_forward(const Instruction& op, Sweep& s) {
  const int64_t n = op.dims[0];
  double* l = s.values + op.out;
  if (!factor(s.values + op.in[0], n, l)) {
    for (int64_t i = 0; i < n * n; ++i) l[i] = std::numeric_limits<double>::quiet_NaN();
    s.failed = true;
  }
}

// P = Phi(L^T Lbar) into p (n x n, symmetric). Only Lbar's lower triangle enters:
// (L^T Lbar)[i, j] for i >= j sums over k >= i, where k >= j too.
void symmetrized_product(const double* l, const double* lbar, int64_t n, double* p) {
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      double t = 0;
      for (int64_t k = i; k < n; ++k) t += l[k * n + i] * lbar[k * n + j];
      p[i * n + j] = 0.5 * t;
      p[j * n + i] = 0.5 * t;
    }
  }
}

// X = L^-T X in place (L^T upper triangular): back substitution, row by row from the last.
void solve_transposed_left(const double* l, int64_t n, double* x) {
  for (int64_t i = n; i-- > 0;) {
    double* row = x + i * n;
    for (int64_t k = i + 1; k < n; ++k) {
      const double lki = l[k * n + i];
      const double* solved = x + k * n;
      for (int64_t c = 0; c < n; ++c) row[c] -= lki * solved[c];
    }
    const double pivot = l[i * n + i];
    for (int64_t c = 0; c < n; ++c) row[c] /= pivot;
  }
}

// X = X L^-1 in place: each row y solves y L = x, from its last element.
void solve_right(const double* l, int64_t n, double* x) {
  for (int64_t r = 0; r < n; ++r) {
    double* row = x + r * n;
    for (int64_t j = n; j-- > 0;) {
      double t = row[j];
      for (int64_t k = j + 1; k < n; ++k) t -= row[k] * l[k * n + j];
      row[j] = t / l[j * n + j];
    }
  }
}

// in[1] = the n x n scratch for P.
void cholesky_backward(const Instruction& op, Sweep& s) {
  const int64_t n = op.dims[0];
  const double* l = s.values + op.out;
  double* p = s.values + op.in[1];
  symmetrized_product(l, s.adjoints + op.out, n, p);
  solve_transposed_left(l, n, p);
  solve_right(l, n, p);
  double* abar = s.adjoints + op.in[0];
  for (int64_t i = 0; i < n * n; ++i) abar[i] += p[i];
}

}  // namespace

Slot emit_cholesky(ProgramBuilder& builder, const Slot& a) {
  if (a.shape.size() != 2 || a.shape[0] != a.shape[1]) {
    throw Unsupported("the tape has no kernel for cholesky of shape " + to_string(a.shape));
  }
  const int64_t n = a.shape[0];
  const Slot out = builder.varying(a.shape);
  Instruction op;
  op.name = "cholesky";
  op.forward = cholesky_forward;
  op.out = out.offset;
  op.n = out.size;
  op.in[0] = a.offset;
  op.varying[0] = a.varying;
  op.dims = {n, 0, 0, 0};
  if (a.varying) {
    // Working memory for the backward sweep, in the arena: no allocation per evaluation.
    op.in[1] = builder.varying(a.shape).offset;
    op.backward = cholesky_backward;
  }
  builder.append(op);
  return out;
}

}  // namespace variate::tape
