#include "engine/model/finite_data.h"

#include <ATen/ATen.h>

#include "engine/model/model_error.h"
#include "engine/model/printer.h"

namespace variate::model {

void check_finite_data(const DataDecl& decl, const at::Tensor& value) {
  if (!at::isFloatingType(value.scalar_type())) return;  // read as integers: finite
  const at::Tensor bad = value.isfinite().logical_not().reshape(-1);
  if (!bad.any().item<bool>()) return;
  const int64_t first = bad.nonzero()[0][0].item<int64_t>();
  const std::string where =
      value.dim() > 0 ? " at element " + std::to_string(first + 1) + " (1-based, counting row by row)" : "";
  throw ModelError(decl.name_span, "data '" + decl.name + "' holds " +
                                       format_number(value.reshape(-1)[first].item<double>(), false) + where +
                                       ": data must be finite (Variate's data have no missing values)");
}

}  // namespace variate::model
