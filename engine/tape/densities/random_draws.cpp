#include "engine/tape/densities/random_draws.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

using RandomEngine = std::mt19937_64;

// Uniform on (0, 1), never 0 or 1: 53 random bits and half a step.
double open_uniform(RandomEngine& g) { return (static_cast<double>(g() >> 11) + 0.5) * 0x1.0p-53; }
double standard_normal(RandomEngine& g) { return std::normal_distribution<double>()(g); }
double standard_gamma(RandomEngine& g, double shape) { return std::gamma_distribution<double>(shape, 1.0)(g); }
double standard_cauchy(RandomEngine& g) { return std::tan(M_PI * (open_uniform(g) - 0.5)); }
double student_t(RandomEngine& g, double nu) { return std::student_t_distribution<double>(nu)(g); }
double logistic_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

double poisson_draw(RandomEngine& g, double rate) {
  if (!(rate > 0)) return rate == 0 ? 0.0 : std::nan("");
  return static_cast<double>(std::poisson_distribution<long long>(rate)(g));
}

double binomial_draw(RandomEngine& g, double trials, double p) {
  if (!(p >= 0 && p <= 1) || !(trials >= 0)) return std::nan("");
  return static_cast<double>(std::binomial_distribution<long long>(static_cast<long long>(trials), p)(g));
}

// The index of the weight whose share of w[0..n)'s running total u (in [0, total)) falls in.
int64_t pick(const double* w, int64_t n, double u) {
  int64_t j = 0;
  for (double below = w[0]; j + 1 < n && u >= below; below += w[++j]) {
  }
  return j;
}

// One draw at the arguments a[0..arity), as the family's density defines it.
using DrawOne = double (*)(RandomEngine&, const double* a);

const std::map<std::pair<std::string, size_t>, std::pair<DrawOne, size_t>>& family_samplers() {
  static const std::map<std::pair<std::string, size_t>, std::pair<DrawOne, size_t>> table = {
      {{"Normal", 0}, {[](RandomEngine& g, const double* a) { return a[0] + a[1] * standard_normal(g); }, 2}},
      {{"HalfNormal", 0}, {[](RandomEngine& g, const double* a) { return a[0] * std::abs(standard_normal(g)); }, 1}},
      {{"Cauchy", 0}, {[](RandomEngine& g, const double* a) { return a[0] + a[1] * standard_cauchy(g); }, 2}},
      {{"HalfCauchy", 0}, {[](RandomEngine& g, const double* a) { return a[0] * std::abs(standard_cauchy(g)); }, 1}},
      {{"StudentT", 0}, {[](RandomEngine& g, const double* a) { return a[1] + a[2] * student_t(g, a[0]); }, 3}},
      {{"HalfStudentT", 0}, {[](RandomEngine& g, const double* a) { return a[1] * std::abs(student_t(g, a[0])); }, 2}},
      {{"Laplace", 0},
       {[](RandomEngine& g, const double* a) {
          const double u = open_uniform(g) - 0.5;
          return a[0] - a[1] * std::copysign(std::log1p(-2 * std::abs(u)), u);
        },
        2}},
      {{"Logistic", 0},
       {[](RandomEngine& g, const double* a) {
          const double u = open_uniform(g);
          return a[0] + a[1] * (std::log(u) - std::log1p(-u));
        },
        2}},
      {{"Exponential", 0}, {[](RandomEngine& g, const double* a) { return -std::log(open_uniform(g)) / a[0]; }, 1}},
      {{"Gamma", 0}, {[](RandomEngine& g, const double* a) { return standard_gamma(g, a[0]) / a[1]; }, 2}},
      {{"InvGamma", 0}, {[](RandomEngine& g, const double* a) { return a[1] / standard_gamma(g, a[0]); }, 2}},
      {{"LogNormal", 0},
       {[](RandomEngine& g, const double* a) { return std::exp(a[0] + a[1] * standard_normal(g)); }, 2}},
      {{"Weibull", 0},
       {[](RandomEngine& g, const double* a) { return a[1] * std::pow(-std::log(open_uniform(g)), 1.0 / a[0]); }, 2}},
      {{"Beta", 0},
       {[](RandomEngine& g, const double* a) {
          const double x = standard_gamma(g, a[0]);
          const double y = standard_gamma(g, a[1]);
          return x / (x + y);
        },
        2}},
      {{"Uniform", 0}, {[](RandomEngine& g, const double* a) { return a[0] + (a[1] - a[0]) * open_uniform(g); }, 2}},
      {{"Poisson", 0}, {[](RandomEngine& g, const double* a) { return poisson_draw(g, a[0]); }, 1}},
      {{"Poisson", 1}, {[](RandomEngine& g, const double* a) { return poisson_draw(g, std::exp(a[0])); }, 1}},
      {{"Bernoulli", 0}, {[](RandomEngine& g, const double* a) { return open_uniform(g) < a[0] ? 1.0 : 0.0; }, 1}},
      {{"Bernoulli", 1},
       {[](RandomEngine& g, const double* a) { return open_uniform(g) < logistic_sigmoid(a[0]) ? 1.0 : 0.0; }, 1}},
      {{"Binomial", 0}, {[](RandomEngine& g, const double* a) { return binomial_draw(g, a[0], a[1]); }, 2}},
      {{"Binomial", 1},
       {[](RandomEngine& g, const double* a) { return binomial_draw(g, a[0], logistic_sigmoid(a[1])); }, 2}},
      // A Poisson whose rate is Gamma(phi, phi / mu): mean mu, variance mu + mu^2 / phi.
      {{"NegBinomial2", 0},
       {[](RandomEngine& g, const double* a) { return poisson_draw(g, standard_gamma(g, a[1]) * a[0] / a[1]); }, 2}},
  };
  return table;
}

// Operands 1 + k: argument k, read at i * stride. aux: the DrawOne. dims[0]: the arity.
// Truncated: each draw repeated until it lies in [lo, hi], operands 4 and 5 read at
// i * stride (constants -inf and inf for a missing side); NaN after kTruncationTries.
template <bool kTruncated>
void draw_kernel(const Instruction& op, Sweep& s) {
  const auto draw = reinterpret_cast<DrawOne>(const_cast<void*>(op.aux));
  double* out = s.values + op.out;
  double a[3];
  for (int64_t i = 0; i < op.n; ++i) {
    for (int64_t k = 0; k < op.dims[0]; ++k) a[k] = s.values[op.in[1 + k] + i * op.stride[1 + k]];
    if constexpr (!kTruncated) {
      out[i] = draw(*s.random, a);
    } else {
      const double lo = s.values[op.in[4] + i * op.stride[4]], hi = s.values[op.in[5] + i * op.stride[5]];
      out[i] = std::nan("");
      for (int64_t tries = 0; tries < kTruncationTries; ++tries) {
        const double candidate = draw(*s.random, a);
        if (candidate >= lo && candidate <= hi) {
          out[i] = candidate;
          break;
        }
      }
    }
  }
}

// A Mixture: each element's component drawn from its row of weights, then its value from
// that component. Operands: 0 the weights [weight rows, C], 1 + k component argument k.
// indices: the weights' row period, then each argument's row period and component stride
// (the layout of the Mixture's sink). dims: C, the arity. aux: the component's DrawOne.
void mixture_draw_kernel(const Instruction& op, Sweep& s) {
  const auto draw = reinterpret_cast<DrawOne>(const_cast<void*>(op.aux));
  const int64_t C = op.dims[0], arity = op.dims[1];
  const int64_t* layout = s.indices + op.index;
  double* out = s.values + op.out;
  int64_t weight_row = 0, row[3] = {};
  double a[3];
  for (int64_t i = 0; i < op.n; ++i) {
    const double* w = s.values + op.in[0] + weight_row * C;
    double total = 0;
    for (int64_t c = 0; c < C; ++c) total += w[c];
    const int64_t c = pick(w, C, open_uniform(*s.random) * total);
    for (int64_t k = 0; k < arity; ++k) {
      const int64_t stride = layout[2 + 2 * k];
      a[k] = s.values[op.in[1 + k] + row[k] * (stride == 0 ? 1 : C) + c * stride];
      if (++row[k] == layout[1 + 2 * k]) row[k] = 0;
    }
    out[i] = draw(*s.random, a);
    if (++weight_row == layout[0]) weight_row = 0;
  }
}

// An op writing term.value.size draws into `out` by `kernel`; its operands to be set.
Instruction draw_instruction(Kernel kernel, const DensityTerm& term, const Slot& out) {
  Instruction op;
  op.name = "random_draw";
  op.forward = kernel;
  op.out = out.offset;
  op.n = term.value.size;
  return op;
}

std::pair<DrawOne, size_t> sampler_of(const DensityTerm& term) {
  const auto it = family_samplers().find({term.family, term.parameterization});
  if (it == family_samplers().end()) throw Unsupported("the tape draws no " + term.family);
  if (term.arguments.size() != it->second.second) {
    throw Unsupported("the tape's " + term.family + " draws take " + std::to_string(it->second.second) + " arguments");
  }
  return it->second;
}

void emit_mixture_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  if (!term.component) throw Unsupported("the tape draws no Mixture without a component");
  const DensityTerm& component = *term.component;
  const auto [draw, arity] = sampler_of(component);
  const Slot& weights = term.arguments.at(0);
  if (weights.shape.empty()) throw Unsupported("the tape draws no Mixture with scalar weights");
  const int64_t C = weights.shape.back();
  const Shape& rows = term.value.shape;
  std::vector<int64_t> layout = {row_period(weights, 1, rows, "Mixture's weights")};
  Instruction op = draw_instruction(mixture_draw_kernel, term, out);
  op.in[0] = weights.offset;
  for (size_t k = 0; k < arity; ++k) {
    const Slot& argument = component.arguments[k];
    layout.push_back(argument.shape.empty() ? 1 : row_period(argument, 1, rows, "Mixture's " + component.family));
    layout.push_back(mixture_component_stride(argument, C, component.family));
    op.in[1 + k] = argument.offset;
  }
  op.index = builder.indices(layout);
  op.dims = {C, static_cast<int64_t>(arity), 0, 0};
  op.aux = reinterpret_cast<const void*>(draw);
  builder.append(op);
}

// Operands: 0 the table of probabilities (or logits, constants[0] = 1) [rows, K]; 1 scratch
// [rows, K + 1]: each row's weights (exp(x - max) for logits) and their total, found once.
// dims: K, rows. Element i draws its category (1-based) from row i % rows.
void categorical_draw_kernel(const Instruction& op, Sweep& s) {
  const int64_t K = op.dims[0], rows = op.dims[1];
  const bool logits = op.constants[0] != 0;
  double* out = s.values + op.out;
  double* weights = s.values + op.in[1];
  for (int64_t r = 0; r < rows; ++r) {
    const double* x = s.values + op.in[0] + r * K;
    double* w = weights + r * (K + 1);
    const double max = logits ? *std::max_element(x, x + K) : 0.0;
    w[K] = 0;
    for (int64_t j = 0; j < K; ++j) {
      w[j] = logits ? std::exp(x[j] - max) : x[j];
      w[K] += w[j];
    }
  }
  int64_t row = 0;
  for (int64_t i = 0; i < op.n; ++i, row = row + 1 == rows ? 0 : row + 1) {
    const double* w = weights + row * (K + 1);
    out[i] = static_cast<double>(pick(w, K, open_uniform(*s.random) * w[K]) + 1);
  }
}

void emit_categorical_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  const Slot& table = term.arguments.at(0);
  if (table.shape.empty()) throw Unsupported("the tape draws no Categorical of a scalar");
  const int64_t K = table.shape.back();
  const int64_t rows = row_period(table, 1, term.value.shape, "Categorical's parameter");
  Instruction op = draw_instruction(categorical_draw_kernel, term, out);
  op.in[0] = table.offset;
  op.in[1] = builder.varying({rows, K + 1}).offset;
  op.dims = {K, rows, 0, 0};
  op.constants[0] = term.parameterization == 1 ? 1.0 : 0.0;
  builder.append(op);
}

// The op drawing each element of an event-rank-0 family from its sampler.
Instruction family_draw(const DensityTerm& term, const Slot& out) {
  const auto [draw, arity] = sampler_of(term);
  const int64_t n = term.value.size;
  Instruction op = draw_instruction(draw_kernel<false>, term, out);
  op.dims[0] = static_cast<int64_t>(arity);
  op.aux = reinterpret_cast<const void*>(draw);
  for (size_t k = 0; k < arity; ++k) {
    op.in[1 + k] = term.arguments[k].offset;
    op.stride[1 + k] = elementwise_stride(term.arguments[k], n, term.family + "'s argument " + std::to_string(k));
  }
  return op;
}

}  // namespace

void emit_truncated_draw(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                         const std::optional<Slot>& hi, const Slot& out) {
  Instruction op = family_draw(term, out);
  const int64_t n = term.value.size;
  const Slot low = lo ? *lo : builder.scalar(-std::numeric_limits<double>::infinity());
  const Slot high = hi ? *hi : builder.scalar(std::numeric_limits<double>::infinity());
  op.forward = draw_kernel<true>;
  op.in[4] = low.offset;
  op.stride[4] = elementwise_stride(low, n, "the truncation's lower bound");
  op.in[5] = high.offset;
  op.stride[5] = elementwise_stride(high, n, "the truncation's upper bound");
  builder.append(op);
}

void emit_random_draw(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  if (term.family == "Mixture") return emit_mixture_draw(builder, term, out);
  if (term.family == "MultiNormal") return emit_multi_normal_draw(builder, term, out);
  if (term.family == "Categorical") return emit_categorical_draw(builder, term, out);
  builder.append(family_draw(term, out));
}

}  // namespace variate::tape
