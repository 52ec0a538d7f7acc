#pragma once
/// The language's ODE solvers, in Stan's forms:
///   ode_rk45(f, y0, t0, ts, ...)                                   non-stiff (Dormand-Prince)
///   ode_rk45_tol(f, y0, t0, ts, rel_tol, abs_tol, max_num_steps, ...)
///   ode_bdf(f, y0, t0, ts, ...), ode_bdf_tol(...)                  stiff (SDIRK4)
/// f names a user function `function f(t: real, y: vector, ...): vector`; the arguments
/// after ts (or max_num_steps) are passed to f after t and y. The value is a matrix
/// [T, N]: row k is y(ts[k]). t0, ts and the tolerances are data; y0 and the passed
/// arguments may depend on parameters (gradients by forward sensitivities).
///
/// After checking, a call's operands[0] is f's body with its k-th argument renamed
/// ode_argument_name(k) (user functions in it inlined), and its types are f's argument
/// types then its result's, so every backend evaluates the right-hand side from the call.

#include <optional>
#include <string>
#include <vector>

#include "engine/model/ast.h"
#include "engine/ode/ode_solver.h"

namespace variate::model {

struct OdeForm {
  ode::OdeSolver solver = ode::OdeSolver::rk45;
  /// The _tol form: rel_tol, abs_tol and max_num_steps after ts.
  bool tolerances = false;
  /// The position of the first argument passed on to f.
  size_t first_passed() const { return tolerances ? 7 : 4; }
};

/// The form `function` names, or nullopt for a name that is no ODE solver.
std::optional<OdeForm> ode_form(const std::string& function);
/// Whether `e` calls an ODE solver.
bool is_ode_call(const Expr& e);
/// "ode_rk45", "ode_rk45_tol", "ode_bdf", "ode_bdf_tol".
const std::vector<std::string>& ode_function_names();
/// The name f's k-th argument has in a call's inlined body: one no model can spell.
std::string ode_argument_name(size_t k);

}  // namespace variate::model
