#include "engine/services/model_source.h"

#include "engine/core/argument_error.h"
#include "engine/core/shape.h"

namespace variate::services {

int parameter_columns(const ParameterLayout& layout) {
  int64_t columns = 0;
  for (const auto& parameter : layout.parameters()) columns += numel(parameter.shape);
  return static_cast<int>(columns);
}

BoundModel ModelSource::bind_sharded(const DataInput&, const CompileChoice&, const RowSplit&) const {
  throw ArgumentError("a model written in C++ runs on several processes whole only (--shard none)");
}

}  // namespace variate::services
