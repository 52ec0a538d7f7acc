#pragma once
/// A log density evaluated one unconstrained point at a time on plain doubles, without
/// tensors: how a second backend (the static tape, engine/tape) serves the samplers. An
/// UnconstrainedTarget that carries one uses it for every evaluation it can
/// (unconstrained_target.h).

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace variate {

/// Owns the scratch memory of its evaluations: not thread-safe, one per thread.
class PointEvaluator {
 public:
  virtual ~PointEvaluator() = default;
  /// log p at q (with the log|det J| of the transforms when `jacobian`), and its gradient
  /// into `gradient` unless that is null. Not finite where the density vanishes or cannot
  /// be evaluated (the gradient is then unspecified).
  virtual double log_density(const double* q, double* gradient, bool jacobian) = 0;
  /// The same for `count` points, q [count, d] row by row, into lp [count] and gradient
  /// [count, d] (unless null). One at a time unless an evaluator does better (a sharded
  /// one makes one collective for all of them).
  virtual void log_densities(const double* q, int64_t count, int64_t d, double* lp, double* gradient,
                             bool jacobian) {
    for (int64_t i = 0; i < count; ++i) {
      lp[i] = log_density(q + i * d, gradient ? gradient + i * d : nullptr, jacobian);
    }
  }
};

/// The points where an evaluation found an argument computed from the parameters outside
/// its domain (their density is -inf, so a sampler rejects them): how many, and the first.
struct ArgumentRejections {
  int64_t count = 0;
  std::vector<double> first;  ///< unconstrained, [d]
};

/// Where the evaluations of one density, on any thread, record the points they rejected.
/// Rejections are rare: the lock is taken only for them.
class RejectionTally {
 public:
  void record(const double* q, int64_t d) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (rejections_.count++ == 0) rejections_.first.assign(q, q + d);
  }
  ArgumentRejections read() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return rejections_;
  }

 private:
  mutable std::mutex mutex_;
  ArgumentRejections rejections_;
};

class PointDensity {
 public:
  virtual ~PointDensity() = default;
  virtual std::unique_ptr<PointEvaluator> evaluator() const = 0;
  /// Of every evaluator's evaluations so far (none for a density that does not check).
  virtual ArgumentRejections rejections() const { return {}; }
  /// The backend's name as runs record it: "tape".
  virtual std::string backend() const = 0;
};

}  // namespace variate
