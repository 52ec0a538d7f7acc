#include "engine/core/trace.h"

#include "engine/core/checks.h"

namespace variate {

RandomVariable Trace::trace(RandomVariableSpec spec, const NextTracer& next) {
  if (contains(spec.name)) {
    throw ArgumentError("model creates two random variables named '" + spec.name + "'");
  }
  RandomVariable rv = next(std::move(spec));
  positions_.emplace(rv.name(), variables_.size());
  variables_.push_back(rv);
  return rv;
}

bool Trace::contains(const std::string& name) const { return positions_.count(name) > 0; }

const RandomVariable& Trace::operator[](const std::string& name) const {
  if (const auto found = positions_.find(name); found != positions_.end()) return variables_[found->second];
  throw ArgumentError("the trace has no random variable named '" + name + "'");
}

}  // namespace variate
