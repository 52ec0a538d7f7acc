#pragma once
/// Deterministic quantities of a model: values computed from its random variables that a
/// run records with the draws (PyMC's `Deterministic`, Stan's generated quantities).
///
///   auto theta = vt::deterministic("theta", theta_trans * tau + mu);
///
/// Outside a DeterministicRecorder's scope `deterministic` only returns the value, so a
/// model pays nothing for naming its quantities while it is scored.

#include <string>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>

namespace variate {

/// Returns `value`; an active DeterministicRecorder (on this thread) records it under
/// `name`.
at::Tensor deterministic(const std::string& name, at::Tensor value);

/// Records the deterministic quantities a model computes while it is in scope, in program
/// order (as TracerScope pushes a tracer; recorders nest, the innermost records).
///
///   DeterministicRecorder recorder;
///   { Condition values(point); TracerScope scope(values); model(); }  // recorder in scope
///   for (const auto& [name, value] : recorder.values()) ...
class DeterministicRecorder {
 public:
  DeterministicRecorder();
  ~DeterministicRecorder();
  DeterministicRecorder(const DeterministicRecorder&) = delete;
  DeterministicRecorder& operator=(const DeterministicRecorder&) = delete;

  const std::vector<std::pair<std::string, at::Tensor>>& values() const { return values_; }

 private:
  friend at::Tensor deterministic(const std::string& name, at::Tensor value);
  std::vector<std::pair<std::string, at::Tensor>> values_;
  DeterministicRecorder* previous_;
};

}  // namespace variate
