#pragma once
/// The `log_joint` tracer and `make_log_joint`: a model's joint log density as a function
/// of its latent values (Edward2's make_log_joint_fn).

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <ATen/core/Tensor.h>

#include "engine/core/data.h"
#include "engine/core/tracing.h"

namespace variate {

/// A model: any callable that creates named random variables.
using Model = std::function<void()>;
using ValueMap = std::map<std::string, at::Tensor>;

/// Sets each variable's value (from `values`, else `observed`, else the value the model
/// gave it) and adds its log_prob to a running total.
///
/// Batched (batch_size B): every entry of `values` holds B points, shape [B, *shape];
/// scalars are passed as [B] and reach the model as [B, 1] so that they broadcast against
/// [B, K] vectors. Observed values are not batched. The total has shape [B].
class LogJointTracer : public Tracer {
 public:
  /// Variables named in `unscored` take their values but add nothing (one part of a model
  /// whose likelihood rows are split across processes scores only its rows).
  LogJointTracer(const ValueMap& values, const Data& observed,
                 std::optional<int64_t> batch_size = std::nullopt,
                 const std::set<std::string>* unscored = nullptr);
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

  /// 0-dim, or [B] when batched.
  const at::Tensor& total() const { return total_; }

 private:
  const ValueMap& values_;
  const Data& observed_;
  std::optional<int64_t> batch_size_;
  const std::set<std::string>* unscored_;
  at::Tensor total_;
};

/// A model's joint log density at given latent values; observed variables take their
/// values from the data by name. Cheap to copy.
///
///   auto target = make_log_joint(eight_schools, data);
///   at::Tensor lp = target({{"mu", mu}, {"tau", tau}, {"theta_trans", theta_trans}});
class LogJoint {
 public:
  /// Variables named in `unscored` contribute no density (LogJointTracer).
  LogJoint(Model model, Data observed, std::set<std::string> unscored = {});

  /// 0-dim log density. @throws ArgumentError for a missing latent value or a value of
  /// the wrong shape (naming the variable, the expected and the actual shape).
  at::Tensor operator()(const ValueMap& latent_values) const;
  /// One tensor computation for B points: values [B, *shape] -> [B].
  at::Tensor operator()(const ValueMap& latent_values, int64_t batch_size) const;

  const Model& model() const { return model_; }
  const Data& observed() const { return observed_; }

 private:
  at::Tensor evaluate(const ValueMap& values, std::optional<int64_t> batch_size) const;

  Model model_;
  Data observed_;
  std::set<std::string> unscored_;
};

/// For models that take no arguments; observed values come from `observed`.
LogJoint make_log_joint(Model model, Data observed = {});

/// For models written as `f(const Data&)`: the data is both the model's argument and the
/// source of observed values (variables named like a data entry are observed).
template <class F, class = std::enable_if_t<std::is_invocable_v<F, const Data&>>>
LogJoint make_log_joint(F model, Data data) {
  Model bound = [model = std::move(model), data]() { model(data); };
  return LogJoint(std::move(bound), std::move(data));
}

}  // namespace variate
