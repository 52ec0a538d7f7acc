// A NUTS run on the engine thread: compile, record into the project through the store's
// RunRecorder, stream live blocks to the UI, and end with the stored summary. On several
// processes the studio is rank 0 of a data-parallel run (rank_processes.h) and makes the
// collectives of `variate sample` in its order: join, communicator, compile_sharded,
// agree_on_seed, sample_nuts in lockstep.

#include <algorithm>

#include "engine/core/memory.h"
#include "engine/core/threading.h"
#include "engine/distributed/distributed_error.h"
#include "engine/distributed/shardable_rows.h"
#include "engine/distributed/sharded_target.h"
#include "engine/mcmc/observer_list.h"
#include "engine/mcmc/sample.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/model/invalid_argument.h"
#include "engine/model/model_error.h"
#include "engine/store/run_recorder.h"
#include "engine/store/stored_run_summary.h"
#include "engine/workflow/auto_stop.h"

#include "ui/engine/compiled_request.h"
#include "ui/engine/live_observer.h"
#include "ui/engine/rank_processes.h"
#include "ui/engine/run_context.h"

namespace variate::ui {
namespace {

static_assert(RunConfig::kMaxProcesses <= RankProcesses::kRowBlocks, "a process has at least one block of rows");

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

// Fails before any process starts where the ranks could not run together; rows that
// cannot be split are located in the model's text as compile errors are.
void checkProcessesCanRun(const RunRequest& request, const CompiledRequest& compiled) {
  const int processes = request.config.processes;
  if (processes > RunConfig::kMaxProcesses) {
    throw ArgumentError("Processes: " + std::to_string(processes) + ", more than the " +
                        std::to_string(RunConfig::kMaxProcesses) + " blocks the rows are cut into");
  }
  if (request.config.batchedChains) {
    throw ArgumentError("batched chains run in one process: clear Batched chains or set Processes to 1");
  }
  if (!compiled.data) throw ArgumentError("splitting the likelihood's rows between processes needs a data set");
  try {
    distributed::find_shardable_rows(*compiled.result.model);
  } catch (const model::ModelError& e) {
    throw ArgumentError(model::format(*compiled.result.source,
                                      {model::Severity::error, e.span(),
                                       std::string("cannot split the rows between processes: ") + e.what()}));
  }
}

// Auto-stop on a fresh run; "run more draws" of a stored run draws exactly as many.
bool autoStops(const RunRequest& request) {
  return request.config.untilEss > 0 && request.resume.empty() && request.continues < 0;
}

workflow::AutoStopRule autoStopRule(const RunConfig& config) {
  workflow::AutoStopRule rule;
  rule.min_ess = config.untilEss;
  rule.max_rhat = config.untilRhat;
  rule.max_draws = config.maxDraws;
  return rule;
}

// The density every rank evaluates its blocks of and gathers the rest of (a collective).
void shard(CompiledRequest& compiled, const RunRequest& request, RankProcesses& ranks) {
  distributed::ShardedModel sharded = distributed::compile_sharded(
      compiled.result, *compiled.data, request.config.backend, ranks.communicator(), RankProcesses::kRowBlocks);
  compiled.target = std::move(sharded.target);
  compiled.backendNote = std::move(sharded.fallback_reason);
  setColumns(compiled, sharded.whole.draw_columns());  // as the CLI's rank 0 records them
}

// Intra-op threads of each rank (chains run one after another): as configured, or this
// machine's cores shared by the processes.
int threadsPerProcess(const RunConfig& config) {
  return config.threads > 0 ? config.threads : std::max(1, hardware_threads() / config.processes);
}

}  // namespace

// A run stopped before its first draws has no summary.
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

RunOutcome runNuts(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::unique_ptr<store::RunRecorder> recorder;
  std::unique_ptr<RankProcesses> ranks;  // on several processes
  try {
    checkDevice(request.config.device);
    const bool several = request.config.onSeveralProcesses();
    CompiledRequest compiled = several ? compileModel(request) : compileRequest(request);
    NutsOptions options = nutsOptions(request);
    if (several && autoStops(request)) {
      throw ArgumentError("auto-stop extends the chains on one process: set Processes to 1 or Until ESS to off");
    }
    if (several) {
      checkProcessesCanRun(request, compiled);
      const int threads = threadsPerProcess(request.config);
      ranks = std::make_unique<RankProcesses>(request, threads);
      shard(compiled, request, *ranks);
      options.seed(distributed::agree_on_seed(*ranks->communicator(), request.config.seed)).threads(threads);
      context.log(QString("running on %1, %2 thread(s) each").arg(ranks->describe()).arg(threads));
    }
    // The live panels keep each iteration's columns, beside the sampler's positions: a run
    // that cannot fit is refused before it starts (and before it is recorded). The target
    // exists once the model is compiled (and, on several processes, sharded).
    const double rowBytes = 8.0 * static_cast<double>(compiled.stanNames.size()) + sizeof(SamplerRow);
    check_memory(retained_draw_bytes(options, compiled.target->dimension()) +
                     static_cast<double>(options.chains()) * (options.warmup() + options.draws()) * rowBytes,
                 std::to_string(options.chains()) + " chains of " + std::to_string(options.warmup()) + " warmup and " +
                     std::to_string(options.draws()) + " draws of " + std::to_string(compiled.target->dimension()) +
                     " parameters (every draw is kept in memory)",
                 "run fewer chains or draws, or choose ADVI or Pathfinder as the method");

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
    // Stop is asked of rank 0 alone; the lockstep stops every rank at the same iteration.
    try {
      if (autoStops(request)) {
        const workflow::AutoStopRun run = workflow::sample_until_converged(
            *compiled.target, output, options, autoStopRule(request.config), &observers, context.control.stopFlag(),
            [&context](const workflow::ConvergenceCheck& check, int more) {
              context.log(QString::fromStdString(workflow::describe_round(check, more)));
            });
        if (!run.checks.empty() && !run.converged && !context.control.stopRequested()) {
          context.log("Auto-stop: the cap ended the run before the rule held");
        }
      } else {
        sample_nuts(*compiled.target, options, &observers, context.control.stopFlag(),
                    ranks ? &ranks->lockstep() : nullptr);
      }
    } catch (const NoInitialPointError& e) {  // which argument is invalid, where the model can tell
      const std::string report = compiled.result.model
                                     ? model::report_invalid_argument(*compiled.result.model, *compiled.result.source)
                                     : std::string();
      throw NoInitialPointError(report.empty() ? e.what() : std::string(e.what()) + "\n" + report);
    }
    if (ranks) {
      if (const std::string failure = ranks->finish(); !failure.empty()) {
        throw distributed::DistributedError(failure + " after the run");
      }
    }

    recorder->finish();
    outcome.status = context.control.stopRequested() ? RunStatus::Stopped : RunStatus::Finished;
    recorder.reset();  // closes its connection before the summary reads the file
  } catch (const std::exception& e) {
    std::string message = e.what();
    if (ranks) {  // what the other processes' exits tell, after a failure between them
      const std::string children = ranks->abort();
      if (dynamic_cast<const distributed::DistributedError*>(&e) && !children.empty()) message += " (" + children + ")";
    }
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(message);
    if (recorder) recorder->fail(message);
  }
  if (outcome.status != RunStatus::Failed) storeSummary(request, outcome.runId, context);
  return outcome;
}

}  // namespace variate::ui
