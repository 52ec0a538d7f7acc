#include "engine/model/fused_likelihood.h"

#include <ATen/ATen.h>

#include "engine/model/distribution_table.h"

namespace variate::model {
namespace {

using kernels::GlmFamily;

// The family, and which call arguments are eta, sigma and the trials.
struct FamilyMatch {
  GlmFamily family;
  const Expr* eta = nullptr;
  const Expr* sigma = nullptr;
  const Expr* trials = nullptr;
};

std::optional<FamilyMatch> match_family(const Expr& call) {
  const DistributionSignature* signature = find_distribution(call.name);
  if (!signature) return std::nullopt;
  const std::optional<BoundArguments> bound = bind_arguments(*signature, call);
  if (!bound) return std::nullopt;
  const auto argument = [&](size_t parameter) {
    return &call.arguments[bound->argument_of_parameter[parameter]].value;
  };
  const size_t which = bound->parameterization;
  if (call.name == "Normal") return FamilyMatch{GlmFamily::normal, argument(0), argument(1)};
  if (call.name == "Bernoulli" && which == 1) return FamilyMatch{GlmFamily::bernoulli_logit, argument(0)};
  if (call.name == "Poisson" && which == 1) return FamilyMatch{GlmFamily::poisson_log, argument(0)};
  if (call.name == "Binomial" && which == 1) {
    return FamilyMatch{GlmFamily::binomial_logit, argument(1), nullptr, argument(0)};
  }
  return std::nullopt;
}

void flatten_sum(const Expr& expr, std::vector<const Expr*>& terms) {
  if (expr.kind == ExprKind::binary && expr.op == BinaryOp::add) {
    flatten_sum(expr.operands[0], terms);
    flatten_sum(expr.operands[1], terms);
  } else {
    terms.push_back(&expr);
  }
}

}  // namespace

std::optional<FusedLikelihood> recognize_fused_likelihood(const RandomStmt& statement,
                                                          const at::Tensor& observed,
                                                          at::ScalarType dtype,
                                                          const ExpressionProbe& probe) {
  if (statement.constraint != Constraint::none || observed.dim() != 1) return std::nullopt;
  const std::optional<FamilyMatch> match = match_family(statement.distribution);
  if (!match) return std::nullopt;
  const int64_t N = observed.size(0);
  // A subexpression's value, and whether it is data (constant) or depends on parameters.
  const auto probe_value = [&](const Expr& e) {
    Value v = probe.evaluate(e);
    return std::make_pair(v, probe.is_constant(e));
  };

  FusedLikelihood fused;
  fused.name = statement.name;
  std::vector<at::Tensor> blocks;  // X's columns, [N, K_j] each
  std::vector<const Expr*> terms;
  flatten_sum(*match->eta, terms);
  for (const Expr* term : terms) {
    if (term->kind == ExprKind::binary && term->op == BinaryOp::matmul) {
      const auto [m, m_constant] = probe_value(term->operands[0]);
      const auto [v, v_constant] = probe_value(term->operands[1]);
      if (!m_constant || v_constant || m.rank() != 2 || v.rank() != 1 || m.tensor.size(0) != N) {
        return std::nullopt;
      }
      blocks.push_back(m.tensor.to(dtype));
      fused.coefficients.push_back({&term->operands[1], false});
      continue;
    }
    if (term->kind == ExprKind::binary && term->op == BinaryOp::multiply) {
      const auto [lhs, lhs_constant] = probe_value(term->operands[0]);
      const auto [rhs, rhs_constant] = probe_value(term->operands[1]);
      if (lhs_constant == rhs_constant) return std::nullopt;
      const Value& column = lhs_constant ? lhs : rhs;
      const Value& coefficient = lhs_constant ? rhs : lhs;
      if (column.rank() != 1 || column.tensor.size(0) != N || coefficient.rank() != 0) return std::nullopt;
      blocks.push_back(column.tensor.to(dtype).unsqueeze(1));
      fused.coefficients.push_back({lhs_constant ? &term->operands[1] : &term->operands[0], true});
      continue;
    }
    const auto [value, constant] = probe_value(*term);
    if (constant || value.rank() != 0) return std::nullopt;
    fused.intercept_terms.push_back(term);
  }
  if (blocks.empty()) return std::nullopt;  // no data in eta: nothing to fuse

  at::Tensor trials;
  if (match->sigma) {
    if (probe_value(*match->sigma).first.rank() != 0) return std::nullopt;
    fused.sigma = match->sigma;
  }
  if (match->trials) {
    const auto [n, n_constant] = probe_value(*match->trials);
    if (!n_constant || n.rank() > 1 || (n.rank() == 1 && n.tensor.size(0) != N)) return std::nullopt;
    trials = n.tensor;
  }
  // One block keeps its matrix (and its column-major layout, chosen at data binding);
  // several are joined into one design matrix.
  const at::Tensor X = blocks.size() == 1 ? blocks[0] : at::cat(blocks, 1);
  fused.data = std::make_shared<const kernels::GlmData>(
      kernels::GlmData::make(match->family, X, observed, trials));
  return fused;
}

}  // namespace variate::model
