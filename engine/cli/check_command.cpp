#include "engine/cli/check_command.h"

#include <iostream>
#include <memory>

#include "engine/cli/command_run.h"
#include "engine/core/shape.h"
#include "engine/deep/amortized_model.h"
#include "engine/io/data_file.h"
#include "engine/model/network_call.h"
#include "engine/model/variable_bounds.h"
#include "engine/services/train.h"
#include "engine/services/vmod_source.h"
#include "engine/tape/compiler/select_target.h"

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

// A deep model bound to its data (every shape checked): its rows, latent variables and
// networks.
void check_deep_model(const CheckOptions& options, const std::shared_ptr<const services::ModelSource>& source) {
  services::RunSpec spec;
  spec.model = source;
  spec.data = services::DataInput::file(*options.data);
  const auto bound = services::bind_deep_model(spec, 1);
  const deep::AmortizedModel& model = *bound;
  std::cout << options.model << ": ok\n" << model.rows() << " rows (" << model.row_axis() << ")\nlatent variables, one value per row:";
  for (const auto& latent : model.latents()) {
    std::cout << " " << latent.name << "[" << model.row_axis();
    for (const int64_t size : latent.row_shape) std::cout << ", " << size;
    std::cout << "]" << (latent.analytic_kl ? " (KL to its prior in closed form)" : "");
  }
  std::cout << "\nnetworks:";
  for (const auto& n : model.network_infos()) {
    std::cout << " " << n.name << " (mlp " << n.spec.input_width;
    for (const int64_t width : n.spec.widths) std::cout << "-" << width;
    std::cout << ", " << model::activation_name(n.spec.activation) << ", " << n.spec.parameter_count() << " weights)";
  }
  std::cout << "\nfit with `variate fit` (amortized variational inference)\n";
}

int run_check(const CheckOptions& options) {
  const auto source = std::make_shared<services::VmodSource>(services::VmodSource::from_file(options.model));
  if (options.data && services::is_deep_model(*source)) {
    check_deep_model(options, source);
    return 0;
  }
  std::optional<Data> data;
  if (options.data) data = io::read_data_file(*options.data);
  const model::CompileResult compiled = source->compile(data ? &*data : nullptr, {});
  const model::CompileResult* result = &compiled;
  std::cout << options.model << ": ok";
  if (!result->model) {
    std::cout << " (no data given: shapes were not checked)\n";
    return 0;
  }
  const auto& model = *result->model;
  std::cout << "\nparameters (" << model.layout().dimension() << " unconstrained):";
  for (const auto& p : model.layout().parameters()) {
    std::cout << " " << with_shape(p.name, p.shape);
    if (p.support_varies) {
      const model::CheckedModel& checked = model.checked();
      const auto& random = *checked.program.statements[*checked.find(p.name)->distribution].as<model::RandomStmt>();
      std::cout << " (" << model::describe_bounds(random, p.support) << ", at each point)";
    } else if (p.support.kind() != Support::Kind::Real) {
      std::cout << " (" << p.support.to_string() << ")";
    }
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
  command->callback([options, &exit_code] {
    try {
      exit_code = run_check(*options);
    } catch (const std::exception& e) {
      print_error(std::cerr, e);
      exit_code = 1;
    }
  });
}

}  // namespace variate::cli
