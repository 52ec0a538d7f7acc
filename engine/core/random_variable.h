#pragma once
/// The random variable: Variate's single modeling abstraction (Tran et al. 2018, Sec. 2).

#include <memory>
#include <optional>
#include <string>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/core/shape.h"
#include "engine/core/support.h"

namespace variate {

namespace distributions {
class Distribution;
}
using DistributionPtr = std::shared_ptr<const distributions::Distribution>;

/// What a model asks for when it creates a random variable; tracers may change it
/// (e.g. set its value) before the variable is built.
struct RandomVariableSpec {
  std::string name;
  DistributionPtr distribution;
  Shape sample_shape;
  std::optional<at::Tensor> value;
  /// A declared support that overrides the distribution's own, as in Stan's
  /// `ordered[K] x; x ~ normal(0, 1);` (the density is the distribution's, restricted).
  std::optional<Support> support;
};

/// A named random variable: a distribution, a sample shape, and a value that is either
/// given or drawn on first use. Copies share the same variable (and value).
///
///   auto mu = Normal("mu", 0.0, 5.0);     // goes through the active tracers
///   at::Tensor x = mu * 2.0 + 1.0;        // converts to its value
class RandomVariable {
 public:
  /// @throws ArgumentError for an empty name, a null distribution, or a given value whose
  /// shape is not shape() (as Edward2 checks it; inside a BatchedEvaluationScope the value
  /// is not checked).
  explicit RandomVariable(RandomVariableSpec spec);

  const std::string& name() const;
  const distributions::Distribution& distribution() const;
  const Shape& sample_shape() const;
  /// sample_shape + batch_shape + event_shape.
  Shape shape() const;
  /// The declared support if the spec gave one, else the distribution's.
  Support support() const;

  /// The value: given, or drawn once from the global default generator.
  const at::Tensor& value() const;
  bool has_value() const;
  /// A fresh draw from `generator` (does not change value()).
  at::Tensor sample(at::Generator generator) const;
  /// log_prob of value(), one entry per independent element (event dims reduced).
  at::Tensor log_prob() const;

  operator const at::Tensor&() const { return value(); }  // NOLINT(google-explicit-constructor)

 private:
  void check_value_shape(const at::Tensor& value) const;

  struct State;
  std::shared_ptr<State> state_;
};

/// While in scope, the current thread evaluates a model for a batch of points: values and
/// distribution parameters carry a leading batch dimension and broadcast with one another
/// (observed data against batched parameters, a [B, 1] scalar against [B, K]), so random
/// variables made here do not check their values' shapes against shape(); LogJoint checks
/// the batch itself.
class BatchedEvaluationScope {
 public:
  BatchedEvaluationScope();
  ~BatchedEvaluationScope();
  BatchedEvaluationScope(const BatchedEvaluationScope&) = delete;
  BatchedEvaluationScope& operator=(const BatchedEvaluationScope&) = delete;

 private:
  bool previous_;
};

// Arithmetic reads like the maths: each operator returns the tensor of the values.
at::Tensor operator+(const RandomVariable& a, const RandomVariable& b);
at::Tensor operator-(const RandomVariable& a, const RandomVariable& b);
at::Tensor operator*(const RandomVariable& a, const RandomVariable& b);
at::Tensor operator/(const RandomVariable& a, const RandomVariable& b);
at::Tensor operator+(const RandomVariable& a, const at::Tensor& b);
at::Tensor operator-(const RandomVariable& a, const at::Tensor& b);
at::Tensor operator*(const RandomVariable& a, const at::Tensor& b);
at::Tensor operator/(const RandomVariable& a, const at::Tensor& b);
at::Tensor operator+(const at::Tensor& a, const RandomVariable& b);
at::Tensor operator-(const at::Tensor& a, const RandomVariable& b);
at::Tensor operator*(const at::Tensor& a, const RandomVariable& b);
at::Tensor operator/(const at::Tensor& a, const RandomVariable& b);
at::Tensor operator+(const RandomVariable& a, double b);
at::Tensor operator-(const RandomVariable& a, double b);
at::Tensor operator*(const RandomVariable& a, double b);
at::Tensor operator/(const RandomVariable& a, double b);
at::Tensor operator+(double a, const RandomVariable& b);
at::Tensor operator-(double a, const RandomVariable& b);
at::Tensor operator*(double a, const RandomVariable& b);
at::Tensor operator/(double a, const RandomVariable& b);
at::Tensor operator-(const RandomVariable& a);

/// Matrix product of values (at::matmul semantics).
at::Tensor matmul(const at::Tensor& a, const at::Tensor& b);
/// Matrix-vector product that also takes a batch of vectors `[B, K]` (row-vector
/// convention: v @ M^T), so models written with it evaluate batches of points.
at::Tensor matvec(const at::Tensor& matrix, const at::Tensor& vector);

}  // namespace variate
