#include "engine/model/invalid_argument.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/checks.h"
#include "engine/model/diagnostic.h"

namespace variate::model {

std::optional<ModelError> find_invalid_argument(const CompiledModel& model, const at::Tensor& unconstrained) {
  ValidationGuard validation(true);
  at::NoGradGuard no_grad;
  try {
    const ConstrainedPoint point = model.layout().constrain(unconstrained);
    model.log_joint()(point.values);
  } catch (const ModelError& e) {
    return e;
  } catch (const ArgumentError&) {
    return std::nullopt;  // not an argument's domain: the caller's message stands
  }
  return std::nullopt;
}

std::optional<ModelError> find_invalid_argument(const CompiledModel& model) {
  const int64_t d = model.layout().dimension();
  const auto options = at::TensorOptions().dtype(at::kDouble);
  if (auto found = find_invalid_argument(model, at::zeros({d}, options))) return found;
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261202);
  for (int attempt = 0; attempt < 10; ++attempt) {
    const at::Tensor point = at::rand({d}, generator, options) * 4 - 2;
    if (auto found = find_invalid_argument(model, point)) return found;
  }
  return std::nullopt;
}

std::string report_invalid_argument(const CompiledModel& model, const Source& source) {
  const auto invalid = find_invalid_argument(model);
  return invalid ? format(source, {Severity::error, invalid->span(), invalid->what()}) : std::string();
}

}  // namespace variate::model
