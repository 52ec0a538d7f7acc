#pragma once
/// Stan's `T[lo, hi]` in a C++ model: the random variable `make` creates gets its family
/// truncated to [lo, hi] (Truncated), as `y ~ Normal(mu, sigma) T[lo, ]` does in a .vmod
/// model. An undefined tensor leaves that side open.
///
///   auto y = vt::with_truncation(lo, at::Tensor(), [&] { return vt::Normal("y", mu, sigma); });

#include <utility>

#include "engine/core/tracing.h"

namespace variate {

/// Truncates the family of every random variable created while it is in scope.
class TruncationTracer : public Tracer {
 public:
  TruncationTracer(at::Tensor lo, at::Tensor hi) : lo_(std::move(lo)), hi_(std::move(hi)) {}
  /// @throws ArgumentError as Truncated's constructor.
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

 private:
  at::Tensor lo_;
  at::Tensor hi_;
};

/// Runs `make` (which creates one random variable and returns it) with its family
/// truncated to [lo, hi].
template <class Make>
RandomVariable with_truncation(at::Tensor lo, at::Tensor hi, Make&& make) {
  TruncationTracer tracer(std::move(lo), std::move(hi));
  TracerScope scope(tracer);
  return std::forward<Make>(make)();
}

}  // namespace variate
