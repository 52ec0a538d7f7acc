#include "engine/distributions/with_truncation.h"

#include "engine/distributions/truncated.h"

namespace variate {

RandomVariable TruncationTracer::trace(RandomVariableSpec spec, const NextTracer& next) {
  spec.distribution = std::make_shared<distributions::Truncated>(spec.distribution, lo_, hi_);
  return next(std::move(spec));
}

}  // namespace variate
