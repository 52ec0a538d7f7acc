#include "engine/cli/cpp_model_source.h"

#include <utility>

#include <ATen/ATen.h>

#include "engine/cli/text_agreement.h"
#include "engine/core/argument_error.h"
#include "engine/services/predictive_columns.h"
#include "engine/services/vmod_source.h"
#include "engine/target/pointwise_log_joint.h"

namespace variate::cli {

CppModelSource::CppModelSource(CppModel model) : model_(std::move(model)) {}

void CppModelArgument::add_to(CLI::App& command) {
  command.footer(
      std::string("The model is compiled into this program, so these options of `variate` are not offered: ") +
      (source_->has_text() ? "--dtype and --device" : "--backend, --dtype and --device") +
      " (how a text is compiled), --nproc, --rendezvous and --worker (other processes are given the text), "
      "--project and --run-name (a project records the text).");
}

std::string CppModelSource::name() const {
  return model_.name + " (exported from " + model_.origin + ")";
}

services::BoundModel CppModelSource::bind(const services::DataInput& input,
                                          const services::CompileChoice& choice) const {
  services::BoundModel cpp = bind_cpp(input);
  if (!has_text() || !services::columns_on_tape(choice)) return cpp;
  const bool asked = choice.backend == "tape";
  services::BoundModel text = services::VmodSource(model_.text, model_.origin).bind(input, choice);
  std::string reason = text.backend_note;
  if (reason.empty()) {
    if (const std::string differs = text_disagreement(cpp, text); !differs.empty()) {
      reason = "model.h's C++ and the text it was exported from differ (" + differs + ")";
    }
  }
  if (reason.empty()) return text;
  if (asked) throw ArgumentError("--backend tape: " + reason);
  cpp.backend_note = reason;
  return cpp;
}

services::BoundModel CppModelSource::bind_cpp(const services::DataInput& input) const {
  const Data data = model_.data(input.read());
  LogJoint log_joint = make_log_joint(model_.model, data);
  ParameterLayout layout = ParameterLayout::from_model(log_joint);
  // The quantities the model names with `deterministic`, found at one point.
  const ValueMap center = layout.constrain(at::zeros({layout.dimension()}, at::kDouble)).values;
  std::vector<std::string> derived_names;
  for (const auto& entry : deterministic_values(log_joint, center)) derived_names.push_back(entry.first);
  UnconstrainedTarget target(log_joint, layout);
  UnconstrainedTarget batch_target(pointwise_log_joint(log_joint, layout), layout);
  DrawColumns columns(log_joint, layout);
  services::BoundModel bound{std::move(log_joint), std::move(target),        std::move(batch_target),
                             std::move(columns),   std::move(derived_names), std::string()};
  bound.parameter_columns = services::parameter_columns(layout);
  bound.predictive = [log_joint = bound.log_joint, layout] {
    return std::make_shared<const services::PredictiveColumns>(log_joint, layout);
  };
  return bound;
}

}  // namespace variate::cli
