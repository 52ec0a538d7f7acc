#include "engine/cli/check_command.h"

#include <iostream>
#include <memory>

#include "engine/core/shape.h"
#include "engine/tape/compiler/select_target.h"

#include "engine/cli/deep_fit.h"
#include "engine/cli/model_input.h"

namespace variate::cli {
namespace {

struct CheckOptions {
  std::string model;
  std::optional<std::string> data;
};

std::string with_shape(const std::string& name, const Shape& shape) {
  if (shape.empty()) return name;
  std::string text = name + "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

int run_check(const CheckOptions& options) {
  if (options.data && is_deep_model_file(options.model)) {
    return check_deep_model(options.model, *options.data, std::cout, std::cerr);
  }
  const auto result = load_model(options.model, options.data, std::cerr);
  if (!result) return 1;
  std::cout << options.model << ": ok";
  if (!result->model) {
    std::cout << " (no data given: shapes were not checked)\n";
    return 0;
  }
  const auto& model = *result->model;
  std::cout << "\nparameters (" << model.layout().dimension() << " unconstrained):";
  for (const auto& p : model.layout().parameters()) {
    std::cout << " " << with_shape(p.name, p.shape);
    if (p.support.kind() != Support::Kind::Real) std::cout << " (" << p.support.to_string() << ")";
  }
  std::cout << "\n";
  if (!model.derived_names().empty()) {
    std::cout << "derived quantities:";
    for (const auto& name : model.derived_names()) {
      std::cout << " " << with_shape(name, model.shape(name));
    }
    std::cout << "\n";
  }
  // What `sample` would evaluate the density with (--backend auto).
  const tape::SelectedTarget selected = tape::select_target(model, tape::Backend::automatic);
  std::cout << "backend: " << selected.target.backend();
  if (!selected.fallback_reason.empty()) std::cout << " (" << selected.fallback_reason << ")";
  std::cout << "\n";
  return 0;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand("check", "Parse and check a model (and its data)");
  command->add_option("model", options->model, "The model (.vmod)")->required();
  command->add_option("--data", options->data, "Data file (CmdStan JSON or CSV)");
  command->callback([options, &exit_code] { exit_code = run_check(*options); });
}

}  // namespace variate::cli
