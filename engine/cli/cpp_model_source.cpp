#include "engine/cli/cpp_model_source.h"

#include <utility>

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/target/pointwise_log_joint.h"

namespace variate::cli {

CppModelSource::CppModelSource(CppModel model) : model_(std::move(model)) {}

void CppModelSource::add_arguments(CLI::App& command, ModelCommand which) {
  if (which != ModelCommand::sample) return;
  command.footer(
      "The model is compiled into this program, so the options of `variate sample` that need "
      "its .vmod text are not offered: --dtype (a compile option), --project and --run-name "
      "(a project records the model's text).");
}

std::string CppModelSource::name() const {
  return model_.name + " (exported from " + model_.origin + ")";
}

std::optional<BoundModel> CppModelSource::bind(const std::optional<std::string>& data_path,
                                               std::ostream& errors) const {
  try {
    const Data data = model_.data(data_path ? io::read_data_file(*data_path) : Data());
    LogJoint log_joint = make_log_joint(model_.model, data);
    ParameterLayout layout = ParameterLayout::from_model(log_joint);
    // The quantities the model names with `deterministic`, found at one point.
    const ValueMap center = layout.constrain(at::zeros({layout.dimension()}, at::kDouble)).values;
    std::vector<std::string> derived_names;
    for (const auto& entry : deterministic_values(log_joint, center)) derived_names.push_back(entry.first);
    UnconstrainedTarget target(log_joint, layout);
    UnconstrainedTarget batch_target(pointwise_log_joint(log_joint, layout), layout);
    DrawColumns columns(log_joint, layout);
    return BoundModel{std::move(log_joint), std::move(target), std::move(batch_target),
                      std::move(columns), std::move(derived_names)};
  } catch (const ArgumentError& e) {  // unreadable data, or data the model does not accept
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace variate::cli
