#include "engine/vi/variational_draws.h"

#include <algorithm>

#include <set>
#include <string>

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/trace.h"
#include "engine/core/distribution.h"
#include "engine/vi/variational_entropy.h"

namespace variate {
namespace {

constexpr int64_t kPointsPerEvaluation = 32;

// Gives every variable a draw from one generator, so a seed fixes the whole run.
class SeededDraws : public Tracer {
 public:
  explicit SeededDraws(at::Generator generator) : generator_(std::move(generator)) {}
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override {
    if (!spec.value) spec.value = spec.distribution->sample(spec.sample_shape, generator_);
    return next(std::move(spec));
  }

 private:
  at::Generator generator_;
};

// One variable of one draw, on the unconstrained scale.
struct Aligned {
  at::Tensor value;  // [size]
  at::Tensor log_q;  // 0-dim
  at::Tensor entropy;
};

std::string prefix(const ParameterInfo& p) {
  return "variational program: variable '" + p.name + "' ";
}

Aligned align(const RandomVariable& rv, const ParameterInfo& p, bool analytic) {
  const Support support = rv.support();
  const at::Tensor& value = rv.value();
  const at::Tensor log_prob = rv.log_prob().sum();
  // A density that depends on the parameters with a draw that does not: the gradient
  // would miss the path through the draw.
  if (at::GradMode::is_enabled() && !value.requires_grad() && log_prob.requires_grad()) {
    throw ArgumentError(prefix(p) + "(" + rv.distribution().name() +
                        ") is not drawn by a reparameterized sampler: its draws do not depend "
                        "on the trainable parameters, so no gradient flows through them");
  }
  if (support.kind() == Support::Kind::Real) {  // the unconstrained scale
    const bool as_vector = value.dim() == 1 && value.size(0) == p.size;
    if (value.sizes() != c10::IntArrayRef(p.unconstrained_shape) && !as_vector) {
      throw ArgumentError(prefix(p) + "has shape " + to_string(value.sizes()) +
                          ", expected the unconstrained shape " + to_string(p.unconstrained_shape) +
                          " (or [" + std::to_string(p.size) + "])");
    }
    Aligned a{value.reshape({p.size}), log_prob, {}};
    std::optional<at::Tensor> closed_form;
    if (analytic) closed_form = analytic_entropy(rv);
    a.entropy = closed_form ? *closed_form : -a.log_q;
    return a;
  }
  if (p.support_varies) {
    throw ArgumentError(prefix(p) + "is on its constrained scale, but its bounds vary with the other parameters; "
                        "give q on the real line (the unconstrained scale)");
  }
  if (support.to_string() != p.support.to_string()) {
    throw ArgumentError(prefix(p) + "has support " + support.to_string() +
                        "; expected the model's support " + p.support.to_string() +
                        " or the real line (the unconstrained scale)");
  }
  if (value.sizes() != c10::IntArrayRef(p.shape)) {
    throw ArgumentError(prefix(p) + "has shape " + to_string(value.sizes()) + ", expected " +
                        to_string(p.shape));
  }
  // q's density moves to the unconstrained scale with the model's own Jacobian term.
  const at::Tensor y = p.bijector->inverse(value);
  const at::Tensor log_q = log_prob + p.bijector->forward_log_det_jacobian(y).sum();
  return {y.reshape({p.size}), log_q, -log_q};
}

void check_names(const Trace& trace, const ParameterLayout& layout) {
  std::set<std::string> seen;  // the trace itself rejects a name created twice
  for (const auto& rv : trace.variables()) {
    seen.insert(rv.name());
    bool known = false;
    for (const auto& p : layout.parameters()) known = known || p.name == rv.name();
    if (!known) {
      std::string names;
      for (const auto& p : layout.parameters()) names += (names.empty() ? "" : ", ") + p.name;
      throw ArgumentError("variational program: variable '" + rv.name() +
                          "' is not a latent variable of the model (those are: " + names + ")");
    }
  }
  for (const auto& p : layout.parameters()) {
    if (!seen.count(p.name)) {
      throw ArgumentError("variational program: no variable for the model's latent variable '" +
                          p.name + "'");
    }
  }
}

// log q of the drawn values, detached, as a function of the parameters: the program runs
// again with every variable conditioned on its draw. The bijector terms of variables on
// the model's scale do not depend on the parameters and are left out.
at::Tensor fixed_draw_log_q(const VariationalFamily& family, const Trace& drawn) {
  std::map<std::string, at::Tensor> values;
  for (const auto& rv : drawn.variables()) values[rv.name()] = rv.value().detach();
  Condition fixed(std::move(values));
  Trace trace;
  {
    TracerScope record(trace);
    TracerScope condition(fixed);
    family.program();
  }
  at::Tensor total = at::zeros({}, at::kDouble);
  for (const auto& rv : trace.variables()) total = total + rv.log_prob().sum();
  return total;
}

}  // namespace

VariationalDraws draw_variational(const VariationalFamily& family, const ParameterLayout& layout,
                                  int64_t draws, at::Generator generator, bool analytic_entropy,
                                  bool score) {
  if (draws < 1) {
    throw ArgumentError("draw_variational: argument 'draws' must be positive, got " +
                        std::to_string(draws));
  }
  std::vector<at::Tensor> points, log_q, entropy, score_log_q;
  for (int64_t m = 0; m < draws; ++m) {
    Trace trace;
    SeededDraws seeded(generator);
    {
      TracerScope record(trace);
      TracerScope draw(seeded);  // on top: runs first, so the trace records the drawn value
      family.program();
    }
    if (m == 0) check_names(trace, layout);
    std::vector<at::Tensor> pieces;
    at::Tensor point_log_q = at::zeros({}, at::kDouble);
    at::Tensor point_entropy = at::zeros({}, at::kDouble);
    for (const auto& p : layout.parameters()) {
      const Aligned a = align(trace[p.name], p, analytic_entropy);
      pieces.push_back(a.value);
      point_log_q = point_log_q + a.log_q;
      point_entropy = point_entropy + a.entropy;
    }
    if (score) score_log_q.push_back(fixed_draw_log_q(family, trace));
    points.push_back(pieces.empty() ? at::zeros({0}, at::kDouble) : at::cat(pieces));
    log_q.push_back(point_log_q);
    entropy.push_back(point_entropy);
  }
  VariationalDraws out{at::stack(points), at::stack(log_q), at::stack(entropy), {}};
  if (score) out.score_log_q = at::stack(score_log_q);
  return out;
}

at::Tensor log_density_at(const UnconstrainedTarget& target, const at::Tensor& unconstrained) {
  const int64_t m = unconstrained.size(0);
  if (m == 1) return target.log_density(unconstrained[0]).reshape({1});
  std::vector<at::Tensor> parts;
  for (int64_t start = 0; start < m; start += kPointsPerEvaluation) {
    const int64_t length = std::min(kPointsPerEvaluation, m - start);
    const at::Tensor chunk = unconstrained.narrow(0, start, length);
    parts.push_back(length == 1 ? target.log_density(chunk[0]).reshape({1})
                                : target.log_density(chunk));
  }
  return at::cat(parts);
}

ApproximationDraws sample_approximation(const UnconstrainedTarget& target,
                                        const VariationalFamily& family, int64_t draws,
                                        at::Generator generator) {
  if (draws < 1) {
    throw ArgumentError("sample_approximation: argument 'draws' must be positive, got " +
                        std::to_string(draws));
  }
  at::NoGradGuard no_grad;
  ValidationGuard no_validation(false);  // the family was checked while it was fitted
  const VariationalDraws q = draw_variational(family, target.layout(), draws, generator);
  ApproximationDraws out;
  out.unconstrained = q.unconstrained.detach();
  out.log_p = log_density_at(target, out.unconstrained).detach();
  out.log_g = q.log_q.detach();
  const auto mean = family.unconstrained_mean();
  out.mean = mean ? mean->detach().to(at::kDouble).reshape({target.dimension()})
                  : out.unconstrained.mean(0);
  return out;
}

}  // namespace variate
