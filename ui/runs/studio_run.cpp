// The studio's runs on the engine thread: a request becomes the spec of its method's
// service (the one driver `variate` and a worker call too), the service's observers feed
// the live views, and what it returns is handed to the UI (an approximation's draws and
// its k-hat, the log's lines). Nothing here orchestrates the engine.

#include <cmath>
#include <limits>

#include <ATen/ATen.h>

#include "engine/distributed/distributed_error.h"
#include "engine/io/data_file.h"
#include "engine/services/fit.h"
#include "engine/services/optimize.h"
#include "engine/services/pathfinder.h"
#include "engine/services/sample.h"
#include "engine/services/sbc.h"
#include "engine/services/setting_table.h"
#include "engine/services/train.h"
#include "engine/services/vmod_source.h"
#include "engine/store/project.h"

#include "ui/document/run_records.h"
#include "ui/runs/elbo_relay.h"
#include "ui/runs/live_observer.h"
#include "ui/runs/run_context.h"
#include "ui/runs/training_previewer.h"
#include "ui/runs/training_relay.h"
#include "ui/runs/variate_program.h"
#include "ui/workers/remote_runner.h"

namespace variate::ui {
namespace {

namespace setting = services::setting;

// Images in each row of the Reconstructions panel: one row at twice their size in a
// panel 750 pixels wide.
constexpr int kPreviewImages = 12;
// An L-BFGS progress line every this many iterations.
constexpr int kLoggedIterations = 100;
// The mode's values the log shows; the Diagnostics panel shows them all.
constexpr int kLoggedModeValues = 12;

QString text(const std::string& s) { return QString::fromStdString(s); }

services::RunSpec specOf(const RunRequest& request) {
  services::RunSpec spec;
  spec.method = request.config.method;
  spec.model = std::make_shared<services::VmodSource>(request.modelText.toStdString(),
                                                      request.modelName.toStdString() + ".vmod");
  if (!request.dataJson.isEmpty()) {
    spec.data = services::DataInput::text(request.dataJson.toStdString(), request.dataSetName.toStdString());
  }
  spec.settings = request.config.settings;
  spec.record.project = request.projectPath.toStdString();
  spec.record.run_name = request.runName.toStdString();
  if (request.continues >= 0) spec.record.continues = request.continues;
  for (const ChainResume& chain : request.resume) spec.resume.push_back({chain.position, chain.stepSize, chain.inverseMetric});
  spec.more_epochs = request.moreEpochs;
  if (!request.heldoutJson.isEmpty()) {
    spec.heldout = services::DataInput::text(request.heldoutJson.toStdString(),
                                             request.config.settings.get(setting::test_data).value_or("held-out"));
  }
  if (request.config.onSeveralProcesses()) spec.rank_program = variateProgram().toStdString();
  spec.remote = remoteRunner();
  if (request.reattach) spec.job = request.config.job;
  return spec;
}

services::RunObservers observersOf(RunContext& context) {
  services::RunObservers observers;
  observers.note = [&context](const std::string& note) { context.log(text(note)); };
  observers.info = [&context](const std::string& line) { context.log(text(line)); };
  observers.link = [&context](const std::string& state) { context.link(text(state)); };
  observers.found_paused = [&context] {
    context.control.set_paused(true);
    context.foundPaused();
  };
  observers.control = &context.control;
  observers.started = [&context](const services::RunStarted& started) {
    RunStart start{started.run_id,
                   {},
                   started.parameter_columns,
                   started.resumed_step,
                   started.epochs,
                   started.facts.seed,
                   QString::fromStdString(started.reparam),
                   started.facts.reparam_pilot};
    for (const auto& name : started.bracketed) start.columns << text(name);
    context.started(start);
  };
  return observers;
}

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

// The draws of an approximation as one block for the UI, and what the run says of them.
void postDraws(const services::Rows& rows, const std::vector<double>& logP, RunContext& context) {
  auto block = std::make_shared<DrawBlock>();
  block->columns = rows.empty() ? 0 : static_cast<int>(rows.front().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    block->values.insert(block->values.end(), rows[i].begin(), rows[i].end());
    SamplerRow row;
    row.logDensity = logP[i];
    block->stats.push_back(row);
  }
  context.mailbox.post(DrawBlockPtr(std::move(block)));
}

// The rows a continued run on a worker had before its job: its live view starts with
// them (from the project); the job's own rows follow.
void postRowsBefore(const RunRequest& request, RunContext& context) {
  if (!request.reattach || !request.config.job || request.config.job->offsets.empty()) return;
  const std::vector<int>& offsets = request.config.job->offsets;
  const store::Project project(request.projectPath.toStdString());
  const LoadedDraws draws = readDraws(project, project.run(request.continues));
  for (size_t chain = 0; chain < draws.chains.size() && chain < offsets.size(); ++chain) {
    for (const DrawBlockPtr& stored : draws.chains[chain].blocks()) {
      const int keep = std::min(stored->rows(), offsets[chain] - stored->firstIteration);
      if (keep <= 0) continue;
      auto block = std::make_shared<DrawBlock>(*stored);
      block->stats.resize(static_cast<size_t>(keep));
      block->values.resize(static_cast<size_t>(keep) * static_cast<size_t>(block->columns));
      context.mailbox.post(std::move(block));
    }
  }
}

RunOutcome sampleRun(const RunRequest& request, RunContext& context, const services::RunSpec& spec) {
  std::vector<int> offsets, warmups;
  for (const auto& resume : request.resume) {  // more draws: the live view appends them
    offsets.push_back(resume.iterations);
    warmups.push_back(resume.warmup);
  }
  if (request.reattach && request.config.job) {
    offsets = request.config.job->offsets;  // a continued run's job follows the rows it had
    if (!offsets.empty()) {
      for (const auto& chain : store::Project(request.projectPath.toStdString()).chains(request.continues)) {
        warmups.push_back(chain.warmup_iterations);
      }
    }
  }
  LiveObserver live(context.mailbox, offsets, warmups);
  services::RunObservers observers = observersOf(context);
  observers.draws = &live;
  const auto started = observers.started;
  observers.started = [&](const services::RunStarted& s) {
    started(s);
    postRowsBefore(request, context);
  };
  const services::SampleResult result = services::run_sample(spec, observers);
  for (const auto& warning : result.warnings) context.log(text(warning));
  return {result.run_id, result.stopped ? RunStatus::Stopped : RunStatus::Finished, {}};
}

RunOutcome fitRun(const RunRequest& request, RunContext& context, const services::RunSpec& spec) {
  ElboRelay relay(context.mailbox);
  services::RunObservers observers = observersOf(context);
  observers.elbo = &relay;
  const services::FitResult result = services::run_fit(spec, observers);
  postDraws(result.rows, result.log_p, context);
  ApproximationCheck check;
  check.paretoK = result.k_hat;
  check.start = text(result.fit.start);
  context.mailbox.post(check);
  context.log("ADVI: " + text(services::start_note(result.fit.start)));
  context.log(QString("ADVI %1 after %2 iterations (eta %3); %4 (the importance ratios p/q of the %5 draws)")
                  .arg(text(to_string(result.fit.result.status)))
                  .arg(result.fit.result.iterations)
                  .arg(result.fit.result.eta)
                  .arg(kHatText(result.k_hat))
                  .arg(result.rows.size()));
  return {result.run_id, result.stopped ? RunStatus::Stopped : RunStatus::Finished, {}};
}

RunOutcome optimizeRun(const RunRequest& request, RunContext& context) {
  services::RunObservers observers = observersOf(context);
  observers.lbfgs = [&context](const LbfgsIterate& i) {
    context.mailbox.post(PathPoint{0, i.iteration, -i.value});  // the ELBO panel's curve
    if (i.iteration > 0 && i.iteration % kLoggedIterations == 0) {
      context.log(QString("L-BFGS iteration %1: log density %2").arg(i.iteration).arg(-i.value, 0, 'g', 8));
    }
  };
  const services::OptimizeResult r = services::run_optimize(specOf(request), observers);
  ApproximationCheck check;
  for (const auto& name : r.bracketed) check.modeNames << text(name);
  check.modeValues = r.mode_row;
  check.modeLogDensity = r.mode.log_density;
  if (r.draw_rows) {
    postDraws(*r.draw_rows, r.log_p, context);
    if (r.jacobian) check.paretoK = r.k_hat;
  } else {
    postDraws({r.mode_row}, {r.mode.log_density}, context);
  }
  context.mailbox.post(check);
  context.log(QString("L-BFGS: %1 after %2 iterations (%3 evaluations); log density %4")
                  .arg(text(describe(r.mode.lbfgs.status)))
                  .arg(r.mode.lbfgs.iterations)
                  .arg(r.mode.lbfgs.evaluations)
                  .arg(r.mode.log_density, 0, 'g', 8));
  if (r.failure.empty()) context.log(modeLine(check.modeNames, check.modeValues));
  const RunStatus status = r.stopped ? RunStatus::Stopped : r.failure.empty() ? RunStatus::Finished : RunStatus::Failed;
  return {r.run_id, status, text(r.failure)};
}

RunOutcome pathfinderRun(const RunRequest& request, RunContext& context, const services::RunSpec& spec) {
  services::RunObservers observers = observersOf(context);
  int current = -1;
  const int paths = request.config.settings.get(setting::num_paths);
  observers.paths = [&](int path, int iteration, double elbo) {
    context.mailbox.post(PathPoint{path, iteration, std::isfinite(elbo) ? elbo : std::nan("")});
    if (path == current) return;
    current = path;
    context.log(QString("Pathfinder path %1 of %2: scoring the approximations along its L-BFGS path").arg(path + 1).arg(paths));
  };
  const services::PathfinderRunResult r = services::run_pathfinder(spec, observers);
  if (r.stopped_before_draws) return {r.run_id, RunStatus::Stopped, "stopped before any path found an approximation"};
  postDraws(r.rows, r.log_p, context);
  ApproximationCheck check;
  check.paretoK = r.fit.pareto_k;
  context.mailbox.post(check);
  context.log(QString("Pathfinder: %1 draws from %2 path(s), %3 evaluations of the log density; %4")
                  .arg(r.rows.size())
                  .arg(r.fit.paths.size())
                  .arg(r.fit.gradient_evaluations)
                  .arg(kHatText(r.fit.pareto_k)));
  return {r.run_id, r.stopped ? RunStatus::Stopped : RunStatus::Finished, {}};
}

// SBC's replications as they end go to the SBC panel (a continued run's stored ones
// first); failures and the verdicts to the log. The worker "Run on" names takes
// replications beside this computer.
RunOutcome sbcRun(const RunRequest& request, RunContext& context) {
  services::SbcSpec spec;
  spec.run = specOf(request);
  if (const auto worker = request.config.settings.get(setting::worker)) spec.workers = {*worker};
  services::RunObservers observers = observersOf(context);
  const services::SbcResult r =
      services::run_sbc(spec, observers, [&context](const services::SbcReplication& replication, int64_t maxRank, int) {
        if (!replication.failure.empty()) {
          context.log(QString("Replication %1 failed: %2").arg(replication.index + 1).arg(text(replication.failure)));
        }
        context.mailbox.post(replication.record(maxRank));
      });
  int rejected = 0;
  for (const auto& test : r.tests) rejected += test.uniform() ? 0 : 1;
  if (!r.tests.empty()) {
    context.log(QString("SBC: %1 of %2 quantities' ranks depart from uniform at %3% (the ECDF's simultaneous band)")
                    .arg(rejected)
                    .arg(r.tests.size())
                    .arg(std::lround((1 - spec.prob) * 100)));
  }
  return {r.run_id, r.stopped ? RunStatus::Stopped : RunStatus::Finished, {}};
}

// A replication of an SBC run fitted again as a run of its own: its simulated data, its
// seed, the fit's method.
RunOutcome replicationRun(const RunRequest& request, RunContext& context) {
  services::SbcSpec sbc;
  sbc.run = specOf(request);
  if (const auto worker = request.config.settings.get(setting::worker)) sbc.workers = {*worker};
  services::RunSpec spec = services::replication_fit(sbc, request.sbcSeed, request.sbcReplication);
  spec.record.run_name = request.runName.toStdString();
  spec.remote = sbc.run.remote;
  switch (spec.method) {
    case services::Method::advi:
      return fitRun(request, context, spec);
    case services::Method::pathfinder:
      return pathfinderRun(request, context, spec);
    default:
      return sampleRun(request, context, spec);
  }
}

RunOutcome trainRun(const RunRequest& request, RunContext& context) {
  std::unique_ptr<TrainingPreviewer> previewer;
  TrainingRelay relay(context.mailbox, [&previewer](long long step, int epoch) {
    return previewer ? previewer->compute(step, epoch) : TrainingPreviewPtr();
  });
  services::RunObservers observers = observersOf(context);
  observers.training = &relay;
  const services::RunSpec spec = specOf(request);
  const auto preview = [&](const deep::AmortizedModel& model) {
    try {  // its own stream: the images' prior draws are not the training's
      const Data rows = spec.heldout.given() ? spec.heldout.read() : spec.data.read();
      previewer = std::make_unique<TrainingPreviewer>(model, rows, kPreviewImages, 7 + spec.settings.get(setting::seed).value_or(0));
      relay.postPreview();  // the networks before this training: what the grid starts from
    } catch (const ArgumentError& e) {
      context.log(QString("No reconstructions: %1").arg(e.what()));
    }
  };
  const services::TrainResult r = services::run_training(spec, observers, preview);
  const bool stopped = r.result.status == deep::AmortizedFitStatus::stopped;
  if (stopped) relay.postPreview();
  if (!relay.previewError().empty()) context.log("Reconstructions stopped: " + text(relay.previewError()));
  context.log(QString("Training %1 after %2 steps (%3 epochs): training ELBO %4 per row; %5 s")
                  .arg(text(deep::to_string(r.result.status)))
                  .arg(r.result.steps)
                  .arg(r.result.epochs)
                  .arg(r.result.train_elbo, 0, 'f', 2)
                  .arg(r.result.seconds, 0, 'f', 1));
  return {r.run_id, stopped ? RunStatus::Stopped : RunStatus::Finished, {}};
}

}  // namespace

RunOutcome runRequest(const RunRequest& request, RunContext& context) {
  qint64 started = -1;  // the run's id once the project has it
  RunContext tracked = context;
  tracked.started = [&](const RunStart& start) {
    started = start.runId;
    context.started(start);
  };
  try {
    if (request.sbcReplication >= 0) return replicationRun(request, tracked);
    switch (request.config.method) {
      case services::Method::nuts:
        return sampleRun(request, tracked, specOf(request));
      case services::Method::advi:
        return fitRun(request, tracked, specOf(request));
      case services::Method::optimize: return optimizeRun(request, tracked);
      case services::Method::pathfinder:
        return pathfinderRun(request, tracked, specOf(request));
      case services::Method::sbc:
        return sbcRun(request, tracked);
      case services::Method::amortized: return trainRun(request, tracked);
    }
    return {started, RunStatus::Failed, "unknown method"};
  } catch (const services::JobGoesOnError& e) {  // the job may go on: the run stays interrupted, to reattach
    return {started, started >= 0 ? RunStatus::Interrupted : RunStatus::Failed, text(e.what())};
  } catch (const std::exception& e) {  // the service recorded the failure with the run
    return {started, RunStatus::Failed, text(e.what())};
  }
}

}  // namespace variate::ui
