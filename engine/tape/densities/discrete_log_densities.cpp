// The sinks of the discrete families: Bernoulli, Binomial, Poisson, NegBinomial2 and
// Categorical. Their values are observed counts, so everything that depends on the data
// alone (log n!, binomial coefficients, the support) is folded when the tape is built,
// with the LibTorch functions the family's log_prob calls; a parameter that is one value
// for all elements is scored through the data's sufficient statistics.

#include <ATen/ATen.h>
#include <ATen/native/Math.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "engine/distributions/parameters.h"
#include "engine/tape/densities/binomial_family.h"
#include "engine/tape/densities/categorical_family.h"
#include "engine/tape/densities/density_arguments.h"
#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/densities/neg_binomial_family.h"
#include "engine/tape/densities/poisson_family.h"
#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();
using distributions::kHalfLog2Pi;

double summed(const at::Tensor& t) { return t.sum().item<double>(); }

using families::BernoulliLogit;
using families::BinomialLogit;
using families::BinomialProbability;

// Operands: 0 the parameter. constants: the folded data terms, then the totals k, f, n.
template <class Mass>
void totals_sink(const Instruction& op, Sweep& s) {
  double d = 0;
  const double lp =
      Mass::term(op.constants[1], op.constants[2], op.constants[3], s.values[op.in[0]], d);
  s.lp += op.constants[0] + lp;
  if (op.varying[0]) s.adjoints[op.in[0]] += d;
}

// Operands: 0 the parameter (one per element), 1 the counts k, 2 the counts f.
template <class Mass, bool kGradient>
void elementwise_sink(const Instruction& op, Sweep& s) {
  const double* theta = s.values + op.in[0];
  const double* k = s.values + op.in[1];
  const double* f = s.values + op.in[2];
  double* adjoint = s.adjoints + op.in[0];
  double total = 0;
  for (int64_t i = 0; i < op.n; ++i) {
    double d = 0;
    total += Mass::term(k[i], f[i], 1.0, theta[i], d);
    if constexpr (kGradient) adjoint[i] += d;
  }
  s.lp += op.constants[0] + total;
}

template <class Mass>
Kernel elementwise_kernel(bool gradient) {
  return gradient ? elementwise_sink<Mass, true> : elementwise_sink<Mass, false>;
}

double total(const std::vector<double>& x) {
  double t = 0;
  for (double v : x) t += v;
  return t;
}

// One sink for k successes and f = N - k failures per element (f unused by Poisson).
// `name` is the sink's (a literal: instructions outlive the term).
template <class Mass>
void emit_counts(ProgramBuilder& builder, const char* name, const DensityTerm& term,
                 const Slot& parameter, const std::vector<double>& k, const std::vector<double>& f,
                 double folded) {
  const int64_t n = term.value.size;
  const int64_t stride = elementwise_stride(parameter, n, term.family + "'s parameter");
  if (stride == 0) {
    Instruction op = sink_instruction(totals_sink<Mass>, name, n);
    set_operand(op, 0, parameter, 0);
    op.constants = {folded, total(k), total(f), static_cast<double>(n)};
    builder.append(op);
    return;
  }
  Instruction op = sink_instruction(elementwise_kernel<Mass>(parameter.varying), name, n);
  set_operand(op, 0, parameter);
  set_operand(op, 1, builder.constant({n}, k));
  set_operand(op, 2, builder.constant({n}, f));
  op.constants[0] = folded;
  builder.append(op);
}

void emit_bernoulli(ProgramBuilder& builder, const DensityTerm& term) {
  const std::vector<double> y = observed_values(builder, term.value, term.family);
  std::vector<double> failures(y.size());
  // Values other than 0 and 1 have no mass (log_prob's mask with validation on).
  double folded = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (y[i] != 0 && y[i] != 1) folded = kMinusInfinity;
    failures[i] = 1 - y[i];
  }
  if (term.parameterization == 0) {
    emit_counts<BinomialProbability>(builder, "Bernoulli", term, term.arguments[0], y, failures,
                                     folded);
  } else {
    emit_counts<BernoulliLogit>(builder, "Bernoulli", term, term.arguments[0], y, failures, folded);
  }
}

void emit_binomial(ProgramBuilder& builder, const DensityTerm& term) {
  const std::vector<double> k = observed_values(builder, term.value, term.family);
  const std::vector<double> N = binomial_trials(builder, term.arguments[0], term.value.size);
  std::vector<double> failures(k.size());
  bool inside = true;
  for (size_t i = 0; i < k.size(); ++i) {
    inside = inside && is_count(k[i]) && k[i] <= N[i];
    failures[i] = N[i] - k[i];
  }
  double folded = kMinusInfinity;
  if (inside) {
    const at::Tensor Nt = at::tensor(N, at::kDouble);
    const at::Tensor kt = at::tensor(k, at::kDouble);
    folded = summed(at::lgamma(Nt + 1) - at::lgamma(kt + 1) - at::lgamma(Nt - kt + 1));
  }
  if (term.parameterization == 0) {
    emit_counts<BinomialProbability>(builder, "Binomial", term, term.arguments[1], k, failures,
                                     folded);
  } else {
    emit_counts<BinomialLogit>(builder, "Binomial", term, term.arguments[1], k, failures, folded);
  }
}

// -sum log k!, or -inf when a value is not a count.
double minus_log_factorials(const std::vector<double>& k) {
  if (!std::all_of(k.begin(), k.end(), is_count)) return kMinusInfinity;
  return -summed(at::lgamma(at::tensor(k, at::kDouble) + 1));
}

void emit_poisson(ProgramBuilder& builder, const DensityTerm& term) {
  const std::vector<double> k = observed_values(builder, term.value, term.family);
  const double folded = minus_log_factorials(k);
  if (term.parameterization == 0) {
    emit_counts<families::PoissonRateMass>(builder, "Poisson", term, term.arguments[0], k, k, folded);
  } else {
    emit_counts<families::PoissonLogRateMass>(builder, "Poisson", term, term.arguments[0], k, k, folded);
  }
}

// NegBinomial2 ---------------------------------------------------------------------------

using families::lgamma_stirling_diff;
using families::log_odds_terms;
using families::log_rising_factorial;
using families::StirlingDiff;

// phi shared by all elements: the rising factorials depend on the count alone, so they
// are taken once per distinct count. Operands: 0 mu, 1 phi, 2 the counts, 3 the distinct
// counts. indices: how often each distinct count occurs. dims[0]: distinct counts.
// constants: -sum log k! (or -inf), the total count.
template <bool kSharedMu>
void neg_binomial_2_shared_phi_sink(const Instruction& op, Sweep& s) {
  const double* mu = s.values + op.in[0];
  const double phi = s.values[op.in[1]];
  const double* k = s.values + op.in[2];
  const double* distinct = s.values + op.in[3];
  const int64_t* multiplicity = s.indices + op.index;
  double* mu_adjoint = s.adjoints + op.in[0];
  const bool mu_varies = op.varying[0];
  const StirlingDiff at_phi = lgamma_stirling_diff(phi);
  double lp = 0;
  double d_phi = 0;
  for (int64_t d = 0; d < op.dims[0]; ++d) {
    const StirlingDiff rising = log_rising_factorial(distinct[d], phi, at_phi);
    const auto count = static_cast<double>(multiplicity[d]);
    lp += count * rising.value;
    d_phi += count * rising.derivative;
  }
  double d_mu = 0;
  double d_phi_i = 0;
  if constexpr (kSharedMu) {
    lp += log_odds_terms(op.constants[1], static_cast<double>(op.n), mu[0], phi, d_mu, d_phi_i);
    d_phi += d_phi_i;
    if (mu_varies) mu_adjoint[0] += d_mu;
  } else {
    for (int64_t i = 0; i < op.n; ++i) {
      lp += log_odds_terms(k[i], 1.0, mu[i], phi, d_mu, d_phi_i);
      d_phi += d_phi_i;
      if (mu_varies) mu_adjoint[i] += d_mu;
    }
  }
  if (op.varying[1]) s.adjoints[op.in[1]] += d_phi;
  s.lp += op.constants[0] + lp;
}

// phi per element. Operands: 0 mu, 1 phi, 2 the counts. constants[0]: -sum log k!.
void neg_binomial_2_sink(const Instruction& op, Sweep& s) {
  const double* mu = s.values + op.in[0];
  const double* phi = s.values + op.in[1];
  const double* k = s.values + op.in[2];
  double* mu_adjoint = s.adjoints + op.in[0];
  double* phi_adjoint = s.adjoints + op.in[1];
  const int64_t mu_stride = op.stride[0];
  const bool mu_varies = op.varying[0];
  const bool phi_varies = op.varying[1];
  double lp = 0;
  for (int64_t i = 0; i < op.n; ++i) {
    const StirlingDiff rising = log_rising_factorial(k[i], phi[i], lgamma_stirling_diff(phi[i]));
    double d_mu = 0;
    double d_phi = 0;
    lp += rising.value + log_odds_terms(k[i], 1.0, mu[i * mu_stride], phi[i], d_mu, d_phi);
    if (mu_varies) mu_adjoint[i * mu_stride] += d_mu;
    if (phi_varies) phi_adjoint[i] += rising.derivative + d_phi;
  }
  s.lp += op.constants[0] + lp;
}

void emit_neg_binomial_2(ProgramBuilder& builder, const DensityTerm& term) {
  const std::vector<double> k = observed_values(builder, term.value, term.family);
  const int64_t n = term.value.size;
  const Slot& mu = term.arguments[0];
  const Slot& phi = term.arguments[1];
  const int64_t mu_stride = elementwise_stride(mu, n, "NegBinomial2's mu");
  const int64_t phi_stride = elementwise_stride(phi, n, "NegBinomial2's phi");
  Instruction op = sink_instruction(neg_binomial_2_sink, "NegBinomial2", n);
  if (phi_stride == 0) {
    op.forward = mu_stride == 0 ? neg_binomial_2_shared_phi_sink<true>
                                : neg_binomial_2_shared_phi_sink<false>;
    std::map<double, int64_t> multiplicity;
    for (double count : k) ++multiplicity[count];
    std::vector<double> distinct;
    std::vector<int64_t> times;
    for (const auto& [count, occurrences] : multiplicity) {
      distinct.push_back(count);
      times.push_back(occurrences);
    }
    set_operand(op, 3, builder.constant({static_cast<int64_t>(distinct.size())}, distinct));
    op.index = builder.indices(times);
    op.dims[0] = static_cast<int64_t>(distinct.size());
    op.constants[1] = total(k);
  }
  set_operand(op, 0, mu, mu_stride);
  set_operand(op, 1, phi, phi_stride);
  set_operand(op, 2, builder.constant({n}, k));
  op.constants[0] = minus_log_factorials(k);
  builder.append(op);
}

// Categorical ----------------------------------------------------------------------------
//
// The data picks entries of the table of probabilities (or logits), one row of K per
// element or one for all: the sink sums over the picked entries with their counts
// (indices: `dims[0]` pairs of table offset and count, then the picks per table row).

// Operands: 0 theta. constants[0]: 0, or -inf when a value is not a category.
void categorical_probability_sink(const Instruction& op, Sweep& s) {
  const double* theta = s.values + op.in[0];
  double* adjoint = s.adjoints + op.in[0];
  const int64_t* picks = s.indices + op.index;
  const bool varies = op.varying[0];
  double total = 0;
  for (int64_t e = 0; e < op.dims[0]; ++e) {
    const double p = theta[picks[2 * e]];
    const auto count = static_cast<double>(picks[2 * e + 1]);
    total += count * std::log(p);
    if (varies) adjoint[picks[2 * e]] += count / p;
  }
  s.lp += op.constants[0] + total;
}

// Operands: 0 the logits [rows, K], 1 scratch [rows, 2]: each row's max and log-sum of
// exp, as at::log_softmax computes log p = (x - max) - log sum exp(x - max).
void categorical_logit_sink(const Instruction& op, Sweep& s) {
  const double* logits = s.values + op.in[0];
  double* adjoint = s.adjoints + op.in[0];
  double* row_stats = s.values + op.in[1];
  const int64_t* picks = s.indices + op.index;
  const int64_t* row_picks = picks + 2 * op.dims[0];
  const int64_t rows = op.dims[1];
  const int64_t K = op.dims[2];
  for (int64_t r = 0; r < rows; ++r) {
    if (row_picks[r] != 0) families::log_softmax_stats(logits + r * K, K, row_stats + 2 * r);
  }
  double total = 0;
  for (int64_t e = 0; e < op.dims[0]; ++e) {
    const int64_t offset = picks[2 * e];
    const double* stats = row_stats + 2 * (offset / K);
    total += static_cast<double>(picks[2 * e + 1]) * (logits[offset] - stats[0] - stats[1]);
  }
  s.lp += op.constants[0] + total;
  if (!op.varying[0]) return;
  // d/dx_rj = picks of (r, j) - picks of row r * softmax_rj.
  for (int64_t e = 0; e < op.dims[0]; ++e) {
    adjoint[picks[2 * e]] += static_cast<double>(picks[2 * e + 1]);
  }
  for (int64_t r = 0; r < rows; ++r) {
    if (row_picks[r] == 0) continue;
    const double* x = logits + r * K;
    const double* stats = row_stats + 2 * r;
    const auto count = static_cast<double>(row_picks[r]);
    for (int64_t j = 0; j < K; ++j) {
      adjoint[r * K + j] -= count * std::exp(x[j] - stats[0] - stats[1]);
    }
  }
}

void emit_categorical(ProgramBuilder& builder, const DensityTerm& term) {
  const std::vector<double> y = observed_values(builder, term.value, term.family);
  const Slot& table = term.arguments[0];
  if (table.shape.empty()) throw Unsupported("the tape has no kernel for Categorical of a scalar");
  const int64_t K = table.shape.back();
  const int64_t rows = row_period(table, 1, term.value.shape, "Categorical's parameter");
  // Picks per table entry, in the order of the table.
  std::map<int64_t, int64_t> counts;
  std::vector<int64_t> row_picks(static_cast<size_t>(rows), 0);
  double folded = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (!(y[i] >= 1 && y[i] <= static_cast<double>(K) && y[i] == std::floor(y[i]))) {
      folded = kMinusInfinity;
      continue;
    }
    const int64_t row = static_cast<int64_t>(i) % rows;
    ++counts[row * K + static_cast<int64_t>(y[i]) - 1];
    ++row_picks[static_cast<size_t>(row)];
  }
  std::vector<int64_t> picks;
  for (const auto& [offset, count] : counts) {
    picks.push_back(offset);
    picks.push_back(count);
  }
  const bool logits = term.parameterization == 1;
  Instruction op = sink_instruction(logits ? categorical_logit_sink : categorical_probability_sink,
                                    "Categorical", term.value.size);
  set_operand(op, 0, table);
  if (logits) {
    set_operand(op, 1, builder.varying({rows, 2}));
    picks.insert(picks.end(), row_picks.begin(), row_picks.end());
  }
  op.index = builder.indices(picks);
  op.dims = {static_cast<int64_t>(counts.size()), rows, K, 0};
  op.constants[0] = folded;
  builder.append(op);
}

}  // namespace

bool emit_discrete_log_density(ProgramBuilder& builder, const DensityTerm& term) {
  if (term.family == "Bernoulli") {
    emit_bernoulli(builder, term);
  } else if (term.family == "Binomial") {
    emit_binomial(builder, term);
  } else if (term.family == "Poisson") {
    emit_poisson(builder, term);
  } else if (term.family == "NegBinomial2") {
    emit_neg_binomial_2(builder, term);
  } else if (term.family == "Categorical") {
    emit_categorical(builder, term);
  } else {
    return false;
  }
  return true;
}

}  // namespace variate::tape
