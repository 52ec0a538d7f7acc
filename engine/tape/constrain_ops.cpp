#include "variate/tape/constrain_ops.h"

#include "variate/tape/unsupported.h"

namespace variate::tape {

Slot emit_constrain(ProgramBuilder&, const Support& support, const Slot&, const Shape&) {
  throw Unsupported("the tape has no kernel for the transform to " + support.to_string());
}

}  // namespace variate::tape
