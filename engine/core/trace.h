#pragma once
/// The trace: a tracer that records the random variables a model creates, in program order
/// (Edward2 calls it a tape; here "tape" names the static-tape backend, engine/tape).

#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/tracing.h"

namespace variate {

///   Trace trace;
///   { TracerScope scope(trace); model(); }
///   for (const auto& rv : trace.variables()) ...
class Trace : public Tracer {
 public:
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

  /// In the order the model created them.
  const std::vector<RandomVariable>& variables() const { return variables_; }
  bool contains(const std::string& name) const;
  /// @throws ArgumentError if the model created no variable of that name.
  const RandomVariable& operator[](const std::string& name) const;

 private:
  std::vector<RandomVariable> variables_;
  std::unordered_map<std::string, size_t> positions_;  // by name: a model of 10^5 variables traces in linear time
};

}  // namespace variate
