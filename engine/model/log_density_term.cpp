#include "engine/model/log_density_term.h"

#include <vector>

#include <ATen/ATen.h>

#include "engine/core/tracing.h"

namespace variate::model {

LogDensityTerm::LogDensityTerm(at::Tensor term) : term_(std::move(term)) {}

at::Tensor LogDensityTerm::log_prob(const at::Tensor&) const { return term_; }

at::Tensor LogDensityTerm::sample(const Shape& sample_shape, at::Generator) const {
  return at::zeros(sample_shape, term_.options());
}

RandomVariable add_to_target(const std::string& name, const at::Tensor& term) {
  at::Tensor total = term.to(at::kDouble);
  if (total.dim() > 0) {  // the dimensions one by one, as the model text's terms are summed
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < total.dim(); ++d) dims.push_back(d);
    total = total.sum(dims);
  }
  return make_random_variable(
      {name, std::make_shared<LogDensityTerm>(total), {}, at::zeros({}, at::kDouble), std::nullopt});
}

}  // namespace variate::model
