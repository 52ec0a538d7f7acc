#pragma once
/// A declared support that overrides a distribution's own, as Stan's
/// `ordered[K] c; c ~ normal(0, 5);`: the density is the distribution's, restricted, and
/// inference moves the variable through the declared support's bijector.
///
///   auto c = vt::with_support(vt::Support::ordered(),
///                             [&] { return vt::Normal("c", 0.0, 5.0, {K}); });

#include <utility>

#include "engine/core/tracing.h"
#include "engine/core/support.h"

namespace variate {

/// Gives every random variable created while it is in scope the support `support`.
class SupportTracer : public Tracer {
 public:
  explicit SupportTracer(Support support) : support_(std::move(support)) {}
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

 private:
  Support support_;
};

/// Runs `make` (which creates one random variable and returns it) with `support` declared
/// for what it creates.
template <class Make>
RandomVariable with_support(Support support, Make&& make) {
  SupportTracer tracer(std::move(support));
  TracerScope scope(tracer);
  return std::forward<Make>(make)();
}

}  // namespace variate
