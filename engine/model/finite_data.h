#pragma once
/// Data must be finite. Variate has no missing values, and a NaN or an infinity in the data
/// would make the log density NaN or infinite wherever it is used (Stan reads them into
/// unconstrained data, and its chains then cannot start); an infinite int has no int64
/// value at all. The readers take CmdStan's "NaN", "Inf", "-Inf" and CSV's NA, so that
/// binding can name the variable and the element.

#include <ATen/core/Tensor.h>

#include "engine/model/ast.h"

namespace variate::model {

/// @throws ModelError at the declaration: "data 'x' holds nan at element 2 (1-based,
/// counting row by row): data must be finite (...)".
void check_finite_data(const DataDecl& decl, const at::Tensor& value);

}  // namespace variate::model
