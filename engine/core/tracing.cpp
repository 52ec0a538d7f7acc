#include "engine/core/tracing.h"

#include <vector>

namespace variate {
namespace {

thread_local std::vector<Tracer*> tracer_stack;
// Tracers [0, visible) are active. While a tracer runs, only those below it are, so a
// tracer that itself creates random variables does not intercept them.
thread_local size_t visible = 0;

class VisibleDepth {
 public:
  explicit VisibleDepth(size_t depth) : previous_(visible) { visible = depth; }
  ~VisibleDepth() { visible = previous_; }

 private:
  size_t previous_;
};

RandomVariable apply_tracers(size_t depth, RandomVariableSpec spec) {
  if (depth == 0) return RandomVariable(std::move(spec));
  VisibleDepth below(depth - 1);
  return tracer_stack[depth - 1]->trace(std::move(spec), [depth](RandomVariableSpec next) {
    return apply_tracers(depth - 1, std::move(next));
  });
}

}  // namespace

TracerScope::TracerScope(Tracer& tracer) : previous_visible_(visible) {
  tracer_stack.push_back(&tracer);
  visible = tracer_stack.size();
}

TracerScope::~TracerScope() {
  tracer_stack.pop_back();
  visible = previous_visible_;
}

RandomVariable make_random_variable(RandomVariableSpec spec) {
  return apply_tracers(visible, std::move(spec));
}

}  // namespace variate
