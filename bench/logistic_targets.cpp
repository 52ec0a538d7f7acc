#include "logistic_targets.h"

#include <stdexcept>

#include <ATen/ATen.h>

#include "engine/model/compile.h"
#include "engine/variate.h"

namespace variate::bench {

namespace vt = variate;

model::CompiledModel compile_vmod_logistic(const std::string& vmod_text, const at::Tensor& X,
                                           const at::Tensor& y, const model::CompileOptions& options) {
  vt::Data data;
  data.set("N", X.size(0)).set("D", X.size(1)).set("X", X).set("y", y);
  model::CompileResult result =
      model::compile_model(model::Source("logistic_regression.vmod", vmod_text), &data, options);
  if (!result.ok() || !result.model) {
    throw std::runtime_error("logistic_regression.vmod does not compile:\n" + result.report());
  }
  return *result.model;
}

UnconstrainedTarget cpp_api_logistic(const at::Tensor& X, const at::Tensor& y) {
  vt::Data observed;
  observed.set("y", y.to(X.scalar_type()));
  // ParameterLayout::from_model discovers the parameters at float64 zeros whatever the
  // data's dtype, so beta is cast to X's dtype: without the cast a float32 X fails there
  // with "expected scalar type Double but found Float". The cast is free in float64.
  const vt::Model model = [X] {
    const auto beta = vt::Normal("beta", 0.0, 1.0, {X.size(1)});
    vt::Bernoulli("y", vt::logits(vt::matvec(X, beta.value().to(X.scalar_type()))));
  };
  vt::LogJoint log_joint = vt::make_log_joint(model, observed);
  vt::ParameterLayout layout = vt::ParameterLayout::from_model(log_joint);
  return vt::UnconstrainedTarget(std::move(log_joint), std::move(layout));
}

}  // namespace variate::bench
