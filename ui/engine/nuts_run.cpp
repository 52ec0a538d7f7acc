// A NUTS run on the engine thread: compile, record into the project through the store's
// RunRecorder, stream live blocks to the UI, and end with the stored summary.

#include <variate/mcmc/observer_list.h>
#include <variate/mcmc/sample.h>
#include <variate/mcmc/sampler_columns.h>
#include <variate/store/run_recorder.h>
#include <variate/store/stored_run_summary.h>

#include "ui/engine/compiled_request.h"
#include "ui/engine/live_observer.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

// Every NUTS setting of the run panel; the options validate them (a bad value from an
// edited file fails the run with the option named).
NutsOptions nutsOptions(const RunRequest& request) {
  const RunConfig& config = request.config;
  NutsOptions options = NutsOptions()
                            .chains(config.chains)
                            .warmup(request.resume.empty() ? config.warmup : 0)
                            .draws(config.draws)
                            .seed(config.seed)
                            // "auto" in the studio: a thread per chain, so every chain is live
                            // (the engine's own default caps chains at the cores).
                            .threads(config.threads > 0 ? config.threads : config.chains)
                            .max_tree_depth(config.maxTreeDepth)
                            .target_accept(config.adaptDelta)
                            .metric(config.metric)
                            .batched_chains(config.batchedChains);
  if (!request.resume.empty()) {
    std::vector<ChainStart> starts;
    for (const auto& resume : request.resume) {
      starts.push_back(ChainStart{resume.position, resume.stepSize, resume.inverseMetric});
    }
    options.resume_from(std::move(starts));
  }
  return options;
}

// The summary `variate sample` prints, stored with the run; a run stopped before its
// first draws has none.
void storeSummary(const RunRequest& request, qint64 runId, RunContext& context) {
  try {
    store::Project project(request.projectPath.toStdString());
    const store::StoredRunSummary summary = store::summarize_run(project, runId);
    project.set_diagnostics(runId, summary.json());
    for (const auto& warning : summary.warnings) context.log(QString::fromStdString(warning));
  } catch (const std::exception& e) {
    context.log(QString("No summary stored: %1").arg(e.what()));
  }
}

}  // namespace

RunOutcome runNuts(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::unique_ptr<store::RunRecorder> recorder;
  try {
    checkDevice(request.config.device);
    const CompiledRequest compiled = compileRequest(request);
    const NutsOptions options = nutsOptions(request);

    std::vector<std::string> columns = sampler_column_names();
    columns.insert(columns.end(), compiled.stanNames.begin(), compiled.stanNames.end());
    const DrawColumns& output = *compiled.columns;
    const auto rows = [&output](const std::vector<std::vector<double>>& positions) { return output.rows(positions); };
    store::RunRecorderOptions recording;
    recording.metric = options.metric();  // names the stored inverse metrics
    std::vector<int> offsets, warmups;
    if (request.continues >= 0) {  // more draws appended to the run's chains
      recorder = std::make_unique<store::RunRecorder>(request.projectPath.toStdString(), request.continues, rows,
                                                      recording);
      for (const auto& resume : request.resume) {
        offsets.push_back(resume.iterations);
        warmups.push_back(resume.warmup);
      }
    } else {
      recorder = std::make_unique<store::RunRecorder>(request.projectPath.toStdString(),
                                                      runSpec(request, compiled, std::move(columns)), rows, recording);
    }
    outcome.runId = recorder->run_id();
    context.started(RunStart{outcome.runId, compiled.bracketedNames, compiled.parameterColumns});

    LiveObserver live(output, context.control, context.mailbox, offsets, warmups);
    // The recorder first, so draws are stored before a pause holds the chain.
    ObserverList observers({recorder.get(), &live});
    sample_nuts(*compiled.target, options, &observers, context.control.stopFlag());

    recorder->finish();
    outcome.status = context.control.stopRequested() ? RunStatus::Stopped : RunStatus::Finished;
    recorder.reset();  // closes its connection before the summary reads the file
  } catch (const std::exception& e) {
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
    if (recorder) recorder->fail(e.what());
  }
  if (outcome.status != RunStatus::Failed) storeSummary(request, outcome.runId, context);
  return outcome;
}

}  // namespace variate::ui
