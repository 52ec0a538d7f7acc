#include "engine/vi/variational_meanfield.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/distributions/normal.h"

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

void normal_blocks(const ParameterLayout& layout, const at::Tensor& mean, const at::Tensor& scale) {
  for (const auto& p : layout.parameters()) {
    Normal(p.name, mean.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape),
           scale.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape));
  }
}

void MeanFieldGaussian::program() const { normal_blocks(layout_, mu_, at::exp(omega_)); }

std::vector<at::Tensor> MeanFieldGaussian::step_scales() const {
  return {scale(), at::ones({}, at::kDouble)};
}

at::Tensor MeanFieldGaussian::scale() const { return at::exp(omega_.detach()); }

}  // namespace variate
