// Mixture(weights, component): per element, log sum_c w_c p_c(x) by log-sum-exp over the
// components, as the family computes it (at::logsumexp over component log densities plus
// log weights); the partials are the components' weighted by their responsibilities
// exp(lp_c + log w_c - lp). The component's arguments carry a trailing component axis
// (C, or 1 for one value for all components) after rows that broadcast onto the value's.
// A component's log density and partials are its family's own pointwise `at`, the one its
// sink evaluates (pointwise_family.h).

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/location_scale_families.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/densities/normal_family.h"
#include "engine/tape/densities/poisson_family.h"
#include "engine/tape/densities/positive_families.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

template <class Family>
constexpr int kArity = static_cast<int>(std::tuple_size_v<typename Family::Arguments>);

// Loads argument k of `arguments` from a[k]; its derivatives only where it varies.
template <class Arguments, size_t... K>
void load_arguments(Arguments& arguments, const double* a, const bool* varies, std::index_sequence<K...>) {
  (std::get<K>(arguments).load(a[K], varies[K]), ...);
}

template <class Family>
Element component_at(double x, const typename Family::Arguments& arguments) {
  return std::apply([x](const auto&... a) { return Family::at(x, a...); }, arguments);
}

// When all elements share the components' arguments, each component's are loaded once per
// evaluation, into objects made in the sink's scratch doubles: kArgumentWords of them per
// component (an argument kind holds doubles alone, so nothing needs destroying).
template <class Family>
constexpr int64_t kArgumentWords =
    static_cast<int64_t>((sizeof(typename Family::Arguments) + sizeof(double) - 1) / sizeof(double));

template <class Family>
typename Family::Arguments* make_shared_arguments(double* storage, int64_t c) {
  using Arguments = typename Family::Arguments;
  static_assert(std::is_trivially_destructible_v<Arguments> && alignof(Arguments) <= alignof(double));
  return new (storage + c * kArgumentWords<Family>) Arguments();
}

template <class Family>
const typename Family::Arguments& shared_arguments(const double* storage, int64_t c) {
  return *std::launder(reinterpret_cast<const typename Family::Arguments*>(storage + c * kArgumentWords<Family>));
}

// Operands: 0 the weights [weight rows, C], 1 the value [n], 2.. the component's
// arguments, 5 scratch. indices: for the weights, then each argument, its row period and
// component stride. dims: n, C.
template <class Family, bool kSharedArguments>
void mixture_sink(const Instruction& op, Sweep& s) {
  using Arguments = typename Family::Arguments;
  constexpr int kArguments = kArity<Family>;
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
  double* component_lp = weight_responsibility + weight_rows * C;
  double* component_d_x = component_lp + C;
  double* component_d_a = component_d_x + C;
  double* shared = component_d_a + C * kArguments;  // C components' arguments, when shared

  for (int64_t e = 0; e < weight_rows * C; ++e) {
    log_weights[e] = std::log(weights[e]);
    weight_responsibility[e] = 0;
  }
  if constexpr (kSharedArguments) {
    for (int64_t c = 0; c < C; ++c) {
      double a[kArguments];
      for (int k = 0; k < kArguments; ++k) a[k] = arguments[k][c * component_stride[k]];
      load_arguments(*make_shared_arguments<Family>(shared, c), a, argument_varies,
                     std::make_index_sequence<kArguments>{});
    }
  }

  double total = 0;
  int64_t weight_row = 0;
  int64_t row[kArguments] = {};
  for (int64_t i = 0; i < n; ++i) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < C; ++c) {
      Element e;
      if constexpr (kSharedArguments) {
        e = component_at<Family>(x[i], shared_arguments<Family>(shared, c));
      } else {
        double a[kArguments];
        for (int k = 0; k < kArguments; ++k) {
          a[k] = arguments[k][row[k] * width[k] + c * component_stride[k]];
        }
        Arguments own;
        load_arguments(own, a, argument_varies, std::make_index_sequence<kArguments>{});
        e = component_at<Family>(x[i], own);
      }
      const double lp = e.lp + log_weights[weight_row * C + c];
      component_lp[c] = lp;
      component_d_x[c] = e.dx;
      for (int k = 0; k < kArguments; ++k) component_d_a[c * kArguments + k] = e.da[static_cast<size_t>(k)];
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
      static_cast<int64_t>(component.arguments.size()) != kArity<Family>) {
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
  for (int k = 0; k < kArity<Family>; ++k) {
    set_operand(op, 2 + k, component.arguments[static_cast<size_t>(k)]);
  }
  const int64_t shared_words = shared ? C * kArgumentWords<Family> : 0;
  const int64_t scratch = 2 * weight_rows * C + C * (2 + kArity<Family>) + shared_words;
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
    {"Normal", 0, emit_mixture_of<families::Normal>, false},
    {"LogNormal", 0, emit_mixture_of<families::LogNormal>, false},
    {"StudentT", 0, emit_mixture_of<families::StudentT>, false},
    {"Cauchy", 0, emit_mixture_of<families::Cauchy>, false},
    {"Laplace", 0, emit_mixture_of<families::Laplace>, false},
    {"Logistic", 0, emit_mixture_of<families::Logistic>, false},
    {"Exponential", 0, emit_mixture_of<families::Exponential>, false},
    {"Gamma", 0, emit_mixture_of<families::Gamma>, false},
    {"Poisson", 0, emit_mixture_of<families::PoissonRate>, true},
    {"Poisson", 1, emit_mixture_of<families::PoissonLogRate>, true},
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
