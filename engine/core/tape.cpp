#include "variate/core/tape.h"

#include "variate/core/checks.h"

namespace variate {

RandomVariable Tape::trace(RandomVariableSpec spec, const NextTracer& next) {
  if (contains(spec.name)) {
    throw ArgumentError("model creates two random variables named '" + spec.name + "'");
  }
  RandomVariable rv = next(std::move(spec));
  positions_.emplace(rv.name(), variables_.size());
  variables_.push_back(rv);
  return rv;
}

bool Tape::contains(const std::string& name) const { return positions_.count(name) > 0; }

const RandomVariable& Tape::operator[](const std::string& name) const {
  if (const auto found = positions_.find(name); found != positions_.end()) return variables_[found->second];
  throw ArgumentError("the tape has no random variable named '" + name + "'");
}

}  // namespace variate
