#include "variate/core/tape.h"

#include "variate/core/checks.h"

namespace variate {

RandomVariable Tape::trace(RandomVariableSpec spec, const NextTracer& next) {
  if (contains(spec.name)) {
    throw ArgumentError("model creates two random variables named '" + spec.name + "'");
  }
  RandomVariable rv = next(std::move(spec));
  variables_.push_back(rv);
  return rv;
}

bool Tape::contains(const std::string& name) const {
  for (const auto& rv : variables_) {
    if (rv.name() == name) return true;
  }
  return false;
}

const RandomVariable& Tape::operator[](const std::string& name) const {
  for (const auto& rv : variables_) {
    if (rv.name() == name) return rv;
  }
  throw ArgumentError("the tape has no random variable named '" + name + "'");
}

}  // namespace variate
