#pragma once
/// The `tape` tracer: records the random variables a model creates, in program order.

#include <string>
#include <unordered_map>
#include <vector>

#include "variate/core/tracing.h"

namespace variate {

///   Tape tape;
///   { TracerScope scope(tape); model(); }
///   for (const auto& rv : tape.variables()) ...
class Tape : public Tracer {
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
