#include "engine/core/with_support.h"

namespace variate {

RandomVariable SupportTracer::trace(RandomVariableSpec spec, const NextTracer& next) {
  spec.support = support_;
  return next(std::move(spec));
}

}  // namespace variate
