#include "engine/services/sample.h"

#include <algorithm>
#include <limits>
#include <map>
#include <random>

#include "engine/core/memory.h"
#include "engine/distributed/distributed_error.h"
#include "engine/io/summary_warnings.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/services/bound_run.h"
#include "engine/services/draw_fanout.h"
#include "engine/services/init_files.h"
#include "engine/services/predictive_columns.h"
#include "engine/services/prior_sampling.h"
#include "engine/services/rank_command.h"
#include "engine/services/reparam_choice.h"
#include "engine/services/reparam_pilot.h"
#include "engine/services/run_error.h"
#include "engine/services/run_record.h"
#include "engine/services/setting_table.h"
#include "engine/store/stored_run_summary.h"

namespace variate::services {
namespace {

// Combinations that cannot run, refused before any work.
void check_spec(const RunSpec& spec) {
  const Settings& s = spec.settings;
  const bool several = s.get(setting::nproc).value_or(1) > 1 || spec.rendezvous.has_value();
  const bool on_worker = s.get(setting::worker).has_value();
  const bool resumes = !spec.resume.empty();
  const auto refuse = [](const std::string& message) { throw ArgumentError(message); };
  if (s.get(setting::until_ess) && (several || on_worker || resumes)) {
    refuse("--until-ess extends chains on this process; it does not combine with several processes, --worker or "
           "more draws of a run");
  }
  if (s.get(setting::until_ess) && s.get(setting::max_draws) < s.get(setting::draws)) {
    refuse("--max-draws (" + std::to_string(s.get(setting::max_draws)) + ") is below --draws (" +
           std::to_string(s.get(setting::draws)) + ")");
  }
  if ((several || s.get(setting::nproc)) && s.get(setting::batched_chains)) {
    refuse("--batched-chains runs in one process; it cannot be combined with several");
  }
  if (s.get(setting::predict) && (several || on_worker || s.get(setting::device) != "cpu" || s.get(setting::save_warmup))) {
    refuse("--predict draws on this process's CPU, for sampling draws: it does not combine with several processes, "
           "--worker, --device or --save-warmup (run `variate predict` on the run afterwards)");
  }
  if (s.get(setting::init) == "pathfinder" && (several || resumes)) {
    refuse("--init pathfinder starts chains on one process; it does not combine with several processes or more draws "
           "of a run");
  }
  if (names_init_files(s.get(setting::init)) && (several || resumes || on_worker)) {
    refuse("--init FILE.json starts chains on this process; it does not combine with several processes, --worker or "
           "more draws of a run");
  }
  if (s.get(setting::prior) && (several || on_worker || resumes || s.get(setting::until_ess) ||
                                s.get(setting::batched_chains) || s.get(setting::device) != "cpu")) {
    refuse(
        "--prior draws from the prior on this process's CPU: it does not combine with several processes, --worker, "
        "more draws of a run, --until-ess, --batched-chains or --device");
  }
  if (on_worker && !s.get(setting::token_file)) refuse("--worker needs --token-file");
  if (on_worker && !spec.remote) refuse("this program was built without remote workers (gRPC was not found)");
  if (on_worker && !spec.model->text()) refuse("a model written in C++ runs here only (a worker needs its text)");
  if (resumes && spec.resume.size() != static_cast<size_t>(s.get(setting::chains))) {
    refuse("more draws need one start per chain: " + std::to_string(spec.resume.size()) + " for " +
           std::to_string(s.get(setting::chains)) + " chains");
  }
}

// The sampler keeps every iteration's position; the summary keeps each draw's row of
// columns and copies them once more to compute; a front end that keeps every row (the
// studio's panels) holds one more of each iteration. Checked before any work starts.
void check_memory_of(const NutsOptions& options, const BoundModel& model, size_t columns, bool front_end_rows) {
  const double row_bytes = 8.0 * static_cast<double>(columns) + 40;
  const double chains = options.chains();
  const double front_end = front_end_rows ? chains * (options.warmup() + options.draws()) : 0;
  const double kept_rows = 2.0 * chains * options.draws() + front_end;
  check_memory(retained_draw_bytes(options, model.target.dimension()) + kept_rows * row_bytes,
               std::to_string(options.chains()) + " chains of " + std::to_string(options.warmup()) + " warmup and " +
                   std::to_string(options.draws()) + " draws of " + std::to_string(model.target.dimension()) +
                   " parameters (every draw is kept in memory)",
               "run fewer chains or draws, or approximate the posterior with ADVI or Pathfinder");
}

nlohmann::ordered_json auto_stop_json(const workflow::AutoStopRule& rule, const workflow::AutoStopRun& run) {
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  for (const auto& check : run.checks) {
    rounds.push_back({{"draws_per_chain", check.draws_per_chain}, {"max_rhat", check.max_rhat},
                      {"min_ess_bulk", check.min_ess_bulk}, {"min_ess_tail", check.min_ess_tail},
                      {"worst", check.worst}});
  }
  return {{"min_ess_per_chain", rule.convergence.min_ess_per_chain}, {"max_rhat", rule.convergence.max_rhat},
          {"max_draws", rule.max_draws}, {"converged", run.converged}, {"rounds", rounds}};
}

workflow::AutoStopRule auto_stop_rule(const Settings& settings) {
  workflow::AutoStopRule rule;
  rule.convergence.min_ess_per_chain = *settings.get(setting::until_ess);
  rule.convergence.max_rhat = settings.get(setting::until_rhat);
  rule.max_draws = settings.get(setting::max_draws);
  return rule;
}

// What one process of the run holds while it samples.
struct Sampling {
  Sampling(const RunSpec& spec, const RunObservers& observers) : spec(spec), observers(observers) {}

  RunSpec spec;  ///< its reparam becomes the centerings an `auto` pilot decides, as recorded
  const RunObservers& observers;
  BoundRun bound;
  bool root = true;
  std::optional<BoundModel> model;
  std::optional<UnconstrainedTarget> target;
  NutsOptions options;
  std::shared_ptr<const PredictiveColumns> predictive;
  std::unique_ptr<DrawFanout> fanout;
  std::unique_ptr<store::RunRecorder> recorder;
  SampleResult result;
};

// The model bound to its data as this process evaluates it, and the options.
void bind(Sampling& s, RankFiles& files) {
  const Settings& settings = s.spec.settings;
  bind_run(s.spec, files, s.observers, s.bound);
  s.root = s.bound.root;
  s.model = std::move(s.bound.model);
  // Batched chains are one LibTorch computation over all chains.
  const bool batched = settings.get(setting::batched_chains);
  s.target = batched ? s.model->batch_target.torch_only() : s.model->target;
  if (s.root && !s.model->backend_note.empty() && !batched) {
    s.observers.tell_note("the density runs on LibTorch: " + s.model->backend_note);
  }
  DistributedRun* ranks = s.bound.ranks.get();
  const int threads = ranks ? ranks->threads(settings.get(setting::threads)) : settings.get(setting::threads);
  if (ranks && s.root) s.observers.tell("running on " + ranks->describe() + ", " + std::to_string(threads) + " thread(s) each");
  s.options = nuts_options(settings, s.bound.seed, threads);
  if (!s.spec.resume.empty()) s.options.warmup(0).resume_from(s.spec.resume);
  if (s.target->layout().dimension() == 0) {
    s.options.warmup(0);  // nothing to adapt
    if (s.root) {
      s.observers.tell_note("the model has no parameters: each draw computes its derived quantities and predictions "
                            "(as Stan's fixed_param), without warmup");
    }
  }
  s.result.facts = {s.target->backend(), s.bound.size(), s.bound.seed, settings.get(setting::device),
                    batched ? std::string() : s.model->backend_note};
}

// "theta, a".
std::string centering_names(const model::Centering& centering) {
  std::string names;
  for (const auto& [name, unused] : centering) names += (names.empty() ? "" : ", ") + name;
  return names;
}

// With --reparam auto, the first warmup iterations sample the non-centered form and
// decide each variable's centering (reparam_pilot.h); the model is bound again with them
// and warmup goes on from where the pilot ended. The run records what it sampled as its
// setting reparam, never `auto`, so that more draws of it sample the same space.
void reparameterize(Sampling& s) {
  if (s.model->centering.empty()) return;
  const bool pilots = parse_reparam(s.spec.settings.get(setting::reparam)).kind == ReparamChoice::Kind::automatic;
  const int pilot = std::min(kPilotIterations, s.options.warmup() / 2);
  if (pilots && pilot >= kFewestPilotIterations) {
    if (s.root) {
      s.observers.tell("Reparameterizing " + centering_names(s.model->centering) + ": the first " +
                       std::to_string(pilot) + " warmup iterations sample it non-centered and decide");
    }
    NutsOptions first = s.options;
    first.warmup(2 * pilot);  // of which the pilot takes half
    s.result.pilot = run_reparam_pilot(*s.target, s.model->columns, s.model->centering, first, s.observers.stop_flag(),
                                       s.bound.ranks ? &s.bound.ranks->lockstep() : nullptr);
    s.spec.settings.set(setting::reparam, reparam_text(s.result.pilot->centering));
    s.result.facts.reparam_pilot = s.result.pilot->iterations;
    bind_model(s.spec, s.bound);
    s.model = std::move(s.bound.model);
    s.target = s.spec.settings.get(setting::batched_chains) ? s.model->batch_target.torch_only() : s.model->target;
    // The pilot was the first part of warmup: the rest goes on from where it ended.
    s.options.warmup(s.options.warmup() - s.result.pilot->iterations);
    if (!s.result.pilot->ends.empty()) {
      s.options.initial_positions(s.result.pilot->ends).step_size(s.result.pilot->step_size);
      if (!s.result.pilot->inverse_metric.empty()) s.options.initial_inverse_metric(s.result.pilot->inverse_metric);
    }
  }
  s.spec.settings.set(setting::reparam, reparam_text(s.model->centering));
}

// Chains start at draws of Pathfinder, warmup from their covariance (--init pathfinder).
void start_at_pathfinder(Sampling& s) {
  s.result.init = pathfinder_starts(*s.target, s.options.chains(), s.options.seed(), s.options.metric() == MetricKind::dense);
  s.options.initial_positions(s.result.init->positions);
  if (!s.result.init->inverse_metric.empty()) {
    const auto& covariance = s.result.init->inverse_metric;  // its diagonal, for all but a dense metric
    s.options.initial_inverse_metric(s.options.metric() == MetricKind::low_rank ? low_rank_entries(covariance, {}, {})
                                                                                : covariance);
  }
  char k_hat[32];
  std::snprintf(k_hat, sizeof k_hat, "%.2f", s.result.init->pareto_k);
  s.observers.tell("Chains start at draws of Pathfinder, warmup from their covariance as the inverse metric (4 paths, " +
                   std::to_string(s.result.init->gradient_evaluations) + " evaluations of the log density, k-hat " +
                   k_hat + ")");
}

// The fanout of the draws, the recorder, and the run's start told (rank 0 only).
void begin(Sampling& s, const std::optional<JobRef>& job) {
  const Settings& settings = s.spec.settings;
  if (settings.get(setting::predict)) {
    s.predictive = s.model->predictive();
    if (s.predictive->observed().empty() && settings.get(setting::prior)) {
      s.predictive.reset();  // nothing observed: the prior's draws alone
    } else if (s.predictive->observed().empty()) {
      throw ArgumentError("--predict: " + s.spec.model->name() + " has no observed variables to replicate");
    }
  }
  s.fanout =
      std::make_unique<DrawFanout>(s.model->columns, s.options.chains(), s.predictive.get(), s.result.facts.seed);
  s.result.names = s.fanout->names();
  if (s.spec.record.project) {
    store::RunRecorderOptions recording;
    recording.metric = s.options.metric();  // names the stored inverse metrics
    if (s.spec.record.continues) {
      s.recorder = std::make_unique<store::RunRecorder>(*s.spec.record.project, *s.spec.record.continues, recording);
      if (job) record_job(*s.spec.record.project, *s.spec.record.continues, *job);
    } else {
      store::Project project(*s.spec.record.project, store::Project::OpenMode::create);
      std::vector<std::string> columns = sampler_column_names();
      for (const auto& name : s.model->columns.names(NameStyle::StanCsv)) columns.push_back(name);
      s.recorder = std::make_unique<store::RunRecorder>(
          *s.spec.record.project, new_run(project, s.spec, std::move(columns), s.result.facts, job), recording);
    }
    s.result.run_id = s.recorder->run_id();
    s.fanout->set_recorder(s.recorder.get());
  }
  s.fanout->set_observer(s.observers.draws);
  if (s.observers.started) {
    RunStarted started;
    started.run_id = s.result.run_id;
    started.columns.assign(s.result.names.begin() + static_cast<std::ptrdiff_t>(sampler_column_names().size()),
                           s.result.names.end());  // with `predict`, the predictive columns too
    started.bracketed = s.model->columns.names(NameStyle::Bracketed);
    started.parameter_columns = s.model->parameter_columns;
    started.facts = s.result.facts;
    started.reparam = s.model->centering.empty() ? "none" : reparam_text(s.model->centering);
    s.observers.started(started);
  }
}

// The chains, on this process (in lockstep with the others of a run on several).
void sample_here(Sampling& s) {
  const Settings& settings = s.spec.settings;
  if (settings.get(setting::prior)) {
    s.result.chains = sample_prior(*s.spec.model, s.spec.data, s.target->layout(), s.options.chains(),
                                   s.options.draws(), s.options.seed(), s.fanout.get(), s.observers.stop_flag());
  } else if (settings.get(setting::until_ess)) {
    s.result.rule = auto_stop_rule(settings);
    s.result.auto_stop = workflow::sample_until_converged(
        *s.target, s.model->columns, s.options, *s.result.rule, s.fanout.get(), s.observers.stop_flag(),
        [&s](const workflow::ConvergenceCheck& check, int more) {
          s.observers.tell(workflow::describe_round(check, more));
          if (s.observers.round) s.observers.round(more);
        });
    s.result.chains = s.result.auto_stop->chains;
  } else {
    s.result.chains = sample_nuts(*s.target, s.options, s.root ? s.fanout.get() : nullptr, s.observers.stop_flag(),
                                  s.bound.ranks ? &s.bound.ranks->lockstep() : nullptr);
  }
}

// A worker's events as sample_nuts would have made them: handed to the fanout once the
// record has started (the worker's facts start it), and gathered into chains.
class JobReplay : public SampleObserver {
 public:
  explicit JobReplay(Sampling& s) : s_(s) {}
  void on_draws(const DrawBatch& batch) override {
    if (!s_.fanout) return;  // a failure before the run began
    s_.fanout->on_draws(batch);
    auto& stats = chains_[batch.chain].stats;
    stats.insert(stats.end(), batch.stats.begin(), batch.stats.end());
  }
  void on_adapted(int chain, double step_size, const std::vector<double>& metric) override {
    if (s_.fanout) s_.fanout->on_adapted(chain, step_size, metric);
  }
  void on_chain_finished(const ChainResult& result) override {
    if (!s_.fanout) return;
    ChainResult end = result;
    end.stats = std::move(chains_[end.chain].stats);
    // The message leaves positions out; more draws start from the last one seen.
    if (const auto last = s_.fanout->last_position(end.chain); !last.empty()) end.positions.push_back(last);
    s_.fanout->on_chain_finished(end);
    chains_[end.chain] = std::move(end);
  }
  std::vector<ChainResult> chains() {
    std::vector<ChainResult> results;
    for (auto& [chain, result] : chains_) results.push_back(std::move(result));
    return results;
  }

 private:
  Sampling& s_;
  std::map<int, ChainResult> chains_;
};

WorkerAddress worker_of(const Settings& settings) {
  return {*settings.get(setting::worker), *settings.get(setting::token_file), settings.get(setting::tls_ca),
          settings.get(setting::heartbeat_timeout)};
}

// The chains, made by a worker (a job submitted now, or the spec's job followed again).
void sample_on_worker(Sampling& s) {
  const WorkerAddress worker = worker_of(s.spec.settings);
  // The worker's pilot would decide centerings this process does not learn, and more draws
  // of the run must sample the same space: a worker samples them non-centered.
  if (parse_reparam(s.spec.settings.get(setting::reparam)).kind == ReparamChoice::Kind::automatic) {
    s.spec.settings.set(setting::reparam, std::string("noncentered"));
  }
  JobRef job = s.spec.job.value_or(JobRef{});
  if (!s.spec.job) {
    Settings submitted = s.spec.settings;  // the seed drawn here, so that a reattach writes the same
    submitted.set(setting::seed, std::optional<uint64_t>(s.result.facts.seed));
    const JobSubmission submission{Method::nuts, s.spec.model->name(), *s.spec.model->text(), s.spec.data,
                                   submitted.arguments(Method::nuts, kAcceptedByWorker), s.spec.resume};
    job.id = s.spec.remote->submit(worker, submission);
    if (s.spec.record.continues && s.spec.record.project) {  // the job's iterations follow the rows the run has
      for (const auto& chain : store::Project(*s.spec.record.project).chains(*s.spec.record.continues)) {
        job.offsets.push_back(static_cast<int>(chain.rows));
      }
    }
    s.observers.tell("job " + job.id + " on " + worker.address + " (reattach: " +
                     s.spec.remote->reattach_hint(worker, job.id) + ")");
  }
  s.result.job = job.id;
  if (s.spec.job && s.observers.found_paused && s.spec.remote->paused(worker, job.id)) s.observers.found_paused();
  JobReplay replay(s);
  JobEvents events;
  events.started = [&](const RunFacts& facts) {
    s.result.facts = facts;
    begin(s, job);
    if (s.spec.job && s.spec.record.continues) {  // followed again: the project has some of its draws
      s.fanout->skip_recorded(store::Project(*s.spec.record.project).chains(*s.spec.record.continues), job.offsets);
    }
  };
  events.draws = &replay;
  JobEnd end;
  try {
    end = s.spec.remote->follow(worker, job.id, events, s.observers);
  } catch (const JobGoesOnError&) {
    throw;
  } catch (const RemoteError& e) {  // the worker is gone, not the job
    throw JobGoesOnError(e.what());
  }
  if (end.state == JobEnd::State::detached) {
    throw JobGoesOnError("detached from job " + job.id + "; it goes on: " + s.spec.remote->reattach_hint(worker, job.id));
  }
  if (end.state == JobEnd::State::failed || end.state == JobEnd::State::interrupted ||
      cancelled_elsewhere(end, s.observers)) {
    const std::string why = !end.message.empty()                      ? end.message
                            : end.state == JobEnd::State::failed  ? "failed on the worker"
                            : end.state == JobEnd::State::stopped ? "cancelled on the worker"
                                                                   : "interrupted: the worker stopped while it ran";
    throw RemoteError("job " + job.id + " on " + worker.address + ": " + why);
  }
  if (!s.fanout) throw RemoteError("job " + job.id + " ended before its run began");
  s.result.stopped = end.state == JobEnd::State::stopped;
  s.result.chains = replay.chains();
}

// The summary as `variate sample` prints it and the project stores it: of this run's
// draws, or of all a continued run has.
void summarize(Sampling& s) {
  SampleResult& r = s.result;
  r.warmup = s.options.warmup() + (r.pilot ? r.pilot->iterations : 0);
  r.totals = io::sampler_totals(r.chains);
  if (s.spec.record.continues && s.spec.record.project) {
    s.recorder->commit();
    const store::StoredRunSummary stored = store::summarize_run(store::Project(*s.spec.record.project), r.run_id);
    r.summary = {stored.parameters, stored.sampler_rows};
    if (stored.totals) r.totals = *stored.totals;
    r.warnings = stored.warnings;
    r.draws = r.chains.empty() ? 0 : std::numeric_limits<int>::max();
    for (const ChainResult& chain : r.chains) {
      r.draws = std::min(r.draws, std::max(0, static_cast<int>(chain.positions.size()) - chain.warmup_iterations));
    }
  } else {
    // Counted from the rows, not the positions: a worker's chains arrive without them.
    const io::ChainRows& rows = s.fanout->sampling_rows();
    r.draws = rows.empty() ? 0 : std::numeric_limits<int>::max();
    for (const auto& chain : rows) r.draws = std::min(r.draws, static_cast<int>(chain.size()));
    r.summary = io::summarize_chains(s.fanout->sampling_rows(), r.names);
    const io::SamplerChecks checks = io::sampler_checks(s.fanout->sampling_rows(), s.options.max_tree_depth());
    r.warnings = io::summary_warnings(checks, r.summary.parameters);
  }
  if (s.model && s.target) {
    if (std::string rejected = rejection_warning(*s.model, *s.target); !rejected.empty()) r.warnings.push_back(rejected);
  }
  if (r.pilot) r.totals.gradient_evaluations += r.pilot->gradient_evaluations;  // warmup's first part
  r.document = io::summary_document(r.summary.parameters, r.totals, r.facts.backend, r.facts.ranks);
  if (s.spec.settings.get(setting::prior)) r.document["prior"] = true;  // draws of the prior, by simulation
  if (r.init) {
    r.document["init"] = {{"method", "pathfinder"},
                          {"gradient_evaluations", r.init->gradient_evaluations},
                          {"pareto_k", r.init->pareto_k}};
  }
  if (r.auto_stop) r.document["auto_stop"] = auto_stop_json(*r.rule, *r.auto_stop);
  if (!r.centering.empty()) {
    nlohmann::ordered_json variables;
    for (const auto& [name, centering] : r.centering) variables[name] = centering;
    r.document["reparameterized"] = {{"centering", variables}};
    if (r.pilot) {
      r.document["reparameterized"]["pilot"] = {{"iterations_per_chain", r.pilot->iterations},
                                                {"gradient_evaluations", r.pilot->gradient_evaluations}};
    }
  }
  for (const ChainResult& chain : r.chains) r.stopped = r.stopped || chain.stopped_early;
  r.stopped = r.stopped || s.observers.stop_requested();
}

}  // namespace

NutsOptions nuts_options(const Settings& settings, uint64_t seed, int threads) {
  NutsOptions options =
      NutsOptions()
          .chains(settings.get(setting::chains))
          .warmup(settings.get(setting::warmup))
          .draws(settings.get(setting::draws))
          .seed(seed)
          .threads(threads)
          .max_tree_depth(settings.get(setting::max_depth))
          .target_accept(settings.get(setting::adapt_delta))
          .step_size(settings.get(setting::stepsize))
          .metric(metric_kind(settings))
          .adaptation(settings.get(setting::adapt) == "fisher" ? Adaptation::fisher : Adaptation::stan)
          .batched_chains(settings.get(setting::batched_chains));
  const std::string init = settings.get(setting::init);
  if (init != "pathfinder" && !names_init_files(init)) options.init_radius(std::stod(init));
  return options;
}

Settings sampled_settings(Settings settings) {
  if (!settings.get(setting::prior)) return settings;
  settings.set(setting::predict, true);
  settings.set(setting::reparam, std::string("none"));
  settings.set(setting::warmup, 0);
  settings.set(setting::init, std::string("2"));
  return settings;
}

SampleResult run_sample(const RunSpec& given, const RunObservers& observers) {
  check_spec(given);
  RunSpec spec = given;
  spec.settings = sampled_settings(given.settings);
  if (spec.record.project && !spec.record.continues) check_data_fits_project(spec.data);
  Sampling s{spec, observers};
  RankFiles files;
  const bool on_worker = spec.settings.get(setting::worker).has_value();
  try {
    if (on_worker) {
      s.model = bind_for_worker(s.spec);
      s.target = s.model->target;
      s.options = nuts_options(spec.settings, 0, 0);
      const uint64_t seed = spec.settings.get(setting::seed).value_or(std::random_device{}());
      s.result.facts.seed = seed;
      s.options.seed(seed);
      if (!spec.resume.empty()) s.options.warmup(0);
      s.result.centering = s.model->centering;
      sample_on_worker(s);
    } else {
      bind(s, files);
      reparameterize(s);
      s.result.centering = s.model->centering;
      const std::string init = spec.settings.get(setting::init);
      if (init == "pathfinder" && s.target->layout().dimension() > 0) start_at_pathfinder(s);
      if (names_init_files(init) && s.target->layout().dimension() > 0) {
        s.options.initial_positions(init_positions(init, s.target->layout(), s.model->derived_names, s.options.chains()));
      }
      if (s.root) {
        check_memory_of(s.options, *s.model, s.model->columns.size(), observers.draws && observers.draws->keeps_rows());
        begin(s, std::nullopt);
        s.fanout->hold_while_paused(&observers);
      }
      sample_here(s);
      if (s.bound.ranks) s.bound.ranks->finish();
    }
    s.result.root = s.root;
    if (!s.root) return std::move(s.result);
    summarize(s);
    if (s.recorder) s.recorder->finish(s.result.document.dump(2) + "\n");
    return std::move(s.result);
  } catch (const JobGoesOnError&) {
    if (s.fanout) s.fanout->set_recorder(nullptr);
    s.recorder.reset();  // left interrupted: following the job again fills it in
    throw;
  } catch (const NoInitialPointError& e) {  // which argument is invalid, where the model can tell
    if (s.bound.ranks) s.bound.ranks->abort();
    const std::string report = s.model ? s.model->explain_no_initial_point() : std::string();
    const std::string message = report.empty() ? e.what() : std::string(e.what()) + "\n" + report;
    if (s.recorder) s.recorder->fail(message);
    throw NoInitialPointError(message);
  } catch (const distributed::DistributedError& e) {
    const std::string message = DistributedRun::failure(e, s.bound.ranks.get());
    if (s.recorder) s.recorder->fail(message);
    throw distributed::DistributedError(message);
  } catch (const std::exception& e) {
    if (s.bound.ranks) s.bound.ranks->abort();
    if (s.recorder) s.recorder->fail(e.what());
    throw;
  }
}

}  // namespace variate::services
