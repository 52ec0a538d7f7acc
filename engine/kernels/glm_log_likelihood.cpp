#include "engine/kernels/glm_log_likelihood.h"

#include <cmath>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/custom_function.h>

#include "engine/core/checks.h"
#include "engine/core/shape.h"

namespace variate::kernels {
namespace {

constexpr double kHalfLog2Pi = 0.91893853320467274178;

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Column `column` (width `width`) of the [B, 2 + K] derivatives scaled by the incoming
// gradient g [B] (or [1]), summed over the points unless the input was batched, in the
// input's shape and dtype.
at::Tensor input_gradient(const at::Tensor& derivatives, const double* g, int64_t g_stride, int64_t column,
                          int64_t width, const std::vector<int64_t>& shape, bool batched_input,
                          at::ScalarType dtype) {
  const int64_t B = derivatives.size(0);
  const int64_t stride = derivatives.size(1);
  const double* d = derivatives.data_ptr<double>();
  at::Tensor result = at::zeros({batched_input ? B : 1, width}, at::TensorOptions().dtype(at::kDouble));
  double* out = result.data_ptr<double>();
  for (int64_t b = 0; b < B; ++b) {
    double* row = out + (batched_input ? b * width : 0);
    for (int64_t k = 0; k < width; ++k) row[k] += g[b * g_stride] * d[b * stride + column + k];
  }
  return result.reshape(shape).to(dtype);
}

// Derivatives are computed with the value and saved; backward only scales them. The
// arithmetic on the per-point sums is plain C++: for small data sets the cost of a gradient
// is LibTorch's per-operation overhead, not the pass over the data.
struct GlmFunction : public torch::autograd::Function<GlmFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& alpha, const at::Tensor& beta,
                            const at::Tensor& sigma, const GlmData* data, int64_t B, bool batched,
                            bool gradient) {
    const int64_t K = data->columns();
    const auto n = static_cast<double>(data->rows());
    const at::Tensor a = alpha.to(at::kDouble).contiguous();  // [] or [B]
    const at::Tensor b = beta.to(at::kDouble).contiguous();   // [K] or [B, K]
    const at::Tensor s = sigma.to(at::kDouble).contiguous();  // [] or [B]
    const GlmPoints points{a.data_ptr<double>(), a.dim() == 1 ? 1 : 0, b.data_ptr<double>(),
                           b.dim() == 2 ? K : 0, B};
    const auto f64 = at::TensorOptions().dtype(at::kDouble);
    const int64_t stride = 2 + K;
    std::vector<double> sums(static_cast<size_t>(B * stride));
    glm_sums(data->family, data->x_columns, data->y, data->trials, points, gradient, sums.data());
    // Per point: the log likelihood, and its derivatives in alpha, sigma and beta.
    at::Tensor lp = at::empty({B}, f64);
    at::Tensor derivatives = gradient ? at::empty({B, stride}, f64) : at::Tensor();
    const double* sigma_values = s.data_ptr<double>();
    const int64_t sigma_stride = s.dim() == 1 ? 1 : 0;
    for (int64_t i = 0; i < B; ++i) {
      const double* in = sums.data() + i * stride;
      double scale = 1;  // of the residual sums: 1 / sigma^2 for the Normal
      double d_sigma = 0;
      if (data->family == GlmFamily::normal) {
        // -S / (2 sigma^2) - N log sigma - N/2 log 2 pi, S the residual sum of squares.
        const double sd = sigma_values[i * sigma_stride];
        scale = 1 / (sd * sd);
        lp.data_ptr<double>()[i] = -0.5 * in[0] * scale - n * std::log(sd) + data->constant;
        d_sigma = (in[0] * scale - n) / sd;
      } else {
        lp.data_ptr<double>()[i] = in[0] + data->constant;
      }
      if (!gradient) continue;
      double* out = derivatives.data_ptr<double>() + i * stride;
      out[0] = in[1] * scale;
      out[1] = d_sigma;
      for (int64_t k = 0; k < K; ++k) out[2 + k] = in[2 + k] * scale;
    }
    if (gradient) {
      ctx->saved_data["derivatives"] = derivatives;
      ctx->saved_data["alpha_shape"] = alpha.sizes().vec();
      ctx->saved_data["beta_shape"] = beta.sizes().vec();
      ctx->saved_data["sigma_shape"] = sigma.sizes().vec();
      ctx->saved_data["batched"] = std::vector<bool>{batched && alpha.dim() == 1, batched && beta.dim() == 2,
                                                     batched && sigma.dim() == 1};
      ctx->saved_data["dtypes"] = std::vector<int64_t>{static_cast<int64_t>(alpha.scalar_type()),
                                                       static_cast<int64_t>(beta.scalar_type()),
                                                       static_cast<int64_t>(sigma.scalar_type())};
    }
    return batched ? lp : lp.reshape({});
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto& saved = ctx->saved_data;
    const at::Tensor derivatives = saved["derivatives"].toTensor();  // [B, 2 + K]: alpha, sigma, beta
    const at::Tensor g = grad_outputs[0].to(at::kDouble).contiguous();  // [] or [B]
    const int64_t g_stride = g.dim() == 1 ? 1 : 0;
    const c10::List<bool> batched = saved["batched"].toBoolList();
    const std::vector<int64_t> dtypes = saved["dtypes"].toIntVector();
    const auto dtype = [&](size_t i) { return static_cast<at::ScalarType>(dtypes[i]); };
    const int64_t K = derivatives.size(1) - 2;
    const double* gp = g.data_ptr<double>();
    variable_list result(7);
    result[0] = input_gradient(derivatives, gp, g_stride, 0, 1, saved["alpha_shape"].toIntVector(), batched[0], dtype(0));
    result[1] = input_gradient(derivatives, gp, g_stride, 2, K, saved["beta_shape"].toIntVector(), batched[1], dtype(1));
    result[2] = input_gradient(derivatives, gp, g_stride, 1, 1, saved["sigma_shape"].toIntVector(), batched[2], dtype(2));
    return result;
  }
};

void require(bool condition, const std::string& message) {
  if (!condition) throw ArgumentError("glm_log_likelihood: " + message);
}

}  // namespace

GlmData GlmData::make(GlmFamily family, const at::Tensor& X, const at::Tensor& y,
                      const at::Tensor& trials) {
  if (X.dim() != 2 || !at::isFloatingType(X.scalar_type())) {
    throw ArgumentError("GlmData: argument 'X' must be a floating [N, K] matrix, got shape " +
                        to_string(X.sizes()));
  }
  const at::ScalarType dtype = X.scalar_type();
  if (dtype != at::kDouble && dtype != at::kFloat) {
    throw ArgumentError("GlmData: argument 'X' must be float64 or float32");
  }
  const int64_t N = X.size(0);
  if (y.dim() != 1 || y.size(0) != N) {
    throw ArgumentError("GlmData: argument 'y' must have shape [" + std::to_string(N) +
                        "] (the rows of X), got " + to_string(y.sizes()));
  }
  const bool binomial = family == GlmFamily::binomial_logit;
  if (binomial != trials.defined()) {
    throw ArgumentError(binomial ? "GlmData: the binomial needs argument 'trials'"
                                 : "GlmData: argument 'trials' is for the binomial only");
  }
  GlmData data;
  data.family = family;
  data.x_columns = X.t().contiguous();  // no copy when X is stored column-major
  data.outcome = y;
  data.y = y.to(dtype).contiguous();
  const at::Tensor y64 = y.to(at::kDouble);
  switch (family) {
    case GlmFamily::normal:
      data.constant = -kHalfLog2Pi * static_cast<double>(N);
      break;
    case GlmFamily::bernoulli_logit:
      break;
    case GlmFamily::poisson_log:
      data.constant = -at::lgamma(y64 + 1).sum().item<double>();
      break;
    case GlmFamily::binomial_logit: {
      if (trials.dim() > 1 || (trials.dim() == 1 && trials.size(0) != N)) {
        throw ArgumentError("GlmData: argument 'trials' must be a scalar or have shape [" +
                            std::to_string(N) + "], got " + to_string(trials.sizes()));
      }
      const at::Tensor n64 = trials.to(at::kDouble).expand({N});
      data.trials = n64.to(dtype).contiguous();
      data.constant =
          (at::lgamma(n64 + 1) - at::lgamma(y64 + 1) - at::lgamma(n64 - y64 + 1)).sum().item<double>();
      break;
    }
  }
  return data;
}

GlmData GlmData::with_outcome(const at::Tensor& y) const {
  return make(family, x_columns.t(), y, trials);
}

at::Tensor glm_log_likelihood(const std::shared_ptr<const GlmData>& data, const at::Tensor& alpha,
                              const at::Tensor& beta, const at::Tensor& sigma) {
  require(data != nullptr, "argument 'data' is null");
  const int64_t K = data->columns();
  const bool normal = data->family == GlmFamily::normal;
  require(normal == sigma.defined(), normal ? "the Normal needs argument 'sigma'"
                                            : "argument 'sigma' is for the Normal only");
  require((beta.dim() == 1 || beta.dim() == 2) && beta.size(-1) == K,
          "argument 'beta' must have shape [" + std::to_string(K) + "] or [B, " + std::to_string(K) +
              "], got " + to_string(beta.sizes()));
  require(!alpha.defined() || alpha.dim() <= 1, "argument 'alpha' must be a scalar or [B], got " +
                                                    to_string(alpha.sizes()));
  require(!sigma.defined() || sigma.dim() <= 1, "argument 'sigma' must be a scalar or [B], got " +
                                                    to_string(sigma.sizes()));
  // The batch size: every batched input must agree on it.
  int64_t B = 1;
  bool batched = false;
  for (const at::Tensor* t : {&alpha, &beta, &sigma}) {
    const int64_t batch_dim = t == &beta ? 2 : 1;
    if (!t->defined() || t->dim() != batch_dim) continue;
    require(!batched || t->size(0) == B, "batched arguments disagree on the batch size");
    B = t->size(0);
    batched = true;
  }
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  const at::Tensor a = alpha.defined() ? alpha : at::zeros({}, f64);
  const at::Tensor s = sigma.defined() ? sigma : at::ones({}, f64);
  const bool gradient = at::GradMode::is_enabled() &&
                        (a.requires_grad() || beta.requires_grad() || s.requires_grad());
  return GlmFunction::apply(a, beta, s, data.get(), B, batched, gradient);
}

}  // namespace variate::kernels
