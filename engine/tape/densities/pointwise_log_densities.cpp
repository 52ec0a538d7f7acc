#include "engine/tape/densities/pointwise_log_densities.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "engine/tape/densities/binomial_family.h"
#include "engine/tape/densities/categorical_family.h"
#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/density_sink.h"
#include "engine/tape/densities/multivariate_sinks.h"
#include "engine/tape/densities/neg_binomial_family.h"
#include "engine/tape/densities/pointwise_families.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

// Operands as a sink's (density_sink.h): 0 the value, 1 + k argument k read at i * stride.
// As family_sink, an argument shared by all elements (and their Joint) is loaded once.
template <class Family, size_t... K>
void pointwise(const Instruction& op, Sweep& s, std::index_sequence<K...>) {
  using Joint = detail::JointTraits<Family>;
  const double* x = s.values + op.in[0];
  double* out = s.values + op.out;
  [[maybe_unused]] const std::array<bool, sizeof...(K)> vector{{(op.stride[1 + K] != 0)...}};
  [[maybe_unused]] const bool any_vector = (false || ... || vector[K]);
  typename Family::Arguments arguments;
  [[maybe_unused]] typename Joint::type joint;
  ((vector[K] ? void() : std::get<K>(arguments).load(s.values[op.in[1 + K]], false)), ...);
  if constexpr (Joint::exists) {
    if (!any_vector) joint.load(false, std::get<K>(arguments)...);
  }
  for (int64_t i = 0; i < op.n; ++i) {
    ((vector[K] ? std::get<K>(arguments).load(s.values[op.in[1 + K] + i], false) : void()), ...);
    if constexpr (Joint::exists) {
      if (any_vector) joint.load(false, std::get<K>(arguments)...);
      out[i] = Family::at(x[i], std::get<K>(arguments)..., joint).lp;
    } else {
      out[i] = Family::at(x[i], std::get<K>(arguments)...).lp;
    }
  }
}

template <class Family>
void pointwise_kernel(const Instruction& op, Sweep& s) {
  pointwise<Family>(op, s, std::make_index_sequence<std::tuple_size_v<typename Family::Arguments>>{});
}

// The sink's operands, with the output and kernel of the pointwise op.
Instruction pointwise_instruction(const DensityTerm& term, size_t arity, Kernel kernel, const Slot& out) {
  Instruction op = elementwise_operands(term, arity, "pointwise_lpdf");
  op.forward = kernel;
  op.out = out.offset;
  return op;
}

// Operands: 0 the parameter, 1 the counts k, 2 the counts f, 3 each element's data term
// (its binomial coefficient, or -inf where the value is outside the support).
template <class Mass>
void pointwise_counts_kernel(const Instruction& op, Sweep& s) {
  const double* theta = s.values + op.in[0];
  const double* k = s.values + op.in[1];
  const double* f = s.values + op.in[2];
  const double* data_term = s.values + op.in[3];
  double* out = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    double d = 0;
    out[i] = data_term[i] + Mass::term(k[i], f[i], 1.0, theta[i * op.stride[0]], d);
  }
}

template <class Mass>
void emit_pointwise_counts(ProgramBuilder& builder, const DensityTerm& term, const Slot& parameter,
                           const std::vector<double>& k, const std::vector<double>& f,
                           const std::vector<double>& data_term, const Slot& out) {
  const int64_t n = term.value.size;
  Instruction op;
  op.name = "pointwise_lpmf";
  op.forward = pointwise_counts_kernel<Mass>;
  op.out = out.offset;
  op.n = n;
  set_operand(op, 0, parameter, elementwise_stride(parameter, n, term.family + "'s parameter"));
  set_operand(op, 1, builder.constant({n}, k));
  set_operand(op, 2, builder.constant({n}, f));
  set_operand(op, 3, builder.constant({n}, data_term));
  builder.append(op);
}

void emit_pointwise_bernoulli(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  const std::vector<double> y = observed_values(builder, term.value, term.family);
  std::vector<double> failures(y.size()), data_term(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    failures[i] = 1 - y[i];
    data_term[i] = y[i] == 0 || y[i] == 1 ? 0.0 : -std::numeric_limits<double>::infinity();
  }
  if (term.parameterization == 0) {
    emit_pointwise_counts<families::BinomialProbability>(builder, term, term.arguments[0], y, failures, data_term, out);
  } else {
    emit_pointwise_counts<families::BernoulliLogit>(builder, term, term.arguments[0], y, failures, data_term, out);
  }
}

void emit_pointwise_binomial(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  const std::vector<double> k = observed_values(builder, term.value, term.family);
  const int64_t n = term.value.size;
  const std::vector<double> N = binomial_trials(builder, term.arguments[0], n);
  std::vector<double> within(k.size()), failures(k.size());
  for (size_t i = 0; i < k.size(); ++i) {
    const bool inside = is_count(k[i]) && k[i] <= N[i];
    within[i] = inside ? k[i] : 0.0;  // as log_prob: the mass at 0, then masked
    failures[i] = N[i] - within[i];
  }
  const at::Tensor Nt = at::tensor(N, at::kDouble);
  const at::Tensor kt = at::tensor(within, at::kDouble);
  const at::Tensor log_choose = (at::lgamma(Nt + 1) - at::lgamma(kt + 1) - at::lgamma(Nt - kt + 1)).contiguous();
  std::vector<double> data_term(log_choose.data_ptr<double>(), log_choose.data_ptr<double>() + n);
  for (size_t i = 0; i < k.size(); ++i) {
    if (within[i] != k[i]) data_term[i] = -std::numeric_limits<double>::infinity();
  }
  if (term.parameterization == 0) {
    emit_pointwise_counts<families::BinomialProbability>(builder, term, term.arguments[1], within, failures, data_term,
                                                         out);
  } else {
    emit_pointwise_counts<families::BinomialLogit>(builder, term, term.arguments[1], within, failures, data_term, out);
  }
}

// Operands: 0 mu and 1 phi, read at i * stride; 2 the counts; 3 each count's -log k!, or
// -inf where the value is not a count.
void pointwise_neg_binomial_2_kernel(const Instruction& op, Sweep& s) {
  const double* mu = s.values + op.in[0];
  const double* phi = s.values + op.in[1];
  const double* k = s.values + op.in[2];
  const double* data_term = s.values + op.in[3];
  double* out = s.values + op.out;
  for (int64_t i = 0; i < op.n; ++i) {
    const double m = mu[i * op.stride[0]];
    const double p = phi[i * op.stride[1]];
    double d_mu = 0, d_phi = 0;
    out[i] = data_term[i] + families::log_rising_factorial(k[i], p, families::lgamma_stirling_diff(p)).value +
             families::log_odds_terms(k[i], 1.0, m, p, d_mu, d_phi);
  }
}

void emit_pointwise_neg_binomial_2(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  if (term.parameterization != 0 || term.arguments.size() != 2) throw Unsupported("the tape has no such NegBinomial2");
  const std::vector<double> k = observed_values(builder, term.value, term.family);
  const int64_t n = term.value.size;
  const at::Tensor log_factorials = at::lgamma(at::tensor(k, at::kDouble) + 1).contiguous();
  std::vector<double> data_term(static_cast<size_t>(n));
  for (size_t i = 0; i < k.size(); ++i) {
    data_term[i] = is_count(k[i]) ? -log_factorials.data_ptr<double>()[i] : -std::numeric_limits<double>::infinity();
  }
  Instruction op;
  op.name = "pointwise_lpmf";
  op.forward = pointwise_neg_binomial_2_kernel;
  op.out = out.offset;
  op.n = n;
  set_operand(op, 0, term.arguments[0], elementwise_stride(term.arguments[0], n, "NegBinomial2's mu"));
  set_operand(op, 1, term.arguments[1], elementwise_stride(term.arguments[1], n, "NegBinomial2's phi"));
  set_operand(op, 2, builder.constant({n}, k));
  set_operand(op, 3, builder.constant({n}, data_term));
  builder.append(op);
}

// Operands: 0 the table of probabilities (or logits) [rows, K]; 1 scratch [rows, 2]. indices:
// each element's table entry, -1 for a value that is not a category. dims: n, K, rows. A
// probability's log, or a logit's log_softmax as at::log_softmax computes it,
// (x - max) - log sum exp(x - max), each row's max and log-sum found once.
template <bool kLogits>
void pointwise_categorical_kernel(const Instruction& op, Sweep& s) {
  const double* table = s.values + op.in[0];
  const int64_t* entries = s.indices + op.index;
  const int64_t K = op.dims[1];
  double* out = s.values + op.out;
  double* row_stats = s.values + op.in[1];
  if constexpr (kLogits) {
    for (int64_t r = 0; r < op.dims[2]; ++r) families::log_softmax_stats(table + r * K, K, row_stats + 2 * r);
  }
  for (int64_t i = 0; i < op.n; ++i) {
    const int64_t entry = entries[i];
    if (entry < 0) {
      out[i] = -std::numeric_limits<double>::infinity();
    } else if constexpr (kLogits) {
      const double* stats = row_stats + 2 * (entry / K);
      out[i] = (table[entry] - stats[0]) - stats[1];
    } else {
      out[i] = std::log(table[entry]);
    }
  }
}

void emit_pointwise_categorical(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  const std::vector<double> y = observed_values(builder, term.value, term.family);
  const Slot& table = term.arguments.at(0);
  if (table.shape.empty()) throw Unsupported("the tape has no kernel for Categorical of a scalar");
  const int64_t K = table.shape.back();
  const int64_t rows = row_period(table, 1, term.value.shape, "Categorical's parameter");
  std::vector<int64_t> entries(y.size(), -1);
  for (size_t i = 0; i < y.size(); ++i) {
    if (y[i] >= 1 && y[i] <= static_cast<double>(K) && y[i] == std::floor(y[i])) {
      entries[i] = (static_cast<int64_t>(i) % rows) * K + static_cast<int64_t>(y[i]) - 1;
    }
  }
  Instruction op;
  op.name = "pointwise_lpmf";
  op.forward = term.parameterization == 1 ? pointwise_categorical_kernel<true> : pointwise_categorical_kernel<false>;
  op.out = out.offset;
  op.n = term.value.size;
  op.in[0] = table.offset;
  op.in[1] = builder.varying({rows, 2}).offset;
  op.index = builder.indices(entries);
  op.dims = {term.value.size, K, rows, 0};
  builder.append(op);
}

}  // namespace

void emit_pointwise_log_density(ProgramBuilder& builder, const DensityTerm& term, const Slot& out) {
  const bool emitted = with_pointwise_family(term.family, term.parameterization, [&](auto tag) {
    using Family = typename decltype(tag)::type;
    builder.append(
        pointwise_instruction(term, std::tuple_size_v<typename Family::Arguments>, pointwise_kernel<Family>, out));
  });
  if (emitted) return;
  if (term.family == "Bernoulli") return emit_pointwise_bernoulli(builder, term, out);
  if (term.family == "Binomial") return emit_pointwise_binomial(builder, term, out);
  if (term.family == "NegBinomial2") return emit_pointwise_neg_binomial_2(builder, term, out);
  if (term.family == "Mixture") return emit_pointwise_mixture(builder, term, out);
  if (term.family == "MultiNormal") return emit_pointwise_multi_normal(builder, term, out);
  if (term.family == "Categorical") return emit_pointwise_categorical(builder, term, out);
  throw Unsupported("the tape has no pointwise log density for " + term.family);
}

}  // namespace variate::tape
