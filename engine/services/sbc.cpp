#include "engine/services/sbc.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/core/random_stream.h"
#include "engine/core/threading.h"
#include "engine/distributed/distributed_error.h"
#include "engine/distributed/rendezvous.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/model/compile.h"
#include "engine/services/bound_run.h"
#include "engine/services/fit.h"
#include "engine/services/pathfinder.h"
#include "engine/services/rank_command.h"
#include "engine/services/run_config.h"
#include "engine/services/run_record.h"
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"
#include "engine/store/project.h"
#include "engine/target/parameter_names.h"
#include "engine/workflow/prior_draws.h"

namespace variate::services {
namespace {

// Each chain's sampling rows (outputs only), as the run hands them over.
class RowCollector : public DrawObserver {
 public:
  void on_draws(const DrawBatch& batch, const Rows& rows) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& chain = chains_[batch.chain];
    for (size_t i = 0; i < rows.size(); ++i) {
      if (batch.first_iteration + static_cast<int>(i) >= batch.warmup_iterations) chain.push_back(rows[i]);
    }
  }
  bool reads_warmup_rows() const override { return false; }
  std::map<int, Rows> chains_;

 private:
  std::mutex mutex_;
};

// What one fit gives the ranks: its outputs' names and draws (chains in order), and its
// checks.
struct FitDraws {
  std::vector<std::string> names;
  std::vector<Rows> chains;
  int64_t divergences = 0;
  double max_rhat = 0;
};

FitDraws fit_draws(const RunSpec& spec) {
  RunObservers quiet;
  FitDraws fit;
  if (spec.method == Method::nuts) {
    RowCollector rows;
    quiet.draws = &rows;
    const SampleResult result = run_sample(spec, quiet);
    fit.names.assign(result.names.begin() + static_cast<std::ptrdiff_t>(sampler_column_names().size()),
                     result.names.end());
    for (auto& [chain, chain_rows] : rows.chains_) fit.chains.push_back(std::move(chain_rows));
    fit.divergences = result.totals.divergences;
    for (const auto& row : result.summary.parameters) fit.max_rhat = std::max(fit.max_rhat, row.r_hat);
  } else if (spec.method == Method::advi) {
    const FitResult result = run_fit(spec, quiet);
    fit.names = result.names;
    fit.chains = {result.rows};
  } else {
    const PathfinderRunResult result = run_pathfinder(spec, quiet);
    fit.names = result.names;
    fit.chains = {result.rows};
  }
  return fit;
}

// The simulated values, the parameters' and the derived quantities' at them, by Stan CSV
// name ("theta.1"), column-major as a run writes them.
std::map<std::string, double> truth_by_name(const model::CompiledModel& generator, const workflow::PriorDraw& draw) {
  std::map<std::string, double> truth;
  const ValueMap derived = generator.derived(draw.parameters);
  for (const ValueMap* values : {&draw.parameters, &derived}) {
    for (const auto& [name, value] : *values) {
      const Shape shape(value.sizes().begin(), value.sizes().end());
      const at::Tensor flat = value.to(at::kDouble).contiguous().reshape(-1);
      const auto names = element_names(name, shape, NameStyle::StanCsv);
      const auto order = column_major_order(shape);
      for (size_t k = 0; k < names.size(); ++k) truth[names[k]] = flat[order[k]].item<double>();
    }
  }
  return truth;
}

// What --summary-json writes: the settings, per quantity its tests and verdict, and the
// replications that had problems.
nlohmann::ordered_json sbc_document(const SbcSpec& spec, const ModelSource& generator, const SbcResult& r) {
  nlohmann::ordered_json quantities = nlohmann::ordered_json::array();
  for (const auto& test : r.tests) {
    quantities.push_back(
        {{"name", test.name},
         {"uniform", test.uniform()},
         {"ecdf",
          {{"inside_band", test.ecdf.uniform},
           {"first_outside_rank",
            test.ecdf.uniform ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(test.ecdf.first_outside - 1)},
           {"band_prob", spec.prob},
           {"gamma", test.ecdf.band.gamma}}},
         {"chi_square",
          {{"statistic", test.chi_square.statistic},
           {"degrees_of_freedom", test.chi_square.degrees_of_freedom},
           {"p_value", test.chi_square.p_value},
           {"counts", test.chi_square.counts}}}});
  }
  nlohmann::ordered_json problems = nlohmann::ordered_json::array();
  for (const auto& replication : r.replications) {
    if (!replication.problem()) continue;
    problems.push_back({{"replication", replication.index + 1},
                        {"seed", replication.seed},
                        {"divergences", replication.divergences},
                        {"max_rhat", replication.max_rhat},
                        {"failure", replication.failure}});
  }
  return {{"sbc",
           {{"model", spec.run.model->name()},
            {"generator", generator.name()},
            {"method", spec.run.settings.get(setting::fit)},
            {"replications", r.replications.size()},
            {"thin", spec.run.settings.get(setting::thin)},
            {"max_rank", r.max_rank},
            {"seed", r.seed},
            {"seconds", r.seconds},
            {"quantities", quantities},
            {"problems", problems}}}};
}

uint64_t replication_seed_of(uint64_t run_seed, int index) {
  return RandomStream::for_chain(run_seed, static_cast<uint64_t>(index) + 1).next();
}

// The fit of replication `index` of simulated `data`: one process, one thread unless
// asked, its own seed.
RunSpec replication_spec(const RunSpec& fit_spec, const Data& data, int index, uint64_t seed, bool with_workers) {
  RunSpec fit = fit_spec;
  fit.data = DataInput::of(data, "replication " + std::to_string(index + 1));
  fit.settings.set(setting::seed, std::optional<uint64_t>(seed));
  fit.settings.set(setting::nproc, std::optional<int>());  // the replications' processes, not the fit's
  fit.rendezvous.reset();
  fit.world_size.reset();
  fit.rank.reset();
  // A worker samples `auto` non-centered: so does every replication, wherever it runs.
  if (with_workers && fit.settings.get(setting::reparam) == "auto") {
    fit.settings.set(setting::reparam, std::string("noncentered"));
  }
  if (!fit.settings.given(setting::threads.descriptor())) fit.settings.set(setting::threads, 1);
  fit.record = {};
  return fit;
}

// The model data are simulated from, compiled against `data` (its sizes and covariates).
// @throws ArgumentError for a model written in C++ (no text), one that does not compile,
// or one it cannot simulate (workflow::check_simulable).
model::CompiledModel compiled_generator(const ModelSource& source, const Data& data) {
  if (!source.text()) throw ArgumentError("SBC simulates from a model's text; a model written in C++ has none");
  model::CompileResult compiled = model::compile_model(model::Source(source.name(), *source.text()), &data);
  if (!compiled.ok()) throw ArgumentError(compiled.report());
  workflow::check_simulable(*compiled.checked);
  return std::move(*compiled.model);
}

// The simulation's model: the setting generator's file, or the fitted model.
std::shared_ptr<const ModelSource> generator_of(const RunSpec& run) {
  const std::optional<std::string> file = run.settings.get(setting::generator);
  if (!file) return run.model;
  return std::make_shared<VmodSource>(VmodSource::from_file(*file));
}

// Each replication's fit: the run's spec, its method the setting fit.
RunSpec fit_spec_of(const RunSpec& run) {
  RunSpec fit = run;
  fit.method = fit_method(run.settings);
  fit.record = {};
  fit.settings.set(setting::worker, std::optional<std::string>());  // SbcSpec::workers take replications
  return fit;
}

class SbcRun {
 public:
  SbcRun(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress)
      : spec_(spec),
        observers_(observers),
        progress_(progress),
        fit_(fit_spec_of(spec.run)),
        replications_(spec.run.settings.get(setting::replications)),
        thin_(spec.run.settings.get(setting::thin)) {}

  SbcResult run() {
    check_spec();
    generator_source_ = generator_of(spec_.run);
    const auto start = std::chrono::steady_clock::now();
    RankFiles files;
    const IntraOpThreads one_thread(1);  // as each replication's fit plans it (CoreLimit)
    try {
      // The other processes first: they check the model while this one does.
      ranks_ = DistributedRun::start(rank_plan(files), [this](const std::string& line) { observers_.tell(line); });
      distributed::forget_rendezvous_environment();  // each replication's fit is a run of one process
      check_model();
      result_.root = !ranks_ || ranks_->root();
      result_.processes = ranks_ ? ranks_->size() : 1;
      result_.replications.resize(replications_);
      if (result_.root) open_record();  // a continued run's seed and replications
      const std::optional<uint64_t> seed = continued_seed_ ? continued_seed_ : fit_.settings.get(setting::seed);
      result_.seed = ranks_ ? ranks_->agree_on_seed(seed) : seed.value_or(std::random_device{}());
      if (result_.root) start_record();
      if (ranks_) agree_on_stored();
      fit_here();
      if (ranks_) gather();
      if (ranks_) ranks_->finish();
    } catch (const distributed::DistributedError& e) {
      fail_record(e.what());
      throw distributed::DistributedError(DistributedRun::failure(e, ranks_.get()));
    } catch (const std::exception& e) {
      fail_record(e.what());
      if (ranks_) ranks_->abort();
      throw;
    }
    result_.stopped = observers_.stop_requested();
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result_.root) {
      test();
      result_.document = sbc_document(spec_, *generator_source_, result_);
      finish_record();
    }
    return std::move(result_);
  }

 private:
  void check_spec() const {
    const Method method = fit_.method;
    if (method != Method::nuts && method != Method::advi && method != Method::pathfinder) {
      throw ArgumentError("SBC fits with nuts, advi or pathfinder");
    }
    if (!spec_.workers.empty() && !fit_.settings.get(setting::token_file)) {
      throw ArgumentError("--worker needs --token-file");
    }
    if (!spec_.workers.empty() && !fit_.remote) {
      throw ArgumentError("this program was built without remote workers (gRPC was not found)");
    }
  }

  // The simulation's model and the fit's quantities; a model it cannot simulate is refused.
  void check_model() {
    const ModelSource& source = *generator_source_;
    const Data data = fit_.data.read();
    generator_.emplace(compiled_generator(source, data));
    // The fit's quantities, known before any fit so that every process agrees on them.
    const BoundModel fitted = fit_.model->bind(fit_.data, compile_choice(fit_.settings));
    result_.quantities = fitted.columns.names(NameStyle::StanCsv);
    bracketed_ = fitted.columns.names(NameStyle::Bracketed);
    parameter_columns_ = fitted.parameter_columns;
    data_ = data;
    // A prior that cannot be drawn from (improper, or constrained beyond its family's
    // support) fails every draw: refused before any replication. So is a generator that
    // lacks a quantity the fit ranks.
    const auto truth = truth_by_name(
        *generator_, workflow::draw_from_prior(*generator_, data_, at::make_generator<at::CPUGeneratorImpl>(0)));
    for (const std::string& name : result_.quantities) {
      if (!truth.count(name)) {
        throw ArgumentError(source.name() + " has no '" + to_style(name, NameStyle::Bracketed) + "', which " +
                            fit_.model->name() + " has: the data must come from a model of the same parameters");
      }
    }
  }

  // Where the processes come from: the fit's setting nproc on this host (the others run
  // `variate sbc` with the same model, data and settings), or its rendezvous.
  RankPlan rank_plan(RankFiles& files) const {
    RankPlan plan = services::rank_plan(fit_, files, "sbc", spec_.run.settings.arguments(Method::sbc, kSharedByRanks));
    plan.split_rows = false;
    if (plan.nproc.value_or(1) <= 1) plan.nproc.reset();  // one process: no group
    return plan;
  }

  // --- The project's record (rank 0) ------------------------------------------------

  // Opens the project; a continued run gives its seed and the replications it stored.
  void open_record() {
    if (!spec_.run.record.project) return;
    check_data_fits_project(spec_.run.data);
    project_.emplace(*spec_.run.record.project, store::Project::OpenMode::create);
    if (!spec_.run.record.continues) return;
    const store::RunInfo info = project_->run(*spec_.run.record.continues);
    if (info.method != Method::sbc)
      throw ArgumentError("run '" + info.name + "' is no SBC run: it cannot be continued as one");
    if (info.columns != result_.quantities) {
      throw ArgumentError("run '" + info.name + "' ranked other quantities than the model has now");
    }
    check_continues(info);
    continued_seed_ = info.seed;
    for (const store::SbcReplicationRecord& stored : project_->sbc_replications(info.id)) {
      if (stored.replication < 0 || stored.replication >= replications_) continue;
      SbcReplication& r = result_.replications[stored.replication];
      r = {stored.replication, stored.seed, stored.ranks, stored.divergences, stored.max_rhat, stored.failure, true};
      stored_.push_back(stored.replication);
      if (!stored.ranks.empty()) {
        result_.max_rank = stored.max_rank;
        has_max_rank_ = true;
      }
    }
  }

  // A continued run's replications are those of its model, data and settings: anything
  // else would mix two calibrations in one. What only decides where and how fast its
  // replications run may differ, and so may their number (more of them go on from the
  // stored ones: each replication's seed is its own).
  void check_continues(const store::RunInfo& info) const {
    const std::string refused = "run '" + info.name + "' cannot be continued with ";
    if (project_->model_version(info.model_version_id).text != spec_.run.model->text().value_or("")) {
      throw ArgumentError(refused + "another model: it was made with version " +
                          std::to_string(project_->model_version(info.model_version_id).version) + " of '" +
                          project_->model_version(info.model_version_id).model_name + "'");
    }
    const std::string data = spec_.run.data.given() ? spec_.run.data.json_text() : "";
    if (data != (info.data_set_id ? project_->data_set(*info.data_set_id).json_text : "")) {
      throw ArgumentError(refused + "other data than it was made with");
    }
    static const std::set<std::string> free = {"seed",         "replications", "parallel", "threads",          "nproc",
                                               "dist_timeout", "token_file",   "tls_ca",   "heartbeat_timeout"};
    const Settings made = read_run_config(Method::sbc, info.config_json).settings;
    std::vector<const SettingDescriptor*> settings = settings_of(Method::sbc);
    for (const SettingDescriptor* setting : settings_of(fit_.method)) settings.push_back(setting);
    for (const SettingDescriptor* setting : settings) {
      if (free.count(setting->name) || !sbc_fit_takes(*setting)) continue;
      const auto was = made.value_of(*setting), is = spec_.run.settings.value_of(*setting);
      if (was == is) continue;
      const auto text = [&](const std::optional<SettingValue>& value) {
        return value ? setting->format(*value) : "(" + setting->none_means + ")";
      };
      throw ArgumentError(refused + setting->flag() + " " + text(is) + ": it was made with " + text(was));
    }
  }

  // Adds the run (or makes the continued one running again) and tells the front end.
  void start_record() {
    RunStarted started;
    started.columns = result_.quantities;
    started.bracketed = bracketed_;
    started.parameter_columns = parameter_columns_;
    started.facts.seed = result_.seed;
    started.facts.ranks = result_.processes;
    if (project_) {
      if (spec_.run.record.continues) {
        run_id_ = *spec_.run.record.continues;
        project_->resume_run(run_id_);
        // Its number of replications as continued (more than it had, or fewer).
        project_->set_run_config(run_id_,
                                 run_config_json(Method::sbc, spec_.run.settings, started.facts, std::nullopt).dump());
      } else {
        run_id_ = project_->create_run(new_run(*project_, spec_.run, result_.quantities, started.facts));
      }
      result_.run_id = run_id_;
    }
    started.run_id = run_id_;
    if (observers_.started) observers_.started(started);
    done_ = static_cast<int>(stored_.size());
    for (int index : stored_) {  // the front end's view starts with what was stored
      if (progress_) progress_(result_.replications[index], result_.max_rank, done_);
    }
  }

  // mutex_ held. A failed write ends the run (the replications after it could not be
  // stored): the threads take no more, and run() throws it.
  void record(const SbcReplication& r) {
    if (!project_ || record_failure_) return;
    try {
      project_->write_sbc_replication(run_id_, r.record(result_.max_rank));
    } catch (const std::exception& e) {
      record_failure_ = e.what();
      record_failed_ = true;
    }
  }

  void finish_record() {
    if (!project_) return;
    project_->set_diagnostics(run_id_, result_.document.dump());
    project_->finish_run(run_id_, result_.stopped ? store::RunStatus::stopped : store::RunStatus::finished);
  }

  void fail_record(const std::string& message) noexcept {
    if (!project_ || run_id_ < 0) return;
    try {
      project_->finish_run(run_id_, store::RunStatus::failed, message);
    } catch (const std::exception&) {  // the open will mark it interrupted
    }
  }

  // Every process learns which replications rank 0 has stored (they are not fitted again).
  void agree_on_stored() {
    at::Tensor stored = at::zeros({replications_}, at::kDouble);
    for (int index : stored_) stored[index] = 1;
    ranks_->communicator()->allreduce_sum(stored);  // only rank 0's are non-zero
    stored_.clear();
    for (int r = 0; r < replications_; ++r) {
      if (stored[r].item<double>() > 0) stored_.push_back(r);
    }
  }

  bool is_stored(int index) const { return std::find(stored_.begin(), stored_.end(), index) != stored_.end(); }

  // Replications as this process's threads become free: the next index from a counter all
  // processes share (or this process's own), so a slow fit holds up no other.
  void fit_here() {
    const int cores = ranks_ ? ranks_->threads(0) : hardware_threads();
    const int asked = spec_.run.settings.get(setting::parallel);
    const int parallel = std::max(1, std::min(replications_, asked > 0 ? asked : cores));
    // The replications left: all but those a continued run stored.
    std::vector<int> left;
    for (int r = 0; r < replications_; ++r) {
      if (!is_stored(r)) left.push_back(r);
    }
    const auto count = static_cast<int>(left.size());
    std::atomic<int> local{0};
    const auto next = [&]() -> int {
      return ranks_ ? static_cast<int>(ranks_->next_ticket("sbc/replications")) : local++;
    };
    const auto work = [&](const std::string& worker) {
      for (int k = next(); k < count && !observers_.stop_requested() && !record_failed_; k = next()) {
        replicate(left[k], worker);
      }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < parallel; ++t) threads.emplace_back(work, std::string());
    if (!ranks_ || ranks_->root()) {  // the workers are rank 0's
      for (const std::string& worker : spec_.workers) threads.emplace_back(work, worker);
    }
    work(std::string());
    for (auto& thread : threads) thread.join();
    if (record_failure_) throw store::ProjectError(*record_failure_);
  }

  // Every rank's replications to every rank: one row per replication (ran, failed,
  // divergences, max R-hat, then the ranks), each filled by the rank that fitted it, summed.
  void gather() {
    const auto q = static_cast<int64_t>(result_.quantities.size());
    const int size = ranks_->size();
    at::Tensor rows = at::zeros({replications_, 4 + q}, at::kDouble);
    auto row = rows.accessor<double, 2>();
    for (int r : fitted_here_) {
      const SbcReplication& mine = result_.replications[r];
      row[r][0] = 1;
      row[r][1] = mine.failure.empty() ? 0 : 1;
      row[r][2] = static_cast<double>(mine.divergences);
      row[r][3] = mine.max_rhat;
      for (int64_t k = 0; k < q && k < static_cast<int64_t>(mine.ranks.size()); ++k) {
        row[r][4 + k] = static_cast<double>(mine.ranks[k]);
      }
    }
    ranks_->communicator()->allreduce_sum(rows);
    at::Tensor max_rank = at::full({1}, static_cast<double>(result_.max_rank), at::kDouble);
    at::Tensor all_max = at::zeros({size, 1}, at::kDouble);
    ranks_->communicator()->allgather(max_rank, all_max);
    result_.max_rank = static_cast<int64_t>(all_max.max().item<double>());
    row = rows.accessor<double, 2>();
    for (int r = 0; r < replications_; ++r) {
      if (is_stored(r) || std::find(fitted_here_.begin(), fitted_here_.end(), r) != fitted_here_.end()) continue;
      SbcReplication theirs;
      theirs.index = r;
      theirs.seed = replication_seed(r);
      theirs.divergences = static_cast<int64_t>(row[r][2]);
      theirs.max_rhat = row[r][3];
      if (row[r][0] == 0) continue;  // stopped before it ran
      theirs.ended = true;
      if (row[r][1] != 0) {
        theirs.failure = "failed on another process (its message is in that process's output)";
      } else {
        for (int64_t k = 0; k < q; ++k) theirs.ranks.push_back(static_cast<int64_t>(row[r][4 + k]));
      }
      result_.replications[r] = theirs;
    }
  }

  uint64_t replication_seed(int index) const { return replication_seed_of(result_.seed, index); }

  // Replication `index`, fitted here, or by `worker` when one is named.
  void replicate(int index, const std::string& worker) {
    SbcReplication replication;
    replication.index = index;
    replication.seed = replication_seed(index);
    replication.ended = true;
    try {
      const CoreLimit one_core(1);  // the fit's chains and tensor operations: the cores go to replications
      at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(replication.seed);
      const workflow::PriorDraw draw = workflow::draw_from_prior(*generator_, data_, generator);
      RunSpec fit = replication_spec(fit_, draw.data, index, replication.seed, !spec_.workers.empty());
      if (!worker.empty()) fit.settings.set(setting::worker, std::optional<std::string>(worker));
      const FitDraws fitted = fit_draws(fit);
      replication.divergences = fitted.divergences;
      replication.max_rhat = fitted.max_rhat;
      rank(replication, fitted, truth_by_name(*generator_, draw));
    } catch (const std::exception& e) {
      replication.failure = e.what();
      replication.ranks.clear();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    result_.replications[index] = replication;
    fitted_here_.push_back(index);
    ++done_;
    if (result_.root) record(replication);  // a failed write fails the run: the rest would be lost
    if (progress_) progress_(result_.replications[index], result_.max_rank, done_);
  }

  // The rank of each quantity's simulated value among the fit's thinned draws.
  void rank(SbcReplication& replication, const FitDraws& fitted, const std::map<std::string, double>& truth) {
    std::vector<size_t> columns;
    std::vector<std::string> names;
    for (size_t c = 0; c < fitted.names.size(); ++c) {
      if (truth.count(fitted.names[c])) {
        columns.push_back(c);
        names.push_back(fitted.names[c]);
      }
    }
    std::vector<std::vector<double>> kept(columns.size());
    for (const Rows& chain : fitted.chains) {
      for (size_t i = 0; i < chain.size(); i += thin_) {
        for (size_t q = 0; q < columns.size(); ++q) kept[q].push_back(chain[i][columns[q]]);
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto kept_draws = kept.empty() ? int64_t{0} : static_cast<int64_t>(kept[0].size());
      if (!has_max_rank_) result_.max_rank = kept_draws;
      has_max_rank_ = true;
      if (names != result_.quantities || kept_draws != result_.max_rank) {
        throw ArgumentError("the fit's quantities or its number of draws differ from the model's (a stopped fit?)");
      }
    }
    for (size_t q = 0; q < columns.size(); ++q) {
      replication.ranks.push_back(diagnostics::rank_of(truth.at(names[q]), kept[q]));
    }
  }

  void test() {
    std::vector<std::vector<int64_t>> ranks(result_.quantities.size());
    for (const auto& r : result_.replications) {
      for (size_t q = 0; q < r.ranks.size(); ++q) ranks[q].push_back(r.ranks[q]);
    }
    if (ranks.empty() || ranks[0].empty()) return;
    const auto n = static_cast<int64_t>(ranks[0].size());
    const diagnostics::EcdfBand band = diagnostics::simultaneous_ecdf_band(n, result_.max_rank + 1, spec_.prob);
    const int bins = diagnostics::default_bins(n, result_.max_rank);
    for (size_t q = 0; q < ranks.size(); ++q) {
      result_.tests.push_back({to_style(result_.quantities[q], NameStyle::Bracketed),
                               diagnostics::ecdf_uniformity(ranks[q], result_.max_rank, band),
                               diagnostics::binned_chi_square(ranks[q], result_.max_rank, bins)});
    }
  }

  const SbcSpec& spec_;
  const RunObservers& observers_;
  const SbcProgress& progress_;
  const RunSpec fit_;
  const int replications_;
  const size_t thin_;
  std::shared_ptr<const ModelSource> generator_source_;
  std::vector<std::string> bracketed_;
  int parameter_columns_ = 0;
  std::optional<store::Project> project_;
  store::Id run_id_ = -1;
  std::optional<uint64_t> continued_seed_;
  std::vector<int> stored_;                    // replications a continued run had stored
  std::optional<std::string> record_failure_;  // mutex_ held
  std::atomic<bool> record_failed_{false};
  Data data_;
  std::optional<model::CompiledModel> generator_;
  std::unique_ptr<DistributedRun> ranks_;
  std::mutex mutex_;
  bool has_max_rank_ = false;
  std::vector<int> fitted_here_;
  int done_ = 0;
  SbcResult result_;
};

}  // namespace

SbcResult run_sbc(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress) {
  return SbcRun(spec, observers, progress).run();
}

RunSpec replication_fit(const SbcSpec& spec, uint64_t run_seed, int index) {
  const RunSpec fit = fit_spec_of(spec.run);
  const Data data = fit.data.read();
  const model::CompiledModel generator = compiled_generator(*generator_of(spec.run), data);
  const uint64_t seed = replication_seed_of(run_seed, index);
  at::Generator random = at::make_generator<at::CPUGeneratorImpl>(seed);
  const workflow::PriorDraw draw = workflow::draw_from_prior(generator, data, random);
  RunSpec replication = replication_spec(fit, draw.data, index, seed, !spec.workers.empty());
  replication.data.name =
      std::filesystem::path(spec.run.data.name).stem().string() + " replication " + std::to_string(index + 1);
  replication.record = spec.run.record;
  replication.record.continues.reset();
  replication.record.run_name.clear();
  return replication;
}

}  // namespace variate::services
