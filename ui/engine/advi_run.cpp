// An ADVI run on the engine thread, as `variate fit` runs it: started from and whitened by
// Pathfinder's (or the Laplace) estimate of the posterior (pathfinder/preconditioned_advi.h),
// fitted with a live ELBO (recorded as it comes), then draws from the fitted
// approximation recorded as the run's one chain, with the PSIS k-hat of their importance
// ratios p/q (Yao et al. 2018) stored beside the run's summary.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QJsonObject>

#include "engine/pathfinder/preconditioned_advi.h"
#include "engine/vi/advi.h"
#include "engine/vi/variational_draws.h"
#include "engine/store/project.h"

#include "ui/engine/approximation_draws.h"
#include "ui/engine/compiled_request.h"
#include "ui/engine/elbo_relay.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

// Every ADVI setting of the run panel; the options validate them.
AdviOptions adviOptions(const RunConfig& config) {
  AdviOptions options = AdviOptions()
                            .seed(config.seed)
                            .method(config.family)
                            .iter(config.iterations)
                            .tol_rel_obj(config.tolRelObj)
                            .adapt_engaged(!config.eta)
                            .adapt_iter(config.adaptIterations)
                            .grad_samples(config.gradSamples)
                            .elbo_samples(config.elboSamples)
                            .eval_elbo(config.evalElbo);
  if (config.eta) options.eta(*config.eta);
  return options;
}

// Where the fit started, for the log: `variate fit`'s words.
QString startNote(const std::string& start, const std::string& fallback) {
  if (start == "pathfinder") {
    return QObject::tr("ADVI started from single-path Pathfinder's estimate of the posterior, optimized in "
                       "coordinates whitened by its covariance");
  }
  if (start == "laplace") {
    return QObject::tr("ADVI started from the Laplace approximation where Pathfinder's L-BFGS ended (its "
                       "ELBO beat Pathfinder's estimate), optimized in coordinates whitened by its covariance");
  }
  return QObject::tr("ADVI started at random (uniform(-2, 2) unconstrained), as Stan's ADVI") +
         (fallback.empty() ? QString() : QStringLiteral(": ") + QString::fromStdString(fallback));
}

}  // namespace

RunOutcome runAdvi(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::unique_ptr<store::Project> project;
  try {
    checkDevice(request.config.device);
    const CompiledRequest compiled = compileRequest(request);
    const UnconstrainedTarget target = *compiled.target;
    project = std::make_unique<store::Project>(request.projectPath.toStdString());
    outcome.runId = project->create_run(runSpec(request, compiled, approximationColumns(compiled)));
    context.started(RunStart{outcome.runId, compiled.bracketedNames, compiled.parameterColumns});

    const AdviOptions options = adviOptions(request.config);
    ElboRelay relay(*project, outcome.runId, options.eval_elbo(), context.control, context.mailbox);
    std::string fallback;
    const AdviFit fit =
        preconditioned_advi(target, options, &relay, context.control.stopFlag(), nullptr, &fallback);
    relay.commit(true);
    context.log(startNote(fit.start, fallback));
    const AdviResult& result = fit.result;
    if (result.status == AdviStatus::diverged || result.status == AdviStatus::adaptation_failed) {
      throw ArgumentError("ADVI " + to_string(result.status) + " after " + std::to_string(result.iterations) +
                          " iterations");
    }
    context.log(QString("ADVI %1 after %2 iterations (eta %3)")
                    .arg(QString::fromStdString(to_string(result.status)))
                    .arg(result.iterations)
                    .arg(result.eta));

    // A distinct stream from the fit's, so the draws do not replay its randomness.
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(request.config.seed + 1);
    const ApproximationDraws draws = sample_approximation(target, *fit.family, request.config.outputDraws, generator);
    const bool stopped = result.status == AdviStatus::stopped;
    recordApproximationDraws(*project, outcome.runId, compiled, draws.unconstrained, draws.log_p, draws.log_g,
                             positionsOf(draws.mean.reshape({1, -1})).front(), stopped, context.mailbox);

    ApproximationCheck check;
    check.paretoK = importanceKHat(draws.log_p, draws.log_g);
    check.start = QString::fromStdString(fit.start);
    context.log(kHatText(*check.paretoK) + QObject::tr(" (the importance ratios p/q of the %1 draws)")
                                               .arg(request.config.outputDraws));
    QJsonObject advi;
    advi["status"] = QString::fromStdString(to_string(result.status));
    advi["eta"] = result.eta;
    advi["iterations"] = result.iterations;
    advi["converged_at"] = relay.convergedAt();
    advi["start"] = check.start;
    advi["pareto_k"] = kHatToJson(*check.paretoK);
    advi["pareto_k_ok"] = !check.unreliable();
    outcome.status = stopped ? RunStatus::Stopped : RunStatus::Finished;
    finishApproximationRun(*project, outcome.runId, outcome.status, "", "advi", advi, check, context.mailbox);
  } catch (const std::exception& e) {
    return failedRun(project.get(), outcome.runId, e.what());
  }
  return outcome;
}

}  // namespace variate::ui
