#include "engine/cli/logp_command.h"

#include <iostream>
#include <memory>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"

#include "engine/cli/command_run.h"
#include "engine/io/parameter_values.h"
#include "engine/cli/setting_options.h"
#include "engine/services/setting_table.h"
#include "engine/cli/tensor_json.h"

namespace variate::cli {
namespace {

struct LogpOptions {
  std::optional<std::string> data;
  std::string params;
  bool jacobian = false;
  services::Settings settings;  // the backend
};

int run_logp(const LogpOptions& options, const ModelArgument& argument) {
  try {
    const services::DataInput data = options.data ? services::DataInput::file(*options.data) : services::DataInput::none();
    const std::optional<services::BoundModel> model =
        argument.source()->bind(data, {options.settings.get(services::setting::backend), "float64", "cpu"});
    const ParameterLayout& layout = model->target.layout();
    const ValueMap values =
        io::parse_parameters(io::read_text_file(options.params), options.params, layout, model->derived_names);
    nlohmann::ordered_json output;
    nlohmann::ordered_json gradient = nlohmann::ordered_json::object();
    if (options.jacobian) {
      // With respect to the unconstrained parameters, Jacobian included.
      const at::Tensor theta = layout.unconstrain(values);
      const auto [lp, g] = model->target.log_density_and_gradient(theta, true);
      output["log_density"] = lp.item<double>();
      for (const auto& p : layout.parameters()) {
        gradient[p.name] = tensor_to_json(g.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape));
      }
    } else {
      // With respect to the constrained values, as given.
      ValueMap leaves;
      std::vector<at::Tensor> inputs;
      for (const auto& [name, value] : values) {
        leaves[name] = value.clone().requires_grad_(true);
        inputs.push_back(leaves[name]);
      }
      const at::Tensor lp = model->log_joint(leaves);
      const auto grads = torch::autograd::grad({lp}, inputs, {}, false, false, true);
      output["log_density"] = lp.item<double>();
      size_t i = 0;
      for (const auto& [name, value] : leaves) {
        gradient[name] = tensor_to_json(grads[i].defined() ? grads[i] : at::zeros_like(value));
        ++i;
      }
    }
    output["gradient"] = gradient;
    std::cout << output.dump(2) << "\n";
    return 0;
  } catch (const ArgumentError& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_logp_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model) {
  auto options = std::make_shared<LogpOptions>();
  CLI::App* command = app.add_subcommand(
      "logp", "Log density and gradient at given (constrained) parameter values, as JSON");
  model->add_to(*command);
  if (model->settings_left_out().count("backend") == 0) {
    add_setting_option(*command, services::setting::backend.descriptor(), options->settings);
  }
  command->add_option("--data", options->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--params", options->params, "Parameter values by name (JSON)")->required();
  command->add_flag("--jacobian", options->jacobian,
                    "Add the log-Jacobian of the unconstraining transform; the gradient is "
                    "then with respect to the unconstrained parameters");
  command->callback([options, model, &exit_code] { exit_code = run_logp(*options, *model); });
}

}  // namespace variate::cli
