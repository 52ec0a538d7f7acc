#include "engine/cli/sample_command.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include <ATen/Context.h>
#include <nlohmann/json.hpp>

#include "engine/core/checks.h"
#include "engine/core/memory.h"
#include "engine/distributed/distributed_error.h"
#include "engine/io/summary_report.h"
#include "engine/io/data_file.h"
#include "engine/io/summary_warnings.h"
#include "engine/mcmc/observer_list.h"
#include "engine/mcmc/sample.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/workflow/auto_stop.h"

#include "engine/cli/chain_output.h"
#include "engine/cli/distributed_run.h"
#include "engine/cli/independent_draws.h"
#include "engine/cli/model_input.h"
#include "engine/cli/pathfinder_init.h"
#include "engine/cli/project_output.h"
#include "engine/cli/remote_inference.h"
#include "engine/cli/summary_file.h"
#include "engine/core/version.h"

namespace variate::cli {
namespace {

struct SampleOptions {
  std::optional<std::string> data;
  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  std::optional<uint64_t> seed;
  std::optional<std::string> output;
  std::optional<std::string> summary_json;
  int threads = 0;
  int max_depth = 10;
  double adapt_delta = 0.8;
  std::string metric = "diag";
  std::string init = "2";  // a radius, or "pathfinder"
  bool save_warmup = false;
  bool batched_chains = false;
  bool quiet = false;
  bool predict = false;  // y_rep and log_lik columns (workflow/posterior_predictive.h)
  std::optional<std::string> project;
  std::optional<std::string> run_name;
  std::optional<std::string> data_name;  // as outputs name the data file (a worker's job)
  std::optional<std::string> resume_from;  // chain starts (JSON) for more draws, no warmup
  std::optional<double> until_ess;  // auto-stop: extend until the rule holds
  double until_rhat = 1.01;
  int max_draws = 100000;
  DistributedOptions distributed;
  RemoteOptions remote;
  std::vector<std::string> forwarded;  // the options a worker gets (--worker)
};

std::ostream& discard() {  // what ranks other than 0 print to
  static std::ostream stream(nullptr);
  return stream;
}

// [{"position": [...], "step_size": h, "inverse_metric": [...]}, ...], one per chain.
std::vector<ChainStart> read_chain_starts(const std::string& path) {
  try {
    std::vector<ChainStart> starts;
    for (const auto& chain : nlohmann::json::parse(io::read_text_file(path))) {
      starts.push_back({chain.at("position").get<std::vector<double>>(), chain.at("step_size").get<double>(),
                        chain.at("inverse_metric").get<std::vector<double>>()});
    }
    return starts;
  } catch (const nlohmann::json::exception& e) {
    throw ArgumentError("--resume-from " + path + ": " + e.what());
  }
}

nlohmann::ordered_json auto_stop_json(const workflow::AutoStopRule& rule, const workflow::AutoStopRun& run) {
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  for (const auto& check : run.checks) {
    rounds.push_back({{"draws_per_chain", check.draws_per_chain}, {"max_rhat", check.max_rhat},
                      {"min_ess_bulk", check.min_ess_bulk}, {"min_ess_tail", check.min_ess_tail},
                      {"worst", check.worst}});
  }
  return {{"min_ess", rule.min_ess}, {"max_rhat", rule.max_rhat}, {"max_draws", rule.max_draws},
          {"converged", run.converged}, {"rounds", rounds}};
}

int run_sample(const SampleOptions& options, const ModelSource& source, RemoteInference* remote,
               const RunHooks& hooks) {
  std::ostream& out = *hooks.out;
  std::ostream& err = *hooks.err;
  const bool on_worker = options.remote.worker.has_value();
  const bool several_processes = options.distributed.nproc > 0 || options.distributed.rendezvous.has_value();
  if (options.until_ess && (several_processes || on_worker || options.resume_from)) {
    err << "error: --until-ess extends chains on this process; it does not combine with several processes, "
           "--worker or --resume-from\n";
    return 1;
  }
  if (options.until_ess && options.max_draws < options.draws) {
    err << "error: --max-draws (" << options.max_draws << ") is below --draws (" << options.draws << ")\n";
    return 1;
  }
  if (options.project && options.data && !on_worker) {
    try {
      check_data_fits_project(*options.data);  // before the data is read, which may take minutes
    } catch (const ArgumentError& e) {
      err << "error: " << e.what() << "\n";
      return 1;
    }
  }
  std::unique_ptr<DistributedRun> run;  // with several processes on this host
  if (!start_run(options.remote, options.distributed, remote, hooks, run)) return 1;
  if (run && options.batched_chains) {
    err << "error: --batched-chains runs in one process; it cannot be combined with several\n";
    return 1;
  }
  if (options.predict && (run || on_worker || source.device() != "cpu" || options.save_warmup)) {
    err << "error: --predict draws on this process's CPU, for sampling draws: it does not combine with several "
           "processes, --worker, --device or --save-warmup (run `variate predict` on the run afterwards)\n";
    return 1;
  }
  const bool root = !run || run->root();  // rank 0 alone prints and writes
  // On a worker, the job starts before the model is bound here (for the columns of the
  // outputs only), so the two compilations overlap.
  RemoteOptions remote_job = options.remote;
  const uint64_t remote_seed = options.seed ? *options.seed : std::random_device{}();
  if (on_worker && !remote_job.job) {
    try {
      remote_job.job =
          remote->submit(remote_job, make_submission("sample", source, options.data, options.forwarded, remote_seed), err);
    } catch (const RemoteError& e) {
      err << "error: " << e.what() << "\n";
      return 1;
    }
  }
  std::unique_ptr<store::RunRecorder> recorder;  // with --project
  std::function<std::string()> explain_no_initial_point = [] { return std::string(); };
  try {
    std::optional<BoundModel> model =
        on_worker ? source.bind_here(options.data, err)
        : run     ? source.bind_distributed(options.data, root ? err : discard(), *run)
                  : source.bind(options.data, err);
    if (!model) {
      if (run) run->abort();
      if (on_worker && !options.remote.job) remote->cancel(remote_job);
      return 1;
    }
    explain_no_initial_point = model->explain_no_initial_point;
    // Batched chains are one LibTorch computation over all chains.
    const UnconstrainedTarget target = options.batched_chains ? model->batch_target.torch_only() : model->target;
    if (root && !on_worker && !model->backend_note.empty() && !options.batched_chains) {
      err << "note: the density runs on LibTorch: " << model->backend_note << "\n";
    }
    const uint64_t seed = run ? run->agree_on_seed(options.seed) : remote_seed;
    const int threads = run ? run->threads(options.threads) : options.threads;
    if (run && root) err << "running on " << run->describe() << ", " << threads << " thread(s) each\n";
    NutsOptions nuts = NutsOptions()
                                 .chains(options.chains)
                                 .warmup(options.warmup)
                                 .draws(options.draws)
                                 .seed(seed)
                                 .threads(threads)
                                 .max_tree_depth(options.max_depth)
                                 .target_accept(options.adapt_delta)
                                 .metric(options.metric == "dense" ? MetricKind::dense : MetricKind::diagonal)
                                 .batched_chains(options.batched_chains);
    if (options.resume_from) nuts.warmup(0).resume_from(read_chain_starts(*options.resume_from));
    std::optional<PathfinderInit> pathfinder_init;
    if (options.init == "pathfinder") {
      if (run || on_worker || options.resume_from) {
        err << "error: --init pathfinder starts chains on this process; it does not combine with several "
               "processes, --worker or --resume-from\n";
        return 1;
      }
      pathfinder_init = pathfinder_starts(model->target, options.chains, seed, options.metric == "dense");
      nuts.initial_positions(pathfinder_init->positions);
      if (!pathfinder_init->inverse_metric.empty()) nuts.initial_inverse_metric(pathfinder_init->inverse_metric);
      if (root && !options.quiet) {
        err << "Chains start at draws of Pathfinder, warmup from their covariance as the inverse metric (4 paths, " << pathfinder_init->gradient_evaluations
            << " evaluations of the log density, k-hat " << number("%.2f", pathfinder_init->pareto_k) << ")\n";
      }
    } else {
      nuts.init_radius(std::stod(options.init));
    }
    std::optional<workflow::PosteriorPredictive> predictive;
    if (options.predict) {
      predictive.emplace(model->log_joint, model->target.layout());
      if (predictive->observed().empty()) {
        err << "error: --predict: " << source.name() << " has no observed variables to replicate\n";
        return 1;
      }
    }
    const DrawColumns& columns = model->columns;
    const std::string data_name = options.data_name.value_or(options.data.value_or(""));
    ChainOutputOptions output;
    if (root) output.directory = options.output;
    output.progress = root && !options.quiet;
    output.progress_stream = &err;
    output.info.run.model = source.name();
    output.info.run.data_file = data_name;
    output.info.run.seed = seed;
    output.info.run.variate_version = variate::version();
    output.info.num_samples = options.draws;
    output.info.num_warmup = options.warmup;
    output.info.save_warmup = options.save_warmup;
    output.info.adapt_delta = options.adapt_delta;
    output.info.max_depth = options.max_depth;
    output.info.metric = options.metric == "dense" ? "dense_e" : "diag_e";
    output.info.num_chains = options.chains;
    if (predictive) output.predictive = &*predictive;
    ChainOutput observer(columns, options.chains, output);
    if (root && !on_worker) {
      // The sampler keeps every iteration's position; the summary keeps each draw's row of
      // columns, and copies them once more to compute. Checked before any work starts.
      const double row_bytes = 8.0 * static_cast<double>(observer.names().size()) + 40;
      check_memory(retained_draw_bytes(nuts, target.dimension()) + 2.0 * options.chains * options.draws * row_bytes,
                   std::to_string(options.chains) + " chains of " + std::to_string(options.warmup) + " warmup and " +
                       std::to_string(options.draws) + " draws of " + std::to_string(target.dimension()) +
                       " parameters (every draw is kept in memory)",
                   "run fewer chains or draws, or approximate the posterior with `variate fit` (ADVI) or `variate "
                   "pathfinder`");
    }

    // What the run decided (here, or on the worker) goes into the project's record.
    RunFacts facts{target.backend(), run ? run->size() : 1, seed, source.device()};
    std::unique_ptr<ObserverList> observers;
    const auto begin = [&](const RunFacts& decided) -> SampleObserver& {
      facts = decided;
      if (hooks.started) hooks.started(facts);
      if (root && options.project) {  // only offered for a model with text (a .vmod file)
        nlohmann::json config = {
            {"chains", options.chains}, {"warmup", options.warmup}, {"draws", options.draws},
            {"max_depth", options.max_depth}, {"adapt_delta", options.adapt_delta},
            {"metric", options.metric}, {"threads", threads}, {"init", options.init},
            {"batched_chains", options.batched_chains}, {"device", facts.device},
            {"backend_used", facts.backend}, {"ranks", facts.ranks},
            {"model_file", source.name()}, {"data_file", data_name}};
        if (on_worker) config["worker"] = *options.remote.worker;
        if (options.until_ess) {
          config["until_ess"] = *options.until_ess;
          config["until_rhat"] = options.until_rhat;
          config["max_draws"] = options.max_draws;
        }
        recorder = start_project_run({*options.project, options.run_name, *source.model_file(), options.data,
                                      config, seed, nuts.metric()},
                                     columns);
      }
      observers = std::make_unique<ObserverList>(std::vector<SampleObserver*>{
          hooks.writes_outputs ? &observer : nullptr, recorder.get(), hooks.sample_observer});
      return *observers;
    };

    std::vector<ChainResult> chains;
    workflow::AutoStopRule rule;
    std::optional<workflow::AutoStopRun> stopped;
    if (on_worker) {
      chains = remote->sample(remote_job, err, begin);
    } else if (options.until_ess) {
      rule.min_ess = *options.until_ess;
      rule.max_rhat = options.until_rhat;
      rule.max_draws = options.max_draws;
      SampleObserver& observing = begin(facts);
      stopped = workflow::sample_until_converged(target, columns, nuts, rule, &observing, hooks.stop,
                                                 [&](const workflow::ConvergenceCheck& check, int more) {
                                                   if (!options.quiet) err << workflow::describe_round(check, more) << "\n";
                                                   observer.extend(more);
                                                 });
      chains = stopped->chains;
    } else {
      SampleObserver& observing = begin(facts);
      chains = sample_nuts(target, nuts, root ? &observing : nullptr, hooks.stop, run ? &run->lockstep() : nullptr);
    }
    if (run) {
      if (const std::string failure = run->finish(); !failure.empty()) {
        throw distributed::DistributedError(failure + " after the run");
      }
    }
    if (!root) return 0;
    if (!hooks.writes_outputs) {
      if (recorder) recorder->finish();
      return 0;
    }

    const io::ChainsSummary summary = io::summarize_chains(observer.draws(), observer.names());
    const size_t draws = chains.empty() ? 0 : chains[0].positions.size() - chains[0].warmup_iterations;
    out << "Inference for " << source.name() << ": " << options.chains << " chains, each with "
        << options.warmup << " warmup and " << draws << " draws; seed " << seed << "\n";
    if (stopped) {
      out << (stopped->converged ? "Auto-stop: every quantity has R-hat < " : "Auto-stop: the cap ended the run before R-hat < ")
          << number("%g", rule.max_rhat) << " and bulk and tail ESS >= " << number("%g", rule.min_ess) << ", after "
          << stopped->checks.size() << " round(s)\n";
    }
    out << "\n";
    out << io::format_summary_table(summary.parameters, summary.sampler_rows);
    const io::SamplerTotals totals = io::sampler_totals(chains);
    out << "\nWarmup took " << totals.seconds_warmup << " s and sampling "
        << totals.seconds_sampling << " s (the slowest chain); "
        << totals.leapfrog_steps << " leapfrog steps.\n";
    const io::SamplerChecks checks = io::sampler_checks(observer.draws(), options.max_depth);
    for (const auto& line : io::summary_warnings(checks, summary.parameters)) out << line << "\n";
    auto document =
        io::summary_document(summary.parameters, totals, facts.backend, facts.ranks);
    if (pathfinder_init) {
      document["init"] = {{"method", "pathfinder"},
                          {"gradient_evaluations", pathfinder_init->gradient_evaluations},
                          {"pareto_k", nlohmann::ordered_json::parse(k_hat_json(pathfinder_init->pareto_k))}};
    }
    if (stopped) document["auto_stop"] = auto_stop_json(rule, *stopped);
    if (options.summary_json) write_summary_file(*options.summary_json, document, 2);
    if (recorder) recorder->finish(document.dump(2) + "\n");
    return 0;
  } catch (const distributed::DistributedError& e) {
    const std::string message = DistributedRun::failure(e, run.get());
    if (recorder) recorder->fail(message);
    err << "error: " << message << "\n";
    return 1;
  } catch (const RemoteError& e) {  // what was received is kept
    if (recorder) recorder->fail(e.what());
    err << "error: " << e.what() << "\n";
    return 1;
  } catch (const NoInitialPointError& e) {  // which argument is invalid, where the model can tell
    if (run) run->abort();
    const std::string message = "error: " + std::string(e.what()) + "\n" + explain_no_initial_point();
    if (recorder) recorder->fail(message);
    err << message;
    return 1;
  } catch (const ArgumentError& e) {
    if (run) run->abort();
    if (recorder) recorder->fail(e.what());
    err << "error: " << e.what() << "\n";
    return 1;
  } catch (const store::ProjectError& e) {
    if (run) run->abort();
    if (recorder) recorder->fail(e.what());
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_sample_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source,
                        std::shared_ptr<RemoteInference> remote, RunHooks hooks) {
  auto o = std::make_shared<SampleOptions>();
  CLI::App* command = app.add_subcommand("sample", "Sample the posterior with NUTS (Stan's warmup)");
  command->add_option("--data", o->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--chains", o->chains, "Number of chains")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--warmup", o->warmup, "Warmup iterations per chain")->capture_default_str()->check(CLI::NonNegativeNumber);
  command->add_option("--draws", o->draws, "Draws per chain after warmup")->capture_default_str()->check(CLI::NonNegativeNumber);
  command->add_option("--seed", o->seed, "Random seed (default: drawn at random and printed)");
  command->add_option("--output", o->output, "Write chain_1.csv, ... (Stan CSV) into this folder");
  command->add_option("--summary-json", o->summary_json, "Write the summary as JSON");
  command->add_option("--threads", o->threads, "Threads for chains (0: one per chain, up to the cores); with several processes, threads per process (0: this host's cores shared by its processes)")->capture_default_str();
  command->add_option("--max-depth", o->max_depth, "Maximum tree depth")->capture_default_str();
  command->add_option("--adapt-delta", o->adapt_delta, "Target acceptance rate of warmup")->capture_default_str();
  command->add_option("--metric", o->metric, "diag or dense")->capture_default_str()->check(CLI::IsMember({"diag", "dense"}));
  command->add_option("--init", o->init,
                      "Where chains start: uniform(-R, R) on the unconstrained scale for a number R, or "
                      "'pathfinder': at draws of multi-path Pathfinder")
      ->capture_default_str()
      ->check([](const std::string& value) -> std::string {
        if (value == "pathfinder") return "";
        try {
          size_t used = 0;
          const double radius = std::stod(value, &used);
          if (used == value.size() && radius >= 0) return "";
        } catch (const std::exception&) {
        }
        return "--init must be a radius (a number >= 0) or 'pathfinder', got '" + value + "'";
      });
  command->add_flag("--save-warmup", o->save_warmup, "Also write warmup draws to the CSV files");
  command->add_flag("--predict", o->predict,
                    "Add each observed variable's posterior predictive draws (NAME_rep.1, ...) and the pointwise log "
                    "likelihood (log_lik.1, ...) to every draw, as CmdStan's generated quantities");
  command->add_flag("--batched-chains", o->batched_chains, "Evaluate all chains in one batched LibTorch computation");
  source->add_arguments(*command, ModelCommand::sample);  // the model, and how to compile it
  command->add_flag("--quiet", o->quiet, "No progress lines");
  add_distributed_options(*command, o->distributed);
  if (source->model_file()) {  // a project records the model's text
    command->add_option("--project", o->project, "Record the run into this project file (*.variate; created if absent)");
    command->add_option("--run-name", o->run_name, "Name of the run in the project (default: run N)");
    add_remote_options(*command, o->remote);
  }
  command->add_option("--until-ess", o->until_ess,
                      "Auto-stop: after --draws, extend the chains (keeping their adaptation) in rounds until "
                      "every quantity has bulk and tail ESS >= N and R-hat < --until-rhat, or --max-draws")
      ->check(CLI::PositiveNumber);
  command->add_option("--until-rhat", o->until_rhat, "Auto-stop's R-hat bound")->capture_default_str()->check(
      CLI::Range(1.0 + 1e-9, 10.0));
  command->add_option("--max-draws", o->max_draws, "Auto-stop's cap on draws per chain")->capture_default_str()->check(
      CLI::PositiveNumber);
  command->add_option("--data-name", o->data_name, "How the outputs name the data file (default: as given)")->group("");
  command->add_option("--resume-from", o->resume_from, "Chain starts (JSON: [{position, step_size, inverse_metric}]) to draw more from, without warmup")->group("");
  command->callback([o, source, remote, hooks, command, &exit_code] {
    o->forwarded = forwarded_arguments(*command);
    exit_code = run_sample(*o, *source, remote.get(), hooks);
  });
}

}  // namespace variate::cli
