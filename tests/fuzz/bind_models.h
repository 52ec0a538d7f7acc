#pragma once
// Binds fuzzed data to two fixed models, as `variate sample` does after reading a data
// file: eight schools, and a model whose inputs are int and real arrays of every rank the
// language has. A binding error must be an ArgumentError (ModelError is one) with a
// message; anything else escaping, or a crash, is a finding.

#include "engine/core/data.h"

namespace variate::fuzz {

void bind_to_models(const Data& data);

}  // namespace variate::fuzz
