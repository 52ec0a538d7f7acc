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
template <class Family>
struct MixtureOperands {
  static constexpr int kArguments = kArity<Family>;

  MixtureOperands(const Instruction& op, Sweep& s)
      : n(op.dims[0]), C(op.dims[1]), weight_rows(s.indices[op.index]), weights(s.values + op.in[0]),
        weight_adjoint(s.adjoints + op.in[0]), x(s.values + op.in[1]), x_adjoint(s.adjoints + op.in[1]),
        weights_vary(op.varying[0]), x_varies(op.varying[1]) {
    const int64_t* layout = s.indices + op.index;
    gradient = weights_vary || x_varies;
    for (int k = 0; k < kArguments; ++k) {
      arguments[k] = s.values + op.in[2 + k];
      argument_adjoints[k] = s.adjoints + op.in[2 + k];
      argument_varies[k] = op.varying[2 + k];
      gradient = gradient || argument_varies[k];
      period[k] = layout[2 + 2 * k];
      component_stride[k] = layout[3 + 2 * k];
      width[k] = component_stride[k] == 0 ? 1 : C;
    }
    log_weights = s.values + op.in[5];
    weight_responsibility = log_weights + weight_rows * C;
    component_lp = weight_responsibility + weight_rows * C;
    component_d_x = component_lp + C;
    component_d_a = component_d_x + C;
    shared = component_d_a + C * kArguments;  // C components' arguments, when shared
  }

  // Component argument k's offset for an element at `row` of its period, component c.
  int64_t at(int k, int64_t row, int64_t c) const { return row * width[k] + c * component_stride[k]; }

  const int64_t n, C, weight_rows;
  const double* weights;
  double* weight_adjoint;
  const double* x;
  double* x_adjoint;
  const bool weights_vary, x_varies;
  bool gradient;
  const double* arguments[kArguments];
  double* argument_adjoints[kArguments];
  bool argument_varies[kArguments];
  int64_t period[kArguments];
  int64_t component_stride[kArguments];
  int64_t width[kArguments];
  // Scratch: log w, each weight's summed responsibilities, one element's component log
  // densities (then their exponentials) and partials, the shared arguments.
  double* log_weights;
  double* weight_responsibility;
  double* component_lp;
  double* component_d_x;
  double* component_d_a;
  double* shared;
};

// Element i's components: component_lp[c] = exp(lp_c + log w_c - shift), their partials;
// returns {shift, the sum of the exponentials} (at::logsumexp: an infinite max is not
// subtracted).
template <class Family, bool kSharedArguments>
std::pair<double, double> element_components(MixtureOperands<Family>& m, int64_t i, int64_t weight_row,
                                             const int64_t* row) {
  constexpr int kArguments = MixtureOperands<Family>::kArguments;
  double max = -std::numeric_limits<double>::infinity();
  for (int64_t c = 0; c < m.C; ++c) {
    Element e;
    if constexpr (kSharedArguments) {
      e = component_at<Family>(m.x[i], shared_arguments<Family>(m.shared, c));
    } else {
      double a[kArguments];
      for (int k = 0; k < kArguments; ++k) a[k] = m.arguments[k][m.at(k, row[k], c)];
      typename Family::Arguments own;
      load_arguments(own, a, m.argument_varies, std::make_index_sequence<kArguments>{});
      e = component_at<Family>(m.x[i], own);
    }
    const double lp = e.lp + m.log_weights[weight_row * m.C + c];
    m.component_lp[c] = lp;
    m.component_d_x[c] = e.dx;
    for (int k = 0; k < kArguments; ++k) m.component_d_a[c * kArguments + k] = e.da[static_cast<size_t>(k)];
    if (!(lp <= max)) max = lp;
  }
  const double shift = std::isinf(max) ? 0.0 : max;
  double sum = 0;
  for (int64_t c = 0; c < m.C; ++c) {
    m.component_lp[c] = std::exp(m.component_lp[c] - shift);
    sum += m.component_lp[c];
  }
  return {shift, sum};
}

// Element i's partials: the components' weighted by their responsibilities exp(lp_c - lse),
// from the exponentials of the sum (LibTorch takes them again).
template <class Family>
void add_responsibilities(MixtureOperands<Family>& m, int64_t i, int64_t weight_row, const int64_t* row,
                          double sum) {
  constexpr int kArguments = MixtureOperands<Family>::kArguments;
  const double inverse_sum = 1 / sum;
  for (int64_t c = 0; c < m.C; ++c) {
    const double responsibility = m.component_lp[c] * inverse_sum;
    m.weight_responsibility[weight_row * m.C + c] += responsibility;
    if (m.x_varies) m.x_adjoint[i] += responsibility * m.component_d_x[c];
    for (int k = 0; k < kArguments; ++k) {
      if (!m.argument_varies[k]) continue;
      m.argument_adjoints[k][m.at(k, row[k], c)] += responsibility * m.component_d_a[c * kArguments + k];
    }
  }
}

// The sink adds the elements' log densities to the sweep's, with their partials; the
// pointwise op (`log_lik`) writes each element's to op.out, without partials.
template <class Family, bool kSharedArguments, bool kPointwise>
void mixture_kernel(const Instruction& op, Sweep& s) {
  MixtureOperands<Family> m(op, s);
  constexpr int kArguments = MixtureOperands<Family>::kArguments;
  for (int64_t e = 0; e < m.weight_rows * m.C; ++e) {
    m.log_weights[e] = std::log(m.weights[e]);
    m.weight_responsibility[e] = 0;
  }
  if constexpr (kSharedArguments) {
    for (int64_t c = 0; c < m.C; ++c) {
      double a[kArguments];
      for (int k = 0; k < kArguments; ++k) a[k] = m.arguments[k][c * m.component_stride[k]];
      load_arguments(*make_shared_arguments<Family>(m.shared, c), a, m.argument_varies,
                     std::make_index_sequence<kArguments>{});
    }
  }
  double total = 0;
  int64_t weight_row = 0;
  int64_t row[kArguments] = {};
  for (int64_t i = 0; i < m.n; ++i) {
    const auto [shift, sum] = element_components<Family, kSharedArguments>(m, i, weight_row, row);
    if constexpr (kPointwise) {
      s.values[op.out + i] = std::log(sum) + shift;
    } else {
      total += std::log(sum) + shift;
      if (m.gradient) add_responsibilities(m, i, weight_row, row, sum);
    }
    if (++weight_row == m.weight_rows) weight_row = 0;
    for (int k = 0; k < kArguments; ++k) {
      if (++row[k] == m.period[k]) row[k] = 0;
    }
  }
  if constexpr (kPointwise) return;
  s.lp += total;
  if (m.weights_vary) {
    // Through log w, as the family takes it once per weight.
    for (int64_t e = 0; e < m.weight_rows * m.C; ++e) m.weight_adjoint[e] += m.weight_responsibility[e] / m.weights[e];
  }
}

// The sink, or with `out` the pointwise op writing each element's log density there.
template <class Family>
void emit_mixture_of(ProgramBuilder& builder, const DensityTerm& term, bool discrete, const Slot* out) {
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
    layout.push_back(mixture_component_stride(argument, C, component.family));
    shared = shared && period == 1;
  }
  Kernel kernel = shared ? mixture_kernel<Family, true, false> : mixture_kernel<Family, false, false>;
  if (out) kernel = shared ? mixture_kernel<Family, true, true> : mixture_kernel<Family, false, true>;
  Instruction op = sink_instruction(kernel, out ? "pointwise_lpdf" : "Mixture", term.value.size);
  if (out) {
    op.sink = false;
    op.out = out->offset;
  }
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
  void (*emit)(ProgramBuilder&, const DensityTerm&, bool, const Slot*);
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

namespace {

void emit_mixture_op(ProgramBuilder& builder, const DensityTerm& term, const Slot* out) {
  if (!term.component) throw Unsupported("the tape has no kernel for Mixture without a component");
  const DensityTerm& component = *term.component;
  for (const ComponentKernel& kernel : kComponents) {
    if (component.family == kernel.family &&
        component.parameterization == kernel.parameterization) {
      kernel.emit(builder, term, kernel.discrete, out);
      return;
    }
  }
  throw Unsupported("the tape has no kernel for Mixture of " + component.family);
}

}  // namespace

void emit_mixture(ProgramBuilder& builder, const DensityTerm& term) { emit_mixture_op(builder, term, nullptr); }

void emit_pointwise_mixture(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  emit_mixture_op(builder, term, &out);
}

}  // namespace variate::tape
