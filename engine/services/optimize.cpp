#include "engine/services/optimize.h"

#include <cmath>
#include <limits>
#include <random>

#include <ATen/ATen.h>

#include "engine/diagnostics/psis.h"
#include "engine/optimize/hessian.h"
#include "engine/optimize/laplace.h"
#include "engine/optimize/maximum_likelihood.h"
#include "engine/services/approximation_draws.h"
#include "engine/services/approximation_record.h"
#include "engine/services/bound_run.h"
#include "engine/services/run_record.h"
#include "engine/services/setting_table.h"

namespace variate::services {
namespace {

ModeOptions mode_options(const Settings& s, bool jacobian, uint64_t seed) {
  ModeOptions options;
  options.jacobian = jacobian;
  options.seed = seed;
  options.newton_polish = s.get(setting::newton);
  options.lbfgs = LbfgsOptions()
                      .max_iterations(s.get(setting::lbfgs_iter))
                      .history_size(s.get(setting::history_size))
                      .init_alpha(s.get(setting::init_alpha))
                      .tol_obj(s.get(setting::tol_obj))
                      .tol_rel_obj(s.get(setting::lbfgs_tol_rel_obj))
                      .tol_grad(s.get(setting::tol_grad))
                      .tol_rel_grad(s.get(setting::tol_rel_grad))
                      .tol_param(s.get(setting::tol_param));
  return options;
}

nlohmann::ordered_json mode_json(const Settings& s, const OptimizeResult& r) {
  const LbfgsResult& lbfgs = r.mode.lbfgs;
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (size_t k = 0; k < r.bracketed.size(); ++k) values[r.bracketed[k]] = r.mode_row[k];
  nlohmann::ordered_json trace = nlohmann::ordered_json::array();
  for (const double value : r.trace) trace.push_back(finite_json(value));
  return {{"status", r.converged ? "converged" : r.stopped ? "stopped" : "not_converged"},
          {"message", describe(lbfgs.status)},
          {"mle", s.get(setting::mle)},
          {"jacobian", r.jacobian},
          {"iterations", lbfgs.iterations},
          {"evaluations", lbfgs.evaluations},
          {"log_density", r.mode.log_density},
          {"newton_steps", r.mode.newton_steps},
          {"newton_decrement", finite_json(r.mode.newton_decrement)},
          {"seconds", r.mode.seconds},
          {"mode", values},
          {"unconstrained_mode", lbfgs.x},
          {"trace", trace}};
}

// Draws from the Laplace approximation at the mode, their summary and k-hat.
void laplace(const UnconstrainedTarget& target, const BoundModel& model, int draws, OptimizeResult& r) {
  const HessianResult hessian = log_density_hessian(target, r.mode.lbfgs.x, r.jacobian);
  r.hessian_method = hessian.method;
  const LaplaceApproximation approximation(r.mode.lbfgs.x, hessian.hessian);  // throws at a saddle
  const LaplaceApproximation::Draws laplace = approximation.draw(target, draws, r.jacobian, r.facts.seed);
  r.draw_rows = model.columns.rows(tensor_rows(laplace.unconstrained));
  const at::Tensor p = laplace.log_p.to(at::kDouble).contiguous(), g = laplace.log_g.to(at::kDouble).contiguous();
  r.log_p.assign(p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
  r.log_g.assign(g.data_ptr<double>(), g.data_ptr<double>() + g.numel());
  r.summary = summarize_draws(*r.draw_rows, r.bracketed);
  if (r.jacobian) r.k_hat = importance_k_hat(laplace.log_p, laplace.log_g);
}

nlohmann::ordered_json document_of(const Settings& s, const OptimizeResult& r) {
  nlohmann::ordered_json document = r.summary.empty() ? nlohmann::ordered_json::object()
                                                      : io::summary_document(r.summary, std::nullopt, r.facts.backend);
  document["optimize"] = mode_json(s, r);
  if (r.draw_rows) {
    document["laplace"] = {{"draws", s.get(setting::laplace_draws)},
                           {"hessian", r.hessian_method},
                           {"pareto_k", k_hat_json(r.k_hat)},
                           {"pareto_k_ok", r.jacobian && r.k_hat <= diagnostics::kPsisKHatThreshold}};
  }
  return document;
}

// The project's draws: the Laplace draws, or the mode alone (it has no approximation's
// density).
void record_draws(ApproximationRecord& record, const OptimizeResult& r) {
  if (r.draw_rows) {
    record.draws(*r.draw_rows, at::tensor(r.log_p, at::kDouble), at::tensor(r.log_g, at::kDouble), r.mode.lbfgs.x,
                 false);
    return;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  record.draws({r.mode_row}, at::full({1}, r.mode.log_density, at::kDouble), at::full({1}, nan, at::kDouble),
               r.mode.lbfgs.x, r.stopped);
}

}  // namespace

OptimizeResult run_optimize(const RunSpec& spec, const RunObservers& observers) {
  const Settings& s = spec.settings;
  OptimizeResult r;
  r.jacobian = uses_jacobian(s);
  if (s.get(setting::mle) && r.jacobian) {
    throw ArgumentError("--mle maximizes the likelihood of the constrained parameters: it takes no --jacobian");
  }
  if (spec.record.project) check_data_fits_project(spec.data);
  const BoundModel model = spec.model->bind(spec.data, compile_choice(s));
  require_parameters(model, "L-BFGS");
  if (!model.backend_note.empty()) observers.tell_note("the density runs on LibTorch: " + model.backend_note);
  const UnconstrainedTarget target = s.get(setting::mle) ? likelihood_only(model.target) : model.target;
  r.facts = {target.backend(), 1, s.get(setting::seed).value_or(std::random_device{}()), s.get(setting::device),
             model.backend_note};
  r.names = model.columns.names(NameStyle::StanCsv);
  r.bracketed = model.columns.names(NameStyle::Bracketed);
  ApproximationRecord record(spec, model, r.facts, observers);
  r.run_id = record.run_id();
  try {
    r.mode = find_mode(target, mode_options(s, r.jacobian, r.facts.seed), observers.stop_flag(),
                       [&observers, &r](const LbfgsIterate& iterate) {
                         r.trace.push_back(-iterate.value);  // L-BFGS minimizes the negative log density
                         if (observers.lbfgs) observers.lbfgs(iterate);
                         observers.wait_while_paused();  // pausing holds L-BFGS here, between iterations
                         return !observers.stop_requested();
                       });
    r.converged = converged(r.mode.lbfgs.status);
    r.stopped = r.mode.lbfgs.status == LbfgsStatus::stopped;
    r.mode_row = model.columns.rows({r.mode.lbfgs.x}).front();
    if (r.converged && s.get(setting::laplace_draws) > 0) laplace(target, model, s.get(setting::laplace_draws), r);
    if (!r.converged && !r.stopped) {
      r.failure = "L-BFGS did not converge (" + describe(r.mode.lbfgs.status) + "): " +
                  (s.get(setting::laplace_draws) > 0 ? "no Laplace draws; " : "") + "the run records where it ended";
    }
    r.document = document_of(s, r);
    record_draws(record, r);
    record.finish(r.stopped ? store::RunStatus::stopped : r.failure.empty() ? store::RunStatus::finished
                                                                            : store::RunStatus::failed,
                  r.failure, r.document);
    return r;
  } catch (const std::exception& e) {
    record.fail(e.what());
    throw;
  }
}

}  // namespace variate::services
