// A Pathfinder run on the engine thread, as `variate pathfinder` runs it (Zhang, Carpenter,
// Gelman & Vehtari 2022): single paths from independent random starts, their draws pooled
// and resampled by Pareto smoothed importance weights (pathfinder/pathfinder.h), recorded as
// the run's one chain with the PSIS k-hat of the pooled draws stored beside the summary.
// A stop ends the path under way at its next L-BFGS iteration and skips the rest.

#include <cmath>

#include <ATen/ATen.h>

#include <QJsonArray>
#include <QJsonObject>

#include "engine/core/argument_error.h"
#include "engine/pathfinder/pathfinder.h"
#include "engine/store/project.h"

#include "ui/engine/approximation_draws.h"
#include "ui/engine/compiled_request.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

QJsonValue finite(double x) { return std::isfinite(x) ? QJsonValue(x) : QJsonValue(QJsonValue::Null); }

QString pathLine(const PathResult& path, int paths) {
  const QString name = QObject::tr("Pathfinder path %1 of %2").arg(path.path + 1).arg(paths);
  if (!path.failure.empty()) return QObject::tr("%1 failed: %2").arg(name, QString::fromStdString(path.failure));
  return QObject::tr("%1: best ELBO %2 at iteration %3 of %4 (L-BFGS: %5), %6 evaluations")
      .arg(name)
      .arg(path.best_elbo, 0, 'g', 6)
      .arg(path.best_iteration)
      .arg(path.iterations)
      .arg(QString::fromStdString(describe(path.lbfgs_status)))
      .arg(path.gradient_evaluations);
}

}  // namespace

RunOutcome runPathfinder(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::unique_ptr<store::Project> project;
  try {
    checkDevice(request.config.device);
    const CompiledRequest compiled = compileRequest(request);
    const UnconstrainedTarget target = *compiled.target;
    project = std::make_unique<store::Project>(request.projectPath.toStdString());
    outcome.runId = project->create_run(runSpec(request, compiled, approximationColumns(compiled)));
    context.started(RunStart{outcome.runId, compiled.bracketedNames, compiled.parameterColumns});

    const RunConfig& config = request.config;
    // Each path draws as many as the run keeps: one path's draws are the run's, several
    // are pooled and resampled to that many.
    const PathfinderOptions options = PathfinderOptions()
                                          .seed(config.seed)
                                          .num_paths(config.paths)
                                          .num_draws(config.outputDraws)
                                          .num_psis_draws(config.outputDraws);
    int current = -1;
    const auto observer = [&](int path, int, double) {
      if (path != current) {
        current = path;
        context.log(QObject::tr("Pathfinder path %1 of %2: scoring the approximations along its L-BFGS path")
                        .arg(path + 1)
                        .arg(config.paths));
      }
      context.control.waitWhilePaused();  // pausing holds the path here, between its approximations
    };
    PathfinderResult fit;
    try {
      fit = pathfinder(target, options, observer, context.control.stopFlag());
    } catch (const ArgumentError& e) {
      if (!context.control.stopRequested()) throw;
      // Stopped before any path found an approximation: a stopped run without draws.
      outcome.status = RunStatus::Stopped;
      outcome.message = QObject::tr("stopped before any path found an approximation");
      project->finish_run(outcome.runId, store::RunStatus::stopped, outcome.message.toStdString());
      context.log(QString::fromStdString(e.what()));
      return outcome;
    }
    for (const PathResult& path : fit.paths) context.log(pathLine(path, config.paths));
    const bool stopped = context.control.stopRequested();
    const bool resampled = config.paths > 1;
    context.log(QObject::tr("Pathfinder: %1 draws%2 from %3 path(s), %4 evaluations of the log density")
                    .arg(fit.draws.size(0))
                    .arg(resampled ? QObject::tr(" resampled by Pareto smoothed importance weights") : QString())
                    .arg(fit.paths.size())
                    .arg(fit.gradient_evaluations));
    const std::vector<double> last = positionsOf(fit.draws[fit.draws.size(0) - 1].reshape({1, -1})).front();
    recordApproximationDraws(*project, outcome.runId, compiled, fit.draws, fit.log_p, fit.log_q, last, stopped,
                             context.mailbox);

    ApproximationCheck check;
    check.paretoK = fit.pareto_k;
    context.log(kHatText(fit.pareto_k) + QObject::tr(" (the importance ratios p/q of the pooled draws)"));
    QJsonArray paths;
    for (const PathResult& path : fit.paths) {
      paths.append(QJsonObject{{"path", path.path + 1},
                               {"failure", QString::fromStdString(path.failure)},
                               {"lbfgs", QString::fromStdString(describe(path.lbfgs_status))},
                               {"iterations", path.iterations},
                               {"best_iteration", path.best_iteration},
                               {"best_elbo", finite(path.best_elbo)},
                               {"gradient_evaluations", static_cast<double>(path.gradient_evaluations)}});
    }
    QJsonObject record{{"paths", paths},
                       {"draws", static_cast<double>(fit.draws.size(0))},
                       {"psis_resample", resampled},
                       {"pareto_k", kHatToJson(fit.pareto_k)},
                       {"pareto_k_ok", !check.unreliable()},
                       {"gradient_evaluations", static_cast<double>(fit.gradient_evaluations)},
                       {"seconds", fit.seconds_paths + fit.seconds_psis}};
    outcome.status = stopped ? RunStatus::Stopped : RunStatus::Finished;
    finishApproximationRun(*project, outcome.runId, outcome.status, "", "pathfinder", record, check,
                           context.mailbox);
  } catch (const std::exception& e) {
    return failedRun(project.get(), outcome.runId, e.what());
  }
  return outcome;
}

}  // namespace variate::ui
