#include "engine/tape/compiler/select_target.h"

#include "engine/core/argument_error.h"
#include "engine/tape/compiler/model_compiler.h"
#include "engine/tape/program/tape_density.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {

SelectedTarget select_target(const model::CompiledModel& model, Backend backend) {
  UnconstrainedTarget target = model.target();
  if (backend == Backend::torch) return {target, ""};
  if (!model.options().device.is_cpu()) {
    const std::string why = "the tape runs on the CPU, the model on " + model.options().device.str();
    if (backend == Backend::tape) throw ArgumentError("--backend tape: " + why);
    return {target, why};
  }
  try {
    return {target.with_point_density(std::make_shared<TapeDensity>(compile_model(model))), ""};
  } catch (const Unsupported& e) {
    if (backend == Backend::tape) throw ArgumentError(std::string("--backend tape: ") + e.what());
    return {target, e.what()};
  }
}

}  // namespace variate::tape
