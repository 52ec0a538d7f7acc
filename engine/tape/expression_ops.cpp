#include "variate/tape/expression_ops.h"

#include "variate/tape/unsupported.h"

namespace variate::tape {

Slot emit_unary(ProgramBuilder&, const std::string& function, const Slot&) {
  throw Unsupported("the tape has no kernel for " + function);
}
Slot emit_negate(ProgramBuilder&, const Slot&) { throw Unsupported("the tape has no kernel for -x"); }
Slot emit_arithmetic(ProgramBuilder&, model::BinaryOp op, const Slot&, const Slot&) {
  throw Unsupported(std::string("the tape has no kernel for ") + model::binary_op_text(op));
}
Slot emit_matmul(ProgramBuilder&, const Slot&, const Slot&) { throw Unsupported("the tape has no kernel for @"); }
Slot emit_call(ProgramBuilder&, const std::string& function, const std::vector<Slot>&) {
  throw Unsupported("the tape has no kernel for " + function);
}

}  // namespace variate::tape
