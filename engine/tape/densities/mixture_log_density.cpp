// Mixture(weights, component): per element, log sum_c w_c p_c(x) by log-sum-exp over the
// components, as the family computes it (at::logsumexp over component log densities plus
// log weights); the partials are the components' weighted by their responsibilities
// exp(lp_c + log w_c - lp). The component's arguments carry a trailing component axis
// (C, or 1 for one value for all components) after rows that broadcast onto the value's.

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/mixture_components.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// Operands: 0 the weights [weight rows, C], 1 the value [n], 2.. the component's
// arguments, 5 scratch. indices: for the weights, then each argument, its row period and
// component stride. dims: n, C.
template <class Family, bool kSharedArguments>
void mixture_sink(const Instruction& op, Sweep& s) {
  constexpr int kArguments = Family::kArguments;
  const int64_t n = op.dims[0];
  const int64_t C = op.dims[1];
  const int64_t* layout = s.indices + op.index;
  const double* weights = s.values + op.in[0];
  double* weight_adjoint = s.adjoints + op.in[0];
  const double* x = s.values + op.in[1];
  double* x_adjoint = s.adjoints + op.in[1];
  const int64_t weight_rows = layout[0];
  const bool weights_vary = op.varying[0];
  const bool x_varies = op.varying[1];

  const double* arguments[kArguments];
  double* argument_adjoints[kArguments];
  bool argument_varies[kArguments];
  int64_t period[kArguments];
  int64_t component_stride[kArguments];
  int64_t width[kArguments];
  bool gradient = weights_vary || x_varies;
  for (int k = 0; k < kArguments; ++k) {
    arguments[k] = s.values + op.in[2 + k];
    argument_adjoints[k] = s.adjoints + op.in[2 + k];
    argument_varies[k] = op.varying[2 + k];
    gradient = gradient || argument_varies[k];
    period[k] = layout[2 + 2 * k];
    component_stride[k] = layout[3 + 2 * k];
    width[k] = component_stride[k] == 0 ? 1 : C;
  }

  double* log_weights = s.values + op.in[5];
  double* weight_responsibility = log_weights + weight_rows * C;
  double* shared_cache = weight_responsibility + weight_rows * C;
  double* component_lp = shared_cache + (kSharedArguments ? C * Family::kCache : 0);
  double* component_d_x = component_lp + C;
  double* component_d_a = component_d_x + C;

  for (int64_t e = 0; e < weight_rows * C; ++e) {
    log_weights[e] = std::log(weights[e]);
    weight_responsibility[e] = 0;
  }
  if constexpr (kSharedArguments) {
    for (int64_t c = 0; c < C; ++c) {
      double a[kArguments];
      for (int k = 0; k < kArguments; ++k) a[k] = arguments[k][c * component_stride[k]];
      Family::prepare(a, shared_cache + c * Family::kCache);
    }
  }

  double total = 0;
  int64_t weight_row = 0;
  int64_t row[kArguments] = {};
  for (int64_t i = 0; i < n; ++i) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < C; ++c) {
      double a[kArguments];
      for (int k = 0; k < kArguments; ++k) {
        a[k] = arguments[k][row[k] * width[k] + c * component_stride[k]];
      }
      double own_cache[Family::kCache];
      const double* cache = shared_cache + c * Family::kCache;
      if constexpr (!kSharedArguments) {
        Family::prepare(a, own_cache);
        cache = own_cache;
      }
      const double lp =
          Family::lpdf(x[i], a, cache, component_d_x[c], component_d_a + c * kArguments) +
          log_weights[weight_row * C + c];
      component_lp[c] = lp;
      if (!(lp <= max)) max = lp;
    }
    // at::logsumexp: an infinite max is not subtracted.
    const double shift = std::isinf(max) ? 0.0 : max;
    double sum = 0;
    for (int64_t c = 0; c < C; ++c) {
      component_lp[c] = std::exp(component_lp[c] - shift);  // now exp(lp_c - shift)
      sum += component_lp[c];
    }
    total += std::log(sum) + shift;
    if (gradient) {
      // exp(lp_c - lse) from the exponentials of the sum (LibTorch takes them again).
      const double inverse_sum = 1 / sum;
      for (int64_t c = 0; c < C; ++c) {
        const double responsibility = component_lp[c] * inverse_sum;
        weight_responsibility[weight_row * C + c] += responsibility;
        if (x_varies) x_adjoint[i] += responsibility * component_d_x[c];
        for (int k = 0; k < kArguments; ++k) {
          if (!argument_varies[k]) continue;
          argument_adjoints[k][row[k] * width[k] + c * component_stride[k]] +=
              responsibility * component_d_a[c * kArguments + k];
        }
      }
    }
    if (++weight_row == weight_rows) weight_row = 0;
    for (int k = 0; k < kArguments; ++k) {
      if (++row[k] == period[k]) row[k] = 0;
    }
  }
  s.lp += total;
  if (weights_vary) {
    // Through log w, as the family takes it once per weight.
    for (int64_t e = 0; e < weight_rows * C; ++e) {
      weight_adjoint[e] += weight_responsibility[e] / weights[e];
    }
  }
}

// The component stride of a component argument: its last axis is the component axis.
int64_t component_stride(const Slot& argument, int64_t C, const DensityTerm& component) {
  if (argument.shape.empty() || (argument.shape.back() == 1 && C != 1)) return 0;
  if (argument.shape.back() == C) return 1;
  throw Unsupported("the tape has no kernel for Mixture of " + component.family +
                    " with an argument of shape " + to_string(argument.shape) + " for " +
                    std::to_string(C) + " components");
}

template <class Family>
void emit_mixture_of(ProgramBuilder& builder, const DensityTerm& term, bool discrete) {
  const DensityTerm& component = *term.component;
  if (discrete) observed_values(builder, term.value, "Mixture of " + component.family);
  const Slot& weights = term.arguments[0];
  if (weights.shape.empty() ||
      static_cast<int64_t>(component.arguments.size()) != Family::kArguments) {
    throw Unsupported("the tape has no kernel for Mixture of " + component.family +
                      " with weights of shape " + to_string(weights.shape));
  }
  const int64_t C = weights.shape.back();
  const Shape& rows = term.value.shape;
  const int64_t weight_rows = row_period(weights, 1, rows, "Mixture's weights");
  std::vector<int64_t> layout = {weight_rows, 1};
  bool shared = true;
  for (const Slot& argument : component.arguments) {
    const int64_t period =
        argument.shape.empty() ? 1 : row_period(argument, 1, rows, "Mixture's " + component.family);
    layout.push_back(period);
    layout.push_back(component_stride(argument, C, component));
    shared = shared && period == 1;
  }
  Instruction op =
      sink_instruction(shared ? mixture_sink<Family, true> : mixture_sink<Family, false>, "Mixture",
                       term.value.size);
  set_operand(op, 0, weights);
  set_operand(op, 1, term.value);
  for (int k = 0; k < Family::kArguments; ++k) {
    set_operand(op, 2 + k, component.arguments[static_cast<size_t>(k)]);
  }
  const int64_t scratch =
      2 * weight_rows * C + (shared ? C * Family::kCache : 0) + C * (2 + Family::kArguments);
  set_operand(op, 5, builder.varying({scratch}));
  op.index = builder.indices(layout);
  op.dims = {term.value.size, C, 0, 0};
  builder.append(op);
}

struct ComponentKernel {
  const char* family;
  size_t parameterization;
  void (*emit)(ProgramBuilder&, const DensityTerm&, bool);
  bool discrete;
};

constexpr ComponentKernel kComponents[] = {
    {"Normal", 0, emit_mixture_of<mixture::Normal>, false},
    {"LogNormal", 0, emit_mixture_of<mixture::LogNormal>, false},
    {"StudentT", 0, emit_mixture_of<mixture::StudentT>, false},
    {"Cauchy", 0, emit_mixture_of<mixture::Cauchy>, false},
    {"Laplace", 0, emit_mixture_of<mixture::Laplace>, false},
    {"Logistic", 0, emit_mixture_of<mixture::Logistic>, false},
    {"Exponential", 0, emit_mixture_of<mixture::Exponential>, false},
    {"Gamma", 0, emit_mixture_of<mixture::Gamma>, false},
    {"Poisson", 0, emit_mixture_of<mixture::PoissonRate>, true},
    {"Poisson", 1, emit_mixture_of<mixture::PoissonLogRate>, true},
};

}  // namespace

void emit_mixture(ProgramBuilder& builder, const DensityTerm& term) {
  if (!term.component) throw Unsupported("the tape has no kernel for Mixture without a component");
  const DensityTerm& component = *term.component;
  for (const ComponentKernel& kernel : kComponents) {
    if (component.family == kernel.family &&
        component.parameterization == kernel.parameterization) {
      kernel.emit(builder, term, kernel.discrete);
      return;
    }
  }
  throw Unsupported("the tape has no kernel for Mixture of " + component.family);
}

}  // namespace variate::tape
