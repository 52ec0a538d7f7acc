#pragma once
/// Recognising observed likelihoods that a fused GLM kernel can evaluate (Stan's
/// normal_id_glm, bernoulli_logit_glm, poisson_log_glm and binomial_logit_glm, found in
/// the model rather than written by hand):
///
///   y ~ Normal(eta, sigma)        y ~ Bernoulli(logits = eta)
///   y ~ Poisson(log_rate = eta)   y ~ Binomial(n, logits = eta)
///
/// where y is data [N], sigma a scalar, n data, and eta a sum of terms of three kinds:
/// scalar expressions of the parameters (the intercept), `M @ v` with M a data matrix
/// [N, K] and v a parameter vector [K], and `s * d` or `d * s` with s a scalar parameter
/// expression and d a data vector [N] (`beta[2] * mom_iq`). The data columns become one
/// design matrix, laid out column-major once; the coefficients are evaluated per point.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/kernels/glm_log_likelihood.h"
#include "engine/model/ast.h"
#include "engine/model/value.h"

namespace variate::model {

struct FusedLikelihood {
  std::string name;  // the observed variable
  std::shared_ptr<const kernels::GlmData> data;
  /// Scalar terms of eta, summed into the intercept (may be empty).
  std::vector<const Expr*> intercept_terms;
  /// One per block of X's columns, in order: a vector (M @ v) or a scalar (s * d).
  struct Coefficient {
    const Expr* expr;
    bool scalar;
  };
  std::vector<Coefficient> coefficients;
  const Expr* sigma = nullptr;  // Normal only
};

/// What the recognizer asks of the checking run about a subexpression of the statement.
struct ExpressionProbe {
  /// Its value at the checking run's reference point.
  std::function<Value(const Expr&)> evaluate;
  /// Whether it depends on data only (asked after evaluate).
  std::function<bool(const Expr&)> is_constant;
};

/// The fused form of `statement` (an observed `~` with value `observed`), or nullopt when
/// it does not have one of the shapes above. `dtype` is the model's real dtype.
std::optional<FusedLikelihood> recognize_fused_likelihood(const RandomStmt& statement,
                                                          const at::Tensor& observed,
                                                          at::ScalarType dtype,
                                                          const ExpressionProbe& probe);

}  // namespace variate::model
