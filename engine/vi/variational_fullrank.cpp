#include "engine/vi/variational_fullrank.h"

#include <ATen/ATen.h>

#include "engine/core/memory.h"
#include "engine/distributions/multi_normal.h"
#include "engine/distributions/normal.h"
#include "engine/vi/variational_meanfield.h"

namespace variate {

FullRankGaussian::FullRankGaussian(ParameterLayout layout, std::optional<at::Tensor> mean)
    : layout_(std::move(layout)) {
  const int64_t d = layout_.dimension();
  // The factor, its gradient and Adam's two moments.
  check_memory(4 * 8 * static_cast<double>(d) * static_cast<double>(d),
               "full-rank ADVI of " + std::to_string(d) + " parameters (a d x d scale factor)",
               "use the mean-field family");
  mu_ = initial_mean("FullRankGaussian", layout_, mean).requires_grad_(true);
  lower_ = at::zeros({d, d}, at::kDouble).requires_grad_(true);
  omega_ = at::zeros({d}, at::kDouble).requires_grad_(true);
}

at::Tensor FullRankGaussian::scale_tril() const {
  return at::tril(lower_, -1) + at::diag_embed(at::exp(omega_));
}

at::Tensor FullRankGaussian::covariance() const {
  const at::Tensor l = scale_tril().detach();
  return at::matmul(l, l.t());
}

std::vector<at::Tensor> FullRankGaussian::step_scales() const {
  const at::Tensor sd = covariance().diagonal().sqrt();
  return {sd, sd.unsqueeze(1), at::ones({}, at::kDouble)};
}

void FullRankGaussian::program() const { multi_normal_blocks(layout_, mu_, scale_tril()); }

void multi_normal_blocks(const ParameterLayout& layout, const at::Tensor& mean, const at::Tensor& l) {
  at::Tensor noise = at::zeros({0}, at::kDouble);  // eps of the blocks drawn so far
  for (const auto& p : layout.parameters()) {
    const int64_t offset = p.offset, n = p.size;
    const at::Tensor rows = l.narrow(0, offset, n);
    at::Tensor loc = mean.narrow(0, offset, n);
    if (offset > 0) loc = loc + at::matmul(rows.narrow(1, 0, offset), noise);
    const at::Tensor block = rows.narrow(1, offset, n);
    at::Tensor value;
    if (p.unconstrained_shape.empty() || n == 0) {  // a scalar (or nothing): a Normal
      value = Normal(p.name, loc.reshape(p.unconstrained_shape),
                     block.diagonal().reshape(p.unconstrained_shape)).value();
    } else {
      value = MultiNormal(p.name, loc, variate::scale_tril(block)).value();
    }
    // Read the noise back from the value rather than keeping the sampler's: the value may
    // come from a tracer (a conditioned program scores given points the same way).
    const at::Tensor eps =
        at::linalg_solve_triangular(block, (value.reshape({n}) - loc).unsqueeze(-1), false)
            .squeeze(-1);
    noise = at::cat({noise, eps});
  }
}

}  // namespace variate
