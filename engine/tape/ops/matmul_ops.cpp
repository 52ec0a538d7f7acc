// `a @ b` as at::matmul, on row-major operands: matrix-vector, vector-matrix,
// matrix-matrix and vector-vector. Loops run along contiguous rows (or, for a data matrix
// times a vector, along the columns of its transposed copy), dot products in partial sums;
// kernels are specialized on which operands vary, so that the hot case, data X @
// parameters b, is forward X b and backward X^T g only.

#include "engine/tape/ops/expression_ops.h"
#include "engine/tape/ops/partial_sums.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// dims = {m, k}: y[m] = A[m, k] x[k], two rows at a time (sharing the loads of x), each
// in two partial sums (even and odd columns).
void matrix_vector_forward(const Instruction& op, Sweep& s) {
  const double* a = s.values + op.in[0];
  const double* x = s.values + op.in[1];
  double* __restrict y = s.values + op.out;
  const int64_t m = op.dims[0];
  const int64_t k = op.dims[1];
  int64_t i = 0;
  for (; i + 2 <= m; i += 2) {
    const double* r0 = a + i * k;
    const double* r1 = r0 + k;
    double s00 = 0, s01 = 0, s10 = 0, s11 = 0;
    int64_t j = 0;
    for (; j + 2 <= k; j += 2) {
      s00 += r0[j] * x[j];
      s01 += r0[j + 1] * x[j + 1];
      s10 += r1[j] * x[j];
      s11 += r1[j + 1] * x[j + 1];
    }
    if (j < k) {
      s00 += r0[j] * x[j];
      s10 += r1[j] * x[j];
    }
    y[i] = s00 + s01;
    y[i + 1] = s10 + s11;
  }
  if (i < m) y[i] = dot_of(a + i * k, x, k);
}

// The same product from a data matrix's transposed copy (in[2], [k, m]): y is built column
// by column, four at a time, streaming along contiguous columns with no reduction chains
// (about 2.4x faster than row dot products at 5000 x 24 on SSE2). Each y[i] still adds
// its terms in column order.
void matrix_vector_forward_by_columns(const Instruction& op, Sweep& s) {
  const double* at = s.values + op.in[2];
  const double* x = s.values + op.in[1];
  double* __restrict y = s.values + op.out;
  const int64_t m = op.dims[0];
  const int64_t k = op.dims[1];
  for (int64_t i = 0; i < m; ++i) y[i] = 0;
  int64_t j = 0;
  for (; j + 4 <= k; j += 4) {
    const double* c0 = at + j * m;
    const double* c1 = c0 + m;
    const double* c2 = c1 + m;
    const double* c3 = c2 + m;
    const double x0 = x[j], x1 = x[j + 1], x2 = x[j + 2], x3 = x[j + 3];
    for (int64_t i = 0; i < m; ++i) {
      y[i] = (((y[i] + c0[i] * x0) + c1[i] * x1) + c2[i] * x2) + c3[i] * x3;
    }
  }
  for (; j < k; ++j) {
    const double* c = at + j * m;
    const double xj = x[j];
    for (int64_t i = 0; i < m; ++i) y[i] += c[i] * xj;
  }
}

// x's adjoint: A^T g, as the rows of A weighted by g (contiguous, vectorized along the row).
void add_transposed_product(const double* a, const double* g, int64_t m, int64_t k,
                            double* __restrict ax) {
  for (int64_t i = 0; i < m; ++i) {
    const double* r = a + i * k;
    const double gi = g[i];
    for (int64_t j = 0; j < k; ++j) ax[j] += r[j] * gi;
  }
}

// A's adjoint: the outer product g x^T.
void add_outer_product(const double* g, const double* x, int64_t m, int64_t k,
                       double* __restrict aa) {
  for (int64_t i = 0; i < m; ++i) {
    const double gi = g[i];
    double* row = aa + i * k;
    for (int64_t j = 0; j < k; ++j) row[j] += gi * x[j];
  }
}

template <bool VA, bool VX>
void matrix_vector_backward(const Instruction& op, Sweep& s) {
  const double* g = s.adjoints + op.out;
  const int64_t m = op.dims[0];
  const int64_t k = op.dims[1];
  if constexpr (VA) add_outer_product(g, s.values + op.in[1], m, k, s.adjoints + op.in[0]);
  if constexpr (VX) add_transposed_product(s.values + op.in[0], g, m, k, s.adjoints + op.in[1]);
}

// dims = {k, n}: y[n] = v[k] B[k, n], the rows of B weighted by v.
void vector_matrix_forward(const Instruction& op, Sweep& s) {
  const double* v = s.values + op.in[0];
  const double* b = s.values + op.in[1];
  double* __restrict y = s.values + op.out;
  const int64_t k = op.dims[0];
  const int64_t n = op.dims[1];
  for (int64_t j = 0; j < n; ++j) y[j] = 0;
  for (int64_t i = 0; i < k; ++i) {
    const double vi = v[i];
    const double* row = b + i * n;
    for (int64_t j = 0; j < n; ++j) y[j] += vi * row[j];
  }
}

template <bool VV, bool VB>
void vector_matrix_backward(const Instruction& op, Sweep& s) {
  const double* v = s.values + op.in[0];
  const double* b = s.values + op.in[1];
  const double* g = s.adjoints + op.out;
  const int64_t k = op.dims[0];
  const int64_t n = op.dims[1];
  // v's adjoint is B g; B's is the outer product v g^T.
  if constexpr (VV) {
    double* av = s.adjoints + op.in[0];
    for (int64_t i = 0; i < k; ++i) av[i] += dot_of(b + i * n, g, n);
  }
  if constexpr (VB) add_outer_product(v, g, k, n, s.adjoints + op.in[1]);
}

// dims = {m, k, n}: Y[m, n] = A[m, k] B[k, n], row i of Y the rows of B weighted by row i
// of A.
void matrix_matrix_forward(const Instruction& op, Sweep& s) {
  const double* a = s.values + op.in[0];
  const double* b = s.values + op.in[1];
  double* __restrict y = s.values + op.out;
  const int64_t m = op.dims[0];
  const int64_t k = op.dims[1];
  const int64_t n = op.dims[2];
  for (int64_t i = 0; i < m; ++i) {
    double* __restrict row = y + i * n;
    for (int64_t j = 0; j < n; ++j) row[j] = 0;
    for (int64_t l = 0; l < k; ++l) {
      const double ail = a[i * k + l];
      const double* b_row = b + l * n;
      for (int64_t j = 0; j < n; ++j) row[j] += ail * b_row[j];
    }
  }
}

template <bool VA, bool VB>
void matrix_matrix_backward(const Instruction& op, Sweep& s) {
  const double* a = s.values + op.in[0];
  const double* b = s.values + op.in[1];
  const double* g = s.adjoints + op.out;
  // A and B may be one slot (A @ A): the two adds below only read values and g.
  double* aa = s.adjoints + op.in[0];
  double* ab = s.adjoints + op.in[1];
  const int64_t m = op.dims[0];
  const int64_t k = op.dims[1];
  const int64_t n = op.dims[2];
  for (int64_t i = 0; i < m; ++i) {
    const double* g_row = g + i * n;
    for (int64_t l = 0; l < k; ++l) {
      // A's adjoint is G B^T, B's is A^T G.
      if constexpr (VA) aa[i * k + l] += dot_of(g_row, b + l * n, n);
      if constexpr (VB) {
        const double ail = a[i * k + l];
        double* b_row = ab + l * n;
        for (int64_t j = 0; j < n; ++j) b_row[j] += ail * g_row[j];
      }
    }
  }
}

// dims = {k}: the dot product.
void vector_vector_forward(const Instruction& op, Sweep& s) {
  s.values[op.out] = dot_of(s.values + op.in[0], s.values + op.in[1], op.dims[0]);
}

template <bool VA, bool VB>
void vector_vector_backward(const Instruction& op, Sweep& s) {
  const double* a = s.values + op.in[0];
  const double* b = s.values + op.in[1];
  const double g = s.adjoints[op.out];
  // a and b may be one slot (x @ x): both adds, one after the other.
  double* aa = s.adjoints + op.in[0];
  double* ab = s.adjoints + op.in[1];
  for (int64_t i = 0; i < op.dims[0]; ++i) {
    if constexpr (VA) aa[i] += g * b[i];
    if constexpr (VB) ab[i] += g * a[i];
  }
}

// The backward kernel for the operands that vary (none: no backward).
template <Kernel TT, Kernel TF, Kernel FT>
Kernel pick(bool va, bool vb) {
  if (va && vb) return TT;
  if (va) return TF;
  if (vb) return FT;
  return nullptr;
}

Kernel matrix_vector_backward_for(bool va, bool vb) {
  return pick<matrix_vector_backward<true, true>, matrix_vector_backward<true, false>,
              matrix_vector_backward<false, true>>(va, vb);
}
Kernel vector_matrix_backward_for(bool va, bool vb) {
  return pick<vector_matrix_backward<true, true>, vector_matrix_backward<true, false>,
              vector_matrix_backward<false, true>>(va, vb);
}
Kernel matrix_matrix_backward_for(bool va, bool vb) {
  return pick<matrix_matrix_backward<true, true>, matrix_matrix_backward<true, false>,
              matrix_matrix_backward<false, true>>(va, vb);
}
Kernel vector_vector_backward_for(bool va, bool vb) {
  return pick<vector_vector_backward<true, true>, vector_vector_backward<true, false>,
              vector_vector_backward<false, true>>(va, vb);
}

// The [n, m] transpose of a row-major [m, n] matrix.
std::vector<double> transposed(const std::vector<double>& a, int64_t m, int64_t n) {
  std::vector<double> t(a.size());
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      t[static_cast<size_t>(j * m + i)] = a[static_cast<size_t>(i * n + j)];
    }
  }
  return t;
}

}  // namespace

Slot emit_matmul(ProgramBuilder& builder, const Slot& a, const Slot& b) {
  const size_t ra = a.shape.size();
  const size_t rb = b.shape.size();
  if (ra < 1 || ra > 2 || rb < 1 || rb > 2 || a.shape.back() != b.shape.front()) {
    throw Unsupported("the tape has no kernel for " + to_string(a.shape) + " @ " +
                      to_string(b.shape));
  }
  Instruction op;
  op.in[0] = a.offset;
  op.in[1] = b.offset;
  op.varying[0] = a.varying;
  op.varying[1] = b.varying;
  Shape shape;
  if (ra == 2 && rb == 1) {
    shape = {a.shape[0]};
    op.name = "matrix_vector";
    op.dims = {a.shape[0], a.shape[1], 0, 0};
    op.forward = matrix_vector_forward;
    op.backward = matrix_vector_backward_for(a.varying, b.varying);
    if (!a.varying) {
      // Data X @ parameters: the forward reads a transposed copy, the backward X itself.
      const std::vector<double> x = builder.constant_values(a);
      op.in[2] =
          builder.constant({a.shape[1], a.shape[0]}, transposed(x, a.shape[0], a.shape[1])).offset;
      op.forward = matrix_vector_forward_by_columns;
    }
  } else if (ra == 1 && rb == 2) {
    shape = {b.shape[1]};
    op.name = "vector_matrix";
    op.dims = {b.shape[0], b.shape[1], 0, 0};
    op.forward = vector_matrix_forward;
    op.backward = vector_matrix_backward_for(a.varying, b.varying);
  } else if (ra == 2 && rb == 2) {
    shape = {a.shape[0], b.shape[1]};
    op.name = "matrix_matrix";
    op.dims = {a.shape[0], a.shape[1], b.shape[1], 0};
    op.forward = matrix_matrix_forward;
    op.backward = matrix_matrix_backward_for(a.varying, b.varying);
  } else {
    op.name = "dot";
    op.dims = {a.shape[0], 0, 0, 0};
    op.forward = vector_vector_forward;
    op.backward = vector_vector_backward_for(a.varying, b.varying);
  }
  const Slot out = builder.varying(shape);
  op.out = out.offset;
  op.n = out.size;
  builder.append(op);
  return out;
}

}  // namespace variate::tape
