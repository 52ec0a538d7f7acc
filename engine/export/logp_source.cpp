#include "variate/export/main_source.h"

namespace variate::codegen {

// The part of main.cpp that evaluates the log density at given values (`logp`), as
// `variate logp`.
const char* logp_source() {
  return R"variate(// A tensor as nested JSON arrays (row-major), numbers written to read back exactly.
std::string to_json(const at::Tensor& tensor) {
  if (tensor.dim() == 0) {
    const double x = tensor.item<double>();
    return std::isfinite(x) ? vt::io::format_number(x) : "null";
  }
  std::string text = "[";
  for (int64_t i = 0; i < tensor.size(0); ++i) text += (i ? ", " : "") + to_json(tensor[i]);
  return text + "]";
}

// Constrained values by name, checked against the model's parameters.
vt::ValueMap read_parameters(const std::string& path, const BoundModel& model) {
  const vt::Data given = vt::io::parse_json_data(vt::io::read_text_file(path), path);
  std::set<std::string> known;
  for (const auto& p : model.layout.parameters()) known.insert(p.name);
  const vt::ValueMap center = model.layout.constrain(at::zeros({model.layout.dimension()}, at::kDouble)).values;
  for (const auto& entry : vt::deterministic_values(model.log_joint, center)) {
    known.insert(entry.first);  // recorded quantities may be given; they are not used
  }
  for (const auto& name : given.names()) {
    if (!known.count(name)) throw vt::ArgumentError(path + ": '" + name + "' is not a parameter of the model");
  }
  vt::ValueMap values;
  for (const auto& p : model.layout.parameters()) {
    if (!given.contains(p.name)) throw vt::ArgumentError(path + ": no value for parameter '" + p.name + "'");
    const at::Tensor value = given[p.name].to(at::kDouble);
    if (value.sizes() != c10::IntArrayRef(p.shape)) {
      throw vt::ArgumentError(path + ": parameter '" + p.name + "' has shape " +
                              vt::to_string(value.sizes()) + ", expected " + vt::to_string(p.shape));
    }
    if (!p.support.contains(value).all().item<bool>()) {
      throw vt::ArgumentError(path + ": parameter '" + p.name + "' is outside its support (" +
                              p.support.to_string() + ")");
    }
    values[p.name] = value;
  }
  return values;
}

int run_logp(Arguments& arguments) {
  const auto data_file = arguments.text("--data");
  const auto params = arguments.text("--params");
  const bool jacobian = arguments.flag("--jacobian");
  arguments.check_all_used();
  if (!params) throw vt::ArgumentError("logp needs --params FILE");
  const BoundModel model = bind(data_file);
  const vt::ValueMap values = read_parameters(*params, model);
  std::vector<std::pair<std::string, at::Tensor>> gradient;
  double log_density = 0;
  if (jacobian) {
    // With respect to the unconstrained parameters, log-Jacobian included.
    const vt::UnconstrainedTarget target(model.log_joint, model.layout);
    const auto [lp, g] = target.log_density_and_gradient(model.layout.unconstrain(values), true);
    log_density = lp.item<double>();
    for (const auto& p : model.layout.parameters()) {
      gradient.emplace_back(p.name, g.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape));
    }
  } else {
    // With respect to the constrained values, as given.
    vt::ValueMap leaves;
    for (const auto& [name, value] : values) leaves[name] = value.clone().requires_grad_(true);
    const at::Tensor lp = model.log_joint(leaves);
    lp.backward();
    log_density = lp.item<double>();
    for (const auto& [name, leaf] : leaves) {
      gradient.emplace_back(name, leaf.grad().defined() ? leaf.grad() : at::zeros_like(leaf));
    }
  }
  std::cout << "{\n  \"log_density\": " << to_json(at::scalar_tensor(log_density, at::kDouble))
            << ",\n  \"gradient\": {";
  for (size_t i = 0; i < gradient.size(); ++i) {
    std::cout << (i ? ",\n" : "\n") << "    \"" << gradient[i].first
              << "\": " << to_json(gradient[i].second);
  }
  std::cout << (gradient.empty() ? "}\n}\n" : "\n  }\n}\n");
  return 0;
}

)variate";
}

}  // namespace variate::codegen
