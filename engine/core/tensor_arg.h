#pragma once
/// A distribution parameter as users write it: a number, a tensor or a random variable.

#include <ATen/core/Tensor.h>

namespace variate {

class RandomVariable;

/// Converts implicitly from double, int, at::Tensor and RandomVariable, so that
/// `Normal("mu", 0.0, 5.0)` and `Normal("y", theta, sigma)` both read like the maths.
/// Numbers become 0-dim float64 tensors (they do not promote float32 parameters).
class TensorArg {
 public:
  TensorArg(double value);             // NOLINT(google-explicit-constructor)
  TensorArg(int value);                // NOLINT(google-explicit-constructor)
  TensorArg(int64_t value);            // NOLINT(google-explicit-constructor)
  TensorArg(at::Tensor value);         // NOLINT(google-explicit-constructor)
  TensorArg(const RandomVariable& rv); // NOLINT(google-explicit-constructor)

  const at::Tensor& tensor() const { return tensor_; }
  operator const at::Tensor&() const { return tensor_; }  // NOLINT

 private:
  at::Tensor tensor_;
};

/// Alternative parameterizations, tagged so the call site says which one it uses:
/// `Bernoulli("y", logits(eta))`, `Poisson("k", log_rate(f))`,
/// `MultiNormal("x", mu, scale_tril(L))`.
struct Logits { at::Tensor value; };
struct LogRate { at::Tensor value; };
struct ScaleTril { at::Tensor value; };

Logits logits(const TensorArg& value);
LogRate log_rate(const TensorArg& value);
ScaleTril scale_tril(const TensorArg& value);

}  // namespace variate
