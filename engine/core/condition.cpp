#include "engine/core/condition.h"

namespace variate {

Condition::Condition(std::map<std::string, at::Tensor> values) : values_(std::move(values)) {}

RandomVariable Condition::trace(RandomVariableSpec spec, const NextTracer& next) {
  const auto it = values_.find(spec.name);
  if (it != values_.end()) spec.value = it->second;
  return next(std::move(spec));
}

}  // namespace variate
