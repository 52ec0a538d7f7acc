#pragma once
/// A log density evaluated one unconstrained point at a time on plain doubles, without
/// tensors: how a second backend (the static tape, engine/tape) serves the samplers. An
/// UnconstrainedTarget that carries one uses it for every evaluation it can
/// (unconstrained_target.h).

#include <memory>
#include <string>

namespace variate {

/// Owns the scratch memory of its evaluations: not thread-safe, one per thread.
class PointEvaluator {
 public:
  virtual ~PointEvaluator() = default;
  /// log p at q (with the log|det J| of the transforms when `jacobian`), and its gradient
  /// into `gradient` unless that is null. Not finite where the density vanishes or cannot
  /// be evaluated (the gradient is then unspecified).
  virtual double log_density(const double* q, double* gradient, bool jacobian) = 0;
};

class PointDensity {
 public:
  virtual ~PointDensity() = default;
  virtual std::unique_ptr<PointEvaluator> evaluator() const = 0;
  /// The backend's name as runs record it: "tape".
  virtual std::string backend() const = 0;
};

}  // namespace variate
