#pragma once
/// The benchmark's logistic regression written twice with the engine: in the model
/// language (bench/logistic_regression.vmod, compiled) and with the C++ random-variable
/// API. Both give an UnconstrainedTarget over beta [D].

#include <string>

#include <ATen/core/Tensor.h>

#include "engine/target/unconstrained_target.h"
#include "engine/model/compiled_model.h"

namespace variate::bench {

/// Compiles `vmod_text` with data N, D, X ([N, D], its layout kept; pass it in the
/// options' dtype to share its memory) and y ([N] int64).
/// @throws std::runtime_error carrying the compiler's report if it does not compile.
model::CompiledModel compile_vmod_logistic(const std::string& vmod_text, const at::Tensor& X,
                                           const at::Tensor& y, const model::CompileOptions& options = {});

/// The same model through the C++ API:
///   beta = Normal("beta", 0, 1, {D});  Bernoulli("y", logits(matvec(X, beta)))
/// with y observed in X's dtype, and beta cast to X's dtype so that a float32 X gives a
/// float32 target (evaluate it at a float32 theta).
UnconstrainedTarget cpp_api_logistic(const at::Tensor& X, const at::Tensor& y);

}  // namespace variate::bench
