// An ADVI run on the engine thread: compile, fit with a live ELBO (recorded as it comes),
// then draw from the fitted approximation and record the draws as the run's one chain.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QJsonDocument>
#include <QJsonObject>

#include <variate/vi/advi.h>
#include <variate/vi/variational_draws.h>
#include <variate/store/project.h>
#include <variate/store/stored_run_summary.h>

#include "ui/engine/compiled_request.h"
#include "ui/engine/elbo_relay.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

// Rows of a draw block as the project stores them: the variational columns (lp__ is 0,
// as CmdStan writes it), then the outputs.
std::vector<double> storedRows(const ApproximationDraws& draws, const std::vector<std::vector<double>>& outputs) {
  std::vector<double> values;
  const at::Tensor log_p = draws.log_p.contiguous(), log_g = draws.log_g.contiguous();
  for (size_t i = 0; i < outputs.size(); ++i) {
    values.push_back(0);
    values.push_back(log_p[i].item<double>());
    values.push_back(log_g[i].item<double>());
    values.insert(values.end(), outputs[i].begin(), outputs[i].end());
  }
  return values;
}

std::vector<std::vector<double>> positionsOf(const at::Tensor& unconstrained) {
  const at::Tensor points = unconstrained.to(at::kDouble).contiguous();
  std::vector<std::vector<double>> positions(points.size(0));
  for (int64_t i = 0; i < points.size(0); ++i) {
    const double* row = points[i].data_ptr<double>();
    positions[i].assign(row, row + points.size(1));
  }
  return positions;
}

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

// The stored summary document, with how the fit went.
std::string diagnosticsJson(const std::string& summary, const AdviResult& result, int convergedAt) {
  QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(summary)).object();
  QJsonObject advi;
  advi["status"] = QString::fromStdString(to_string(result.status));
  advi["eta"] = result.eta;
  advi["iterations"] = result.iterations;
  advi["converged_at"] = convergedAt;
  json["advi"] = advi;
  return QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString();
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
    std::vector<std::string> columns = variational_column_names();
    columns.insert(columns.end(), compiled.stanNames.begin(), compiled.stanNames.end());
    const int width = static_cast<int>(columns.size());
    outcome.runId = project->create_run(runSpec(request, compiled, std::move(columns)));
    context.started(RunStart{outcome.runId, compiled.bracketedNames, compiled.parameterColumns});

    const AdviOptions options = adviOptions(request.config);
    ElboRelay relay(*project, outcome.runId, options.eval_elbo(), context.control, context.mailbox);
    const AdviFit fit = advi(target, options, &relay, context.control.stopFlag());
    relay.commit(true);
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
    const auto outputs = compiled.columns->rows(positionsOf(draws.unconstrained));
    store::RunUpdate update;
    store::ChainRecord chain;
    chain.ended = true;
    chain.stopped_early = result.status == AdviStatus::stopped;
    chain.last_position = positionsOf(draws.mean.reshape({1, -1})).front();
    update.chains.push_back(chain);
    store::DrawBlock stored{0, 0, static_cast<int>(outputs.size()), width, storedRows(draws, outputs)};
    update.blocks.push_back(stored);
    project->write(outcome.runId, update);

    auto block = std::make_shared<DrawBlock>();
    block->columns = width - 3;
    for (size_t i = 0; i < outputs.size(); ++i) {
      block->values.insert(block->values.end(), outputs[i].begin(), outputs[i].end());
      SamplerRow row;
      row.logDensity = stored.values[i * width + 1];
      block->stats.push_back(row);
    }
    context.mailbox.post(DrawBlockPtr(std::move(block)));

    outcome.status = result.status == AdviStatus::stopped ? RunStatus::Stopped : RunStatus::Finished;
    project->finish_run(outcome.runId, outcome.status == RunStatus::Stopped ? store::RunStatus::stopped
                                                                          : store::RunStatus::finished);
    const store::StoredRunSummary summary = store::summarize_run(*project, outcome.runId);
    project->set_diagnostics(outcome.runId, diagnosticsJson(summary.json(), result, relay.convergedAt()));
  } catch (const std::exception& e) {
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
    if (project && outcome.runId >= 0) {
      try {
        project->finish_run(outcome.runId, store::RunStatus::failed, e.what());
      } catch (const std::exception&) {  // the file is unwritable: the message still reaches the UI
      }
    }
  }
  return outcome;
}

}  // namespace variate::ui
