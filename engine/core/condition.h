#pragma once
/// The `condition` tracer: gives random variables fixed values by name.

#include <map>
#include <string>

#include <ATen/core/Tensor.h>

#include "engine/core/tracing.h"

namespace variate {

/// Sets the value of every variable whose name it knows; the rest pass unchanged.
///
///   Condition observed({{"y", y}});
///   TracerScope scope(observed);
///   model();   // y now holds the observed value
class Condition : public Tracer {
 public:
  explicit Condition(std::map<std::string, at::Tensor> values);
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

 private:
  std::map<std::string, at::Tensor> values_;
};

}  // namespace variate
