// An optimization run on the engine thread, as `variate optimize --laplace-draws` runs it:
// the mode by L-BFGS from a random start (optimize/find_mode.h; with or without the
// Jacobian), then draws from the Laplace approximation there (optimize/laplace.h: the
// Gaussian N(mode, (-H)^-1)) recorded as the run's one chain, with the PSIS k-hat of their
// importance ratios when they approximate the posterior (with the Jacobian). Without
// draws the run records the mode as its one draw. The mode goes to the log and, with the
// L-BFGS record, beside the run's summary.

#include <cmath>
#include <limits>

#include <ATen/ATen.h>

#include <QJsonArray>
#include <QJsonObject>

#include "engine/optimize/find_mode.h"
#include "engine/optimize/hessian.h"
#include "engine/optimize/laplace.h"
#include "engine/store/project.h"

#include "ui/engine/approximation_draws.h"
#include "ui/engine/compiled_request.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

// The log shows this many of the mode's values; the Diagnostics panel has them all.
constexpr int kLoggedModeValues = 12;
// An L-BFGS progress line every this many iterations.
constexpr int kLoggedIterations = 100;

QString modeLine(const QStringList& names, const std::vector<double>& values) {
  QStringList parts;
  for (int i = 0; i < names.size() && i < kLoggedModeValues; ++i) {
    parts << QStringLiteral("%1 = %2").arg(names[i]).arg(values[i], 0, 'g', 6);
  }
  QString line = QObject::tr("Mode: %1").arg(parts.join(", "));
  if (names.size() > kLoggedModeValues) {
    line += QObject::tr(" … (%1 more in the Diagnostics panel)").arg(names.size() - kLoggedModeValues);
  }
  return line;
}

}  // namespace

RunOutcome runOptimize(const RunRequest& request, RunContext& context) {
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
    ModeOptions options;
    options.jacobian = config.jacobian;
    options.seed = config.seed;
    context.log(config.jacobian ? QObject::tr("L-BFGS for the mode of the unconstrained density (with the Jacobian)")
                                : QObject::tr("L-BFGS for the posterior mode (without the Jacobian)"));
    const ModeResult mode = find_mode(target, options, context.control.stopFlag(), [&](const LbfgsIterate& i) {
      if (i.iteration > 0 && i.iteration % kLoggedIterations == 0) {
        context.log(QObject::tr("L-BFGS iteration %1: log density %2").arg(i.iteration).arg(-i.value, 0, 'g', 8));
      }
      context.control.waitWhilePaused();  // pausing holds L-BFGS here, between iterations
      return !context.control.stopRequested();
    });
    const LbfgsResult& lbfgs = mode.lbfgs;
    const bool stopped = lbfgs.status == LbfgsStatus::stopped;
    const bool ok = converged(lbfgs.status);
    context.log(QObject::tr("L-BFGS: %1 after %2 iterations (%3 evaluations); log density %4")
                    .arg(QString::fromStdString(describe(lbfgs.status)))
                    .arg(lbfgs.iterations)
                    .arg(lbfgs.evaluations)
                    .arg(mode.log_density, 0, 'g', 8));
    ApproximationCheck check;
    check.modeNames = compiled.bracketedNames;
    check.modeValues = compiled.columns->rows({lbfgs.x}).front();
    check.modeLogDensity = mode.log_density;
    context.log(modeLine(check.modeNames, check.modeValues));

    QJsonObject record;
    record["status"] = ok ? "converged" : stopped ? "stopped" : "not_converged";
    record["message"] = QString::fromStdString(describe(lbfgs.status));
    record["jacobian"] = config.jacobian;
    record["iterations"] = lbfgs.iterations;
    record["evaluations"] = lbfgs.evaluations;
    record["log_density"] = mode.log_density;
    record["seconds"] = mode.seconds;
    QJsonArray names, values, unconstrained;
    for (int i = 0; i < check.modeNames.size(); ++i) {
      names.append(check.modeNames[i]);
      values.append(check.modeValues[i]);
    }
    for (const double x : lbfgs.x) unconstrained.append(x);
    record["mode_names"] = names;
    record["mode"] = values;
    record["unconstrained_mode"] = unconstrained;

    std::string message;
    if (ok && config.laplaceDraws > 0) {
      const HessianResult hessian = log_density_hessian(target, lbfgs.x, config.jacobian);
      const LaplaceApproximation laplace(lbfgs.x, hessian.hessian);  // throws at a saddle, naming what to try
      const LaplaceApproximation::Draws draws = laplace.draw(target, config.laplaceDraws, config.jacobian, config.seed);
      recordApproximationDraws(*project, outcome.runId, compiled, draws.unconstrained, draws.log_p, draws.log_g,
                               lbfgs.x, false, context.mailbox);
      record["laplace_draws"] = config.laplaceDraws;
      record["hessian"] = QString::fromStdString(hessian.method);
      context.log(QObject::tr("%1 draws from the Laplace approximation at the mode (Hessian by %2)")
                      .arg(config.laplaceDraws)
                      .arg(QString::fromStdString(hessian.method)));
      if (config.jacobian) {
        check.paretoK = importanceKHat(draws.log_p, draws.log_g);
        record["pareto_k"] = kHatToJson(*check.paretoK);
        record["pareto_k_ok"] = !check.unreliable();
        context.log(kHatText(*check.paretoK) + QObject::tr(" (the importance ratios p/g of the Laplace draws)"));
      } else {
        context.log(QObject::tr("Without the Jacobian the Laplace draws approximate the density of the constrained "
                                "parameters read on the unconstrained scale, not the posterior: k-hat does not "
                                "apply."));
      }
    } else {
      // The mode alone is the run's draw; it has no approximation's density.
      const double nan = std::numeric_limits<double>::quiet_NaN();
      const at::Tensor point = at::tensor(lbfgs.x, at::kDouble).reshape({1, -1});
      recordApproximationDraws(*project, outcome.runId, compiled, point, at::full({1}, mode.log_density, at::kDouble),
                               at::full({1}, nan, at::kDouble), lbfgs.x, stopped, context.mailbox);
      record["laplace_draws"] = 0;
      if (stopped && config.laplaceDraws > 0) {
        context.log(QObject::tr("Stopped before L-BFGS converged: no Laplace draws; the run records where it ended."));
      } else if (!ok && !stopped) {
        message = "L-BFGS did not converge (" + describe(lbfgs.status) + "): no Laplace draws; the run records "
                  "where it ended";
      }
    }
    outcome.status = stopped ? RunStatus::Stopped : message.empty() ? RunStatus::Finished : RunStatus::Failed;
    outcome.message = QString::fromStdString(message);
    finishApproximationRun(*project, outcome.runId, outcome.status, message, "optimize", record, check,
                           context.mailbox);
  } catch (const std::exception& e) {
    return failedRun(project.get(), outcome.runId, e.what());
  }
  return outcome;
}

}  // namespace variate::ui
