// Compiled with OpenMP (engine/CMakeLists.txt): LibTorch's at::parallel_for is inline and
// runs in parallel only in translation units built with it; `omp simd` lets the compiler
// vectorize the sums without -ffast-math.
#include "engine/kernels/glm_kernel.h"

#include <algorithm>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include "engine/core/checks.h"
#include "engine/kernels/vector_math.h"

namespace variate::kernels {
namespace {

// One clone per instruction set; the loader picks the best the CPU has (GCC's ifunc).
// Not in a ThreadSanitizer build: the loader runs the instrumented resolver while it
// relocates the library, before TSan's runtime is set up, and the program dies there.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define VARIATE_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define VARIATE_VECTOR_CLONES
#endif

// Columns of X per sweep of the linear predictor: eta is loaded and stored once per four.
constexpr int64_t kColumnsPerSweep = 4;
// The slice of X a chunk reads twice (eta, then X^T r) should stay in the L2 cache.
constexpr int64_t kChunkBytes = 256 * 1024;

template <class T>
struct Slices {
  const T* x;  // X column-major: column k of rows [n0, n0 + rows) at x + k * N + n0
  int64_t N;
  int64_t K;
  const T* y;
  const T* trials;
};

// eta = alpha + X beta over the chunk's rows.
template <class T>
VARIATE_VECTOR_CLONES void linear_predictor(const Slices<T>& s, int64_t n0, int64_t rows,
                                            double alpha, const double* beta, T* eta) {
  const T a = static_cast<T>(alpha);
#pragma omp simd
  for (int64_t i = 0; i < rows; ++i) eta[i] = a;
  int64_t k = 0;
  for (; k + kColumnsPerSweep <= s.K; k += kColumnsPerSweep) {
    const T* x0 = s.x + k * s.N + n0;
    const T* x1 = x0 + s.N;
    const T* x2 = x1 + s.N;
    const T* x3 = x2 + s.N;
    const T b0 = static_cast<T>(beta[k]), b1 = static_cast<T>(beta[k + 1]);
    const T b2 = static_cast<T>(beta[k + 2]), b3 = static_cast<T>(beta[k + 3]);
#pragma omp simd
    for (int64_t i = 0; i < rows; ++i) eta[i] += b0 * x0[i] + b1 * x1[i] + b2 * x2[i] + b3 * x3[i];
  }
  for (; k < s.K; ++k) {
    const T* x0 = s.x + k * s.N + n0;
    const T b0 = static_cast<T>(beta[k]);
#pragma omp simd
    for (int64_t i = 0; i < rows; ++i) eta[i] += b0 * x0[i];
  }
}

// The family's terms: returns sum f, adds sum r to *residual, leaves r in eta's place.
template <class T, GlmFamily F>
VARIATE_VECTOR_CLONES double family_terms(const Slices<T>& s, int64_t n0, int64_t rows, T* eta,
                                          double* residual) {
  const T* y = s.y + n0;
  const T* trials = s.trials ? s.trials + n0 : nullptr;
  double value = 0;
  double r_sum = 0;
#pragma omp simd reduction(+ : value, r_sum)
  for (int64_t i = 0; i < rows; ++i) {
    const T e = eta[i];
    T f;
    T r;
    if constexpr (F == GlmFamily::normal) {
      r = y[i] - e;
      f = r * r;
    } else if constexpr (F == GlmFamily::poisson_log) {
      const T rate = vexp(e);
      f = y[i] * e - rate;
      r = y[i] - rate;
    } else {
      // softplus(e) = max(e, 0) + log1p(e^-|e|) and sigmoid(e) from the same exponential.
      const T t = vexp(-std::abs(e));
      const T softplus = (e > T(0) ? e : T(0)) + vlog1p_unit(t);
      const T inverse = T(1) / (T(1) + t);
      const T sigmoid = e >= T(0) ? inverse : t * inverse;
      if constexpr (F == GlmFamily::bernoulli_logit) {
        f = y[i] * e - softplus;
        r = y[i] - sigmoid;
      } else {
        f = y[i] * e - trials[i] * softplus;
        r = y[i] - trials[i] * sigmoid;
      }
    }
    value += static_cast<double>(f);
    r_sum += static_cast<double>(r);
    eta[i] = r;
  }
  *residual += r_sum;
  return value;
}

// out[k] += sum_i X[n0 + i, k] r[i] (partial sums in T over one chunk).
template <class T>
VARIATE_VECTOR_CLONES void transposed_product(const Slices<T>& s, int64_t n0, int64_t rows,
                                              const T* r, double* out) {
  int64_t k = 0;
  for (; k + kColumnsPerSweep <= s.K; k += kColumnsPerSweep) {
    const T* x0 = s.x + k * s.N + n0;
    const T* x1 = x0 + s.N;
    const T* x2 = x1 + s.N;
    const T* x3 = x2 + s.N;
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
    for (int64_t i = 0; i < rows; ++i) {
      s0 += x0[i] * r[i];
      s1 += x1[i] * r[i];
      s2 += x2[i] * r[i];
      s3 += x3[i] * r[i];
    }
    out[k] += s0;
    out[k + 1] += s1;
    out[k + 2] += s2;
    out[k + 3] += s3;
  }
  for (; k < s.K; ++k) {
    const T* x0 = s.x + k * s.N + n0;
    T s0 = 0;
#pragma omp simd reduction(+ : s0)
    for (int64_t i = 0; i < rows; ++i) s0 += x0[i] * r[i];
    out[k] += s0;
  }
}

template <class T, GlmFamily F>
void sums(const Slices<T>& s, const GlmPoints& points, bool gradient, double* result) {
  const int64_t B = points.count;
  const int64_t rows_per_chunk =
      std::max<int64_t>(64, kChunkBytes / (std::max<int64_t>(s.K, 1) * static_cast<int64_t>(sizeof(T))) / 64 * 64);
  const int64_t chunks = (s.N + rows_per_chunk - 1) / rows_per_chunk;
  // Per chunk and point: value, residual, then K entries of X^T r.
  const int64_t stride = 2 + s.K;
  std::vector<double> partial(static_cast<size_t>(chunks * B * stride), 0.0);
  at::parallel_for(0, chunks, 1, [&](int64_t first, int64_t last) {
    // A chunk is at most the data: a 256 KB buffer zeroed for 62 rows cost more than the sums.
    std::vector<T> buffer(static_cast<size_t>(std::min(rows_per_chunk, s.N)));
    for (int64_t c = first; c < last; ++c) {
      const int64_t n0 = c * rows_per_chunk;
      const int64_t rows = std::min(rows_per_chunk, s.N - n0);
      for (int64_t b = 0; b < B; ++b) {
        double* out = partial.data() + (c * B + b) * stride;
        linear_predictor(s, n0, rows, points.alpha[b * points.alpha_stride],
                         points.beta + b * points.beta_stride, buffer.data());
        out[0] = family_terms<T, F>(s, n0, rows, buffer.data(), out + 1);
        if (gradient) transposed_product(s, n0, rows, buffer.data(), out + 2);
      }
    }
  });
  const int64_t used = gradient ? stride : 2;
  for (int64_t b = 0; b < B; ++b) {
    double* out = result + b * stride;
    std::fill(out, out + used, 0.0);
    for (int64_t c = 0; c < chunks; ++c) {
      const double* in = partial.data() + (c * B + b) * stride;
      for (int64_t j = 0; j < used; ++j) out[j] += in[j];
    }
  }
}

template <class T>
void dispatch_family(GlmFamily family, const Slices<T>& s, const GlmPoints& points, bool gradient,
                     double* result) {
  switch (family) {
    case GlmFamily::normal: return sums<T, GlmFamily::normal>(s, points, gradient, result);
    case GlmFamily::bernoulli_logit: return sums<T, GlmFamily::bernoulli_logit>(s, points, gradient, result);
    case GlmFamily::poisson_log: return sums<T, GlmFamily::poisson_log>(s, points, gradient, result);
    case GlmFamily::binomial_logit: return sums<T, GlmFamily::binomial_logit>(s, points, gradient, result);
  }
}

void require(bool condition, const std::string& what) {
  if (!condition) throw ArgumentError("glm_sums: " + what);
}

}  // namespace

const char* glm_family_name(GlmFamily family) {
  switch (family) {
    case GlmFamily::normal: return "Normal";
    case GlmFamily::bernoulli_logit: return "Bernoulli(logits)";
    case GlmFamily::poisson_log: return "Poisson(log_rate)";
    case GlmFamily::binomial_logit: return "Binomial(logits)";
  }
  return "";
}

void glm_sums(GlmFamily family, const at::Tensor& x_columns, const at::Tensor& y, const at::Tensor& trials,
              const GlmPoints& points, bool gradient, double* out) {
  const at::ScalarType dtype = x_columns.scalar_type();
  require(dtype == at::kDouble || dtype == at::kFloat, "X must be float64 or float32");
  require(x_columns.dim() == 2 && x_columns.is_contiguous(), "x_columns must be a contiguous [K, N] tensor");
  const int64_t K = x_columns.size(0);
  const int64_t N = x_columns.size(1);
  require(y.dim() == 1 && y.size(0) == N && y.is_contiguous() && y.scalar_type() == dtype,
          "y must be a contiguous [N] tensor of X's dtype");
  const bool binomial = family == GlmFamily::binomial_logit;
  require(!binomial || (trials.defined() && trials.dim() == 1 && trials.size(0) == N &&
                        trials.is_contiguous() && trials.scalar_type() == dtype),
          "the binomial needs contiguous trials [N] of X's dtype");
  require(points.count >= 1 && points.alpha && points.beta && points.alpha_stride >= 0 && points.beta_stride >= 0,
          "points need alpha, beta and non-negative strides");
  if (dtype == at::kDouble) {
    const Slices<double> s{x_columns.data_ptr<double>(), N, K, y.data_ptr<double>(),
                           binomial ? trials.data_ptr<double>() : nullptr};
    dispatch_family(family, s, points, gradient, out);
  } else {
    const Slices<float> s{x_columns.data_ptr<float>(), N, K, y.data_ptr<float>(),
                          binomial ? trials.data_ptr<float>() : nullptr};
    dispatch_family(family, s, points, gradient, out);
  }
}

}  // namespace variate::kernels
