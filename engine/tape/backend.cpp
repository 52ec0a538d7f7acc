#include "variate/tape/backend.h"

#include "variate/core/argument_error.h"
#include "variate/tape/model_compiler.h"
#include "variate/tape/tape_density.h"
#include "variate/tape/unsupported.h"

namespace variate::tape {

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::tape: return "tape";
    case Backend::torch: return "torch";
  }
  return "auto";
}

std::optional<Backend> parse_backend(const std::string& name) {
  for (Backend b : {Backend::automatic, Backend::tape, Backend::torch}) {
    if (name == backend_name(b)) return b;
  }
  return std::nullopt;
}

SelectedTarget select_target(const model::CompiledModel& model, Backend backend) {
  UnconstrainedTarget target = model.target();
  if (backend == Backend::torch) return {target, ""};
  try {
    return {target.with_point_density(std::make_shared<TapeDensity>(compile_model(model))), ""};
  } catch (const Unsupported& e) {
    if (backend == Backend::tape) throw ArgumentError(std::string("--backend tape: ") + e.what());
    return {target, e.what()};
  }
}

}  // namespace variate::tape
