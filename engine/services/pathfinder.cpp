#include "engine/services/pathfinder.h"

#include <random>

#include <ATen/ATen.h>

#include "engine/diagnostics/psis.h"
#include "engine/services/approximation_draws.h"
#include "engine/services/approximation_record.h"
#include "engine/services/bound_run.h"
#include "engine/services/run_record.h"
#include "engine/services/setting_table.h"

namespace variate::services {
namespace {

PathfinderOptions pathfinder_options(const Settings& s, uint64_t seed) {
  PathfinderOptions options = PathfinderOptions()
                                  .seed(seed)
                                  .num_paths(s.get(setting::num_paths))
                                  .num_draws(s.get(setting::path_draws))
                                  .num_psis_draws(s.get(setting::psis_draws))
                                  .psis_resample(s.get(setting::psis_resample))
                                  .num_elbo_draws(s.get(setting::elbo_draws));
  options.lbfgs().max_iterations(s.get(setting::path_iter)).history_size(s.get(setting::history_size));
  return options;
}

nlohmann::ordered_json pathfinder_json(const PathfinderRunResult& r) {
  nlohmann::ordered_json paths = nlohmann::ordered_json::array();
  for (const PathResult& path : r.fit.paths) {
    nlohmann::ordered_json elbo = nlohmann::ordered_json::array();
    for (const double e : path.elbo) elbo.push_back(finite_json(e));  // none scored (-inf): null
    paths.push_back({{"path", path.path + 1},
                     {"failure", path.failure},
                     {"lbfgs", describe(path.lbfgs_status)},
                     {"iterations", path.iterations},
                     {"best_iteration", path.best_iteration},
                     {"best_elbo", finite_json(path.best_elbo)},
                     {"gradient_evaluations", path.gradient_evaluations},
                     {"elbo", elbo}});  // at L-BFGS iterations 1, 2, ...
  }
  return {{"paths", paths},
          {"draws", r.fit.draws.size(0)},
          {"psis_resample", r.resampled},
          {"pareto_k", k_hat_json(r.fit.pareto_k)},
          {"pareto_k_ok", r.fit.pareto_k <= diagnostics::kPsisKHatThreshold},
          {"gradient_evaluations", r.fit.gradient_evaluations},
          {"seconds", r.fit.seconds_paths + r.fit.seconds_psis}};
}

// The draws' rows, densities, summary and document.
void summarize(const BoundModel& model, PathfinderRunResult& r) {
  r.rows = model.columns.rows(tensor_rows(r.fit.draws));
  const at::Tensor p = r.fit.log_p.to(at::kDouble).contiguous(), q = r.fit.log_q.to(at::kDouble).contiguous();
  r.log_p.assign(p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
  r.log_q.assign(q.data_ptr<double>(), q.data_ptr<double>() + q.numel());
  r.summary = summarize_draws(r.rows, model.columns.names(NameStyle::Bracketed));
  r.document = io::summary_document(r.summary, std::nullopt, r.facts.backend);
  r.document["pathfinder"] = pathfinder_json(r);
}

}  // namespace

PathfinderRunResult run_pathfinder(const RunSpec& spec, const RunObservers& observers) {
  const Settings& s = spec.settings;
  if (spec.record.project) check_data_fits_project(spec.data);
  const BoundModel model = spec.model->bind(spec.data, compile_choice(s));
  require_parameters(model, "Pathfinder");
  if (!model.backend_note.empty()) observers.tell_note("the density runs on LibTorch: " + model.backend_note);
  PathfinderRunResult r;
  r.facts = {model.target.backend(), 1, s.get(setting::seed).value_or(std::random_device{}()), s.get(setting::device),
             model.backend_note};
  r.names = model.columns.names(NameStyle::StanCsv);
  r.resampled = s.get(setting::num_paths) > 1 && s.get(setting::psis_resample);
  ApproximationRecord record(spec, model, r.facts, observers);
  r.run_id = record.run_id();
  try {
    const auto progress = [&observers](int path, int iteration, double elbo) {
      if (observers.paths) observers.paths(path, iteration, elbo);
      observers.wait_while_paused();  // pausing holds the path here, between its approximations
    };
    try {
      r.fit = pathfinder(model.target, pathfinder_options(s, r.facts.seed), progress, observers.stop_flag());
    } catch (const ArgumentError& e) {
      if (!observers.stop_requested()) throw;
      r.stopped = r.stopped_before_draws = true;
      record.finish(store::RunStatus::stopped, "stopped before any path found an approximation", {});
      return r;
    }
    r.stopped = observers.stop_requested();
    summarize(model, r);
    const int64_t n = r.fit.draws.size(0);
    record.draws(r.rows, r.fit.log_p, r.fit.log_q, tensor_rows(r.fit.draws[n - 1].reshape({1, -1})).front(), r.stopped);
    record.finish(r.stopped ? store::RunStatus::stopped : store::RunStatus::finished, "", r.document);
    return r;
  } catch (const std::exception& e) {
    record.fail(e.what());
    throw;
  }
}

}  // namespace variate::services
