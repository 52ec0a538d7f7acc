#pragma once
/// Tracing: every random variable a model creates passes through a thread-local stack of
/// tracers, top first, so inference can condition, record or score a model by running
/// it (Tran et al. 2018, Sec. 3; Edward2's `trace` and `interception`).

#include <cstddef>
#include <functional>

#include "engine/core/random_variable.h"

namespace variate {

/// Builds the random variable with the tracers below the current one.
using NextTracer = std::function<RandomVariable(RandomVariableSpec)>;

/// Intercepts random-variable construction. A tracer may change the spec, call `next`
/// (or not), and look at or replace the result.
class Tracer {
 public:
  virtual ~Tracer() = default;
  virtual RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) = 0;
};

/// Pushes a tracer for the lifetime of the scope (as LibTorch's NoGradGuard).
class TracerScope {
 public:
  explicit TracerScope(Tracer& tracer);
  ~TracerScope();
  TracerScope(const TracerScope&) = delete;
  TracerScope& operator=(const TracerScope&) = delete;

 private:
  size_t previous_visible_;
};

/// Creates a random variable through the active tracers. The distribution factories
/// (`Normal("mu", 0.0, 5.0)`) call this; so may user code with its own distributions.
RandomVariable make_random_variable(RandomVariableSpec spec);

}  // namespace variate
