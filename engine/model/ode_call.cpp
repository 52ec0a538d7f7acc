#include "engine/model/ode_call.h"

namespace variate::model {

std::optional<OdeForm> ode_form(const std::string& function) {
  if (function == "ode_rk45") return OdeForm{ode::OdeSolver::rk45, false};
  if (function == "ode_rk45_tol") return OdeForm{ode::OdeSolver::rk45, true};
  if (function == "ode_bdf") return OdeForm{ode::OdeSolver::bdf, false};
  if (function == "ode_bdf_tol") return OdeForm{ode::OdeSolver::bdf, true};
  return std::nullopt;
}

bool is_ode_call(const Expr& e) { return e.kind == ExprKind::call && ode_form(e.name).has_value(); }

const std::vector<std::string>& ode_function_names() {
  static const std::vector<std::string> names = {"ode_rk45", "ode_rk45_tol", "ode_bdf", "ode_bdf_tol"};
  return names;
}

std::string ode_argument_name(size_t k) { return " ode argument " + std::to_string(k); }

}  // namespace variate::model
