#include "variate/vi/variational_meanfield.h"

#include <ATen/ATen.h>

#include "variate/core/checks.h"
#include "variate/distributions/normal.h"

namespace variate {

at::Tensor initial_mean(const char* family, const ParameterLayout& layout,
                        const std::optional<at::Tensor>& mean) {
  const int64_t d = layout.dimension();
  if (!mean) return at::zeros({d}, at::kDouble);
  if (mean->dim() != 1 || mean->size(0) != d) {
    throw ArgumentError(std::string(family) + ": argument 'mean' must have shape [" +
                        std::to_string(d) + "], got " + to_string(mean->sizes()));
  }
  return mean->detach().to(at::kDouble).clone();
}

MeanFieldGaussian::MeanFieldGaussian(ParameterLayout layout, std::optional<at::Tensor> mean)
    : layout_(std::move(layout)) {
  mu_ = initial_mean("MeanFieldGaussian", layout_, mean).requires_grad_(true);
  omega_ = at::zeros({layout_.dimension()}, at::kDouble).requires_grad_(true);
}

void MeanFieldGaussian::program() const {
  const at::Tensor sigma = at::exp(omega_);
  for (const auto& p : layout_.parameters()) {
    Normal(p.name, mu_.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape),
           sigma.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape));
  }
}

std::vector<at::Tensor> MeanFieldGaussian::step_scales() const {
  return {scale(), at::ones({}, at::kDouble)};
}

at::Tensor MeanFieldGaussian::scale() const { return at::exp(omega_.detach()); }

}  // namespace variate
