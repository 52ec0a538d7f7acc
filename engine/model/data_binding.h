#pragma once
/// Binding a data set to a checked model: every declared input present with its declared
/// type and shape (sizes inferred where the data implies them), and transformed data
/// computed once. The layout of the values is chosen here, once: a matrix that multiplies
/// a vector (`X @ beta`) is stored column-major, which makes the matrix-vector products of
/// autograd (OpenBLAS) and the fused likelihood kernels read it faster.

#include <map>
#include <set>
#include <string>

#include "engine/core/data.h"
#include "engine/model/checker.h"
#include "engine/model/evaluator.h"

namespace variate::model {

struct BoundData {
  /// Declared inputs (reals in the model's real dtype, ints as int64) and transformed data.
  std::map<std::string, Value> values;
  /// Names whose values do not depend on parameters.
  std::set<std::string> names;
};

/// @throws ModelError at the declaration: "data 'y' has shape [7], expected [8] (J = 8)",
/// "data 'N' is missing", "data 'k' is declared int but holds the real value 2.5",
/// "data 'x' holds nan at element 2 (1-based, counting row by row): data must be finite".
/// `real_dtype` (float64 or float32) is the dtype of real inputs.
BoundData bind_data(const CheckedModel& model, const Data& data, ConstantCache& constants,
                    at::ScalarType real_dtype = at::kDouble);

}  // namespace variate::model
