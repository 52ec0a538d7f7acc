// emit_call: a function of the model language by name, with functions.cpp's argument
// counts and orders.

#include "engine/tape/ops/expression_ops.h"

#include "engine/tape/program/unsupported.h"

namespace variate::tape {
namespace {

void require_arguments(const std::string& function, const std::vector<Slot>& arguments,
                       size_t count) {
  if (arguments.size() != count) {
    throw Unsupported("the tape has no kernel for " + function + " with " +
                      std::to_string(arguments.size()) + " arguments");
  }
}

}  // namespace

Slot emit_call(ProgramBuilder& builder, const std::string& function,
               const std::vector<Slot>& arguments) {
  const auto& args = arguments;
  if (has_unary_kernel(function)) {
    require_arguments(function, args, 1);
    return emit_unary(builder, function, args[0]);
  }
  const auto unary = [&](Slot (*emit_function)(ProgramBuilder&, const Slot&)) {
    require_arguments(function, args, 1);
    return emit_function(builder, args[0]);
  };
  if (function == "sum") return unary(emit_sum);
  if (function == "mean") return unary(emit_mean);
  if (function == "colmeans") return unary(emit_colmeans);
  if (function == "cholesky") return unary(emit_cholesky);
  if (function == "eye") return unary(emit_eye);
  if (function == "transpose") return unary(emit_transpose);
  if (function == "log_sum_exp") return unary(emit_log_sum_exp);
  if (function == "log_sum_exp_rows") return unary(emit_log_sum_exp_rows);
  if (function == "softmax") return unary(emit_softmax);
  if (function == "cumulative_sum") return unary(emit_cumulative_sum);
  if (function == "dot") {
    require_arguments(function, args, 2);
    return emit_dot(builder, args[0], args[1]);
  }
  if (function == "lags") {
    require_arguments(function, args, 2);
    return emit_lags(builder, args[0], args[1]);
  }
  if (function == "gp_exp_quad_cov") {
    require_arguments(function, args, 3);
    return emit_gp_exp_quad_cov(builder, args[0], args[1], args[2]);
  }
  throw Unsupported("the tape has no kernel for " + function);
}

}  // namespace variate::tape
