#include "engine/cli/logp_command.h"

#include <iostream>
#include <memory>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"

#include "engine/cli/parameter_file.h"
#include "engine/cli/tensor_json.h"

namespace variate::cli {
namespace {

struct LogpOptions {
  std::optional<std::string> data;
  std::string params;
  bool jacobian = false;
};

int run_logp(const LogpOptions& options, const ModelSource& source) {
  const std::optional<BoundModel> model = source.bind(options.data, std::cerr);
  if (!model) return 1;
  const ParameterLayout& layout = model->target.layout();
  try {
    const ValueMap values =
        parse_parameters(io::read_text_file(options.params), options.params, layout, model->derived_names);
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
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_logp_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source) {
  auto options = std::make_shared<LogpOptions>();
  CLI::App* command = app.add_subcommand(
      "logp", "Log density and gradient at given (constrained) parameter values, as JSON");
  source->add_arguments(*command, ModelCommand::logp);
  command->add_option("--data", options->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--params", options->params, "Parameter values by name (JSON)")->required();
  command->add_flag("--jacobian", options->jacobian,
                    "Add the log-Jacobian of the unconstraining transform; the gradient is "
                    "then with respect to the unconstrained parameters");
  command->callback([options, source, &exit_code] { exit_code = run_logp(*options, *source); });
}

}  // namespace variate::cli
