#include "engine/tape/densities/density_sink.h"

#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {

Instruction elementwise_operands(const DensityTerm& term, size_t arity, const char* name) {
  if (term.arguments.size() != arity) {
    throw Unsupported("the tape's " + term.family + " takes " + std::to_string(arity) +
                      " arguments, got " + std::to_string(term.arguments.size()));
  }
  const int64_t n = term.value.size;
  Instruction op;
  op.name = name;
  op.n = n;
  op.in[0] = term.value.offset;
  op.stride[0] = 1;
  op.varying[0] = term.value.varying;
  for (size_t k = 0; k < arity; ++k) {
    const Slot& argument = term.arguments[k];
    op.in[1 + k] = argument.offset;
    op.stride[1 + k] = elementwise_stride(argument, n, term.family + "'s argument " + std::to_string(k));
    op.varying[1 + k] = argument.varying;
  }
  return op;
}

Instruction density_sink(const DensityTerm& term, size_t arity, const char* name) {
  if (term.parameterization != 0) {
    throw Unsupported("the tape has no kernel for " + term.family + " parameterization " +
                      std::to_string(term.parameterization));
  }
  Instruction op = elementwise_operands(term, arity, name);
  op.sink = true;
  return op;
}

}  // namespace variate::tape
