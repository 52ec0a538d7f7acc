#include "engine/workflow/prior_draws.h"

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/core/checks.h"
#include "engine/core/distribution.h"
#include "engine/core/tracing.h"
#include "engine/model/log_density_term.h"
#include "engine/model/printer.h"

namespace variate::workflow {
namespace {

// Draws every random variable the model makes: a latent one from its distribution, an
// observed one (the model gives it its data) in place of the data.
class PriorTracer : public Tracer {
 public:
  explicit PriorTracer(at::Generator generator) : generator_(std::move(generator)) {}

  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    const bool observed = spec.value.has_value();
    if (spec.support && spec.support->to_string() != spec.distribution->support().to_string()) {
      throw ArgumentError("cannot draw '" + spec.name + "' from its prior: it is declared " +
                          spec.support->to_string() + ", which " + spec.distribution->name() +
                          " does not keep to (its draws would need rejection)");
    }
    RandomVariableSpec unset = spec;
    unset.value.reset();
    at::Tensor value;
    try {
      value = RandomVariable(std::move(unset)).sample(generator_);
    } catch (const std::exception& e) {
      throw ArgumentError("cannot draw '" + spec.name + "' from its " + (observed ? "likelihood" : "prior") + ": " +
                          e.what());
    }
    (observed ? observed_ : latent_)[spec.name] = value;
    spec.value = value;
    return next(std::move(spec));
  }

  ValueMap latent_, observed_;

 private:
  at::Generator generator_;
};

}  // namespace

void check_simulable(const model::CheckedModel& model) {
  for (const model::Node& node : model.nodes) {
    if (node.kind == model::NodeKind::log_density) {
      throw ArgumentError("cannot simulate the model: '" + model::to_string(model.program.statements[*node.increment]) +
                          "' adds to the log density without a distribution to draw from; write it as '~' statements");
    }
    if (node.kind == model::NodeKind::observed && node.is_deterministic()) {
      throw ArgumentError("cannot simulate the model: '" + node.name +
                          "' is observed through an expression of the data, which a simulation cannot invert; observe "
                          "the data itself");
    }
    if (node.kind != model::NodeKind::observed) continue;
    for (const model::Node& reader : model.nodes) {
      if (reader.name == node.name || reader.kind == model::NodeKind::data) continue;
      for (const auto& dependency : reader.dependencies) {
        if (dependency == node.name) {
          throw ArgumentError("cannot simulate the model: '" + reader.name + "' reads the data of '" + node.name +
                              "', which the model observes, so the simulated '" + node.name +
                              "' would come from the old one; write the recurrence over the values drawn");
        }
      }
    }
  }
}

PriorDraw draw_from_prior(const model::CompiledModel& compiled, const Data& data, at::Generator generator) {
  check_simulable(compiled.checked());
  at::NoGradGuard no_grad;
  // Every observed variable through its distribution (a fused likelihood cannot draw).
  ValidationGuard validation(true);
  PriorTracer tracer(std::move(generator));
  {
    TracerScope scope(tracer);
    compiled.program()();
  }
  PriorDraw draw;
  draw.data = data;
  const model::CheckedModel& checked = compiled.checked();
  for (const auto& [name, value] : tracer.observed_) {
    // As the model declares it (a JSON file may write reals as 28).
    const model::Node* node = checked.find(name);
    const bool integers =
        node && node->declaration &&
        checked.program.statements[*node->declaration].as<model::DataDecl>()->type == model::BaseType::integer;
    draw.data.set(name, integers ? value.round().to(at::kLong) : value.to(at::kDouble));
  }
  for (const auto& p : compiled.layout().parameters()) {
    const auto it = tracer.latent_.find(p.name);
    if (it == tracer.latent_.end()) throw ArgumentError("the prior draw has no value for '" + p.name + "'");
    draw.parameters[p.name] = it->second.to(at::kDouble);
  }
  return draw;
}

}  // namespace variate::workflow
