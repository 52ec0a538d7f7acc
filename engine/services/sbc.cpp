#include "engine/services/sbc.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
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
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"
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
nlohmann::ordered_json sbc_document(const SbcSpec& spec, const SbcResult& r) {
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
           {{"model", spec.fit.model->name()},
            {"generator", spec.generator ? spec.generator->name() : spec.fit.model->name()},
            {"method", store::to_string(spec.fit.method)},
            {"replications", r.replications.size()},
            {"thin", spec.thin},
            {"max_rank", r.max_rank},
            {"seed", r.seed},
            {"seconds", r.seconds},
            {"quantities", quantities},
            {"problems", problems}}}};
}

class SbcRun {
 public:
  SbcRun(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress)
      : spec_(spec), observers_(observers), progress_(progress) {}

  SbcResult run() {
    check_spec();
    const auto start = std::chrono::steady_clock::now();
    RankFiles files;
    const IntraOpThreads one_thread(1);  // as each replication's fit plans it (CoreLimit)
    try {
      // The other processes first: they check the model while this one does.
      ranks_ = DistributedRun::start(rank_plan(files), [this](const std::string& line) { observers_.tell(line); });
      distributed::forget_rendezvous_environment();  // each replication's fit is a run of one process
      check_model();
      const std::optional<uint64_t> seed = spec_.fit.settings.get(setting::seed);
      result_.seed = ranks_ ? ranks_->agree_on_seed(seed) : seed.value_or(std::random_device{}());
      result_.root = !ranks_ || ranks_->root();
      result_.processes = ranks_ ? ranks_->size() : 1;
      result_.replications.resize(spec_.replications);
      fit_here();
      if (ranks_) gather();
      if (ranks_) ranks_->finish();
    } catch (const distributed::DistributedError& e) {
      throw distributed::DistributedError(DistributedRun::failure(e, ranks_.get()));
    } catch (...) {
      if (ranks_) ranks_->abort();
      throw;
    }
    result_.stopped = observers_.stop_requested();
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result_.root) {
      test();
      result_.document = sbc_document(spec_, result_);
    }
    return std::move(result_);
  }

 private:
  void check_spec() const {
    if (spec_.replications < 1) throw ArgumentError("--replications must be at least 1");
    if (spec_.thin < 1) throw ArgumentError("--thin must be at least 1");
    const Method method = spec_.fit.method;
    if (method != Method::nuts && method != Method::advi && method != Method::pathfinder) {
      throw ArgumentError("SBC fits with nuts, advi or pathfinder");
    }
    const ModelSource& source = spec_.generator ? *spec_.generator : *spec_.fit.model;
    if (!source.text()) throw ArgumentError("SBC simulates from a model's text; a model written in C++ has none");
    if (!spec_.workers.empty() && !spec_.fit.settings.get(setting::token_file)) {
      throw ArgumentError("--worker needs --token-file");
    }
    if (!spec_.workers.empty() && !spec_.fit.remote) {
      throw ArgumentError("this program was built without remote workers (gRPC was not found)");
    }
  }

  // The simulation's model and the fit's quantities; a model it cannot simulate is refused.
  void check_model() {
    const ModelSource& source = spec_.generator ? *spec_.generator : *spec_.fit.model;
    const Data data = spec_.fit.data.read();
    model::CompileResult compiled = model::compile_model(model::Source(source.name(), *source.text()), &data);
    if (!compiled.ok()) throw ArgumentError(compiled.report());
    workflow::check_simulable(*compiled.checked);
    // The fit's quantities, known before any fit so that every process agrees on them.
    const BoundModel fitted = spec_.fit.model->bind(spec_.fit.data, compile_choice(spec_.fit.settings));
    result_.quantities = fitted.columns.names(NameStyle::StanCsv);
    data_ = data;
    generator_.emplace(std::move(*compiled.model));
    // A prior that cannot be drawn from (improper, or constrained beyond its family's
    // support) fails every draw: refused before any replication. So is a generator that
    // lacks a quantity the fit ranks.
    const auto truth = truth_by_name(
        *generator_, workflow::draw_from_prior(*generator_, data_, at::make_generator<at::CPUGeneratorImpl>(0)));
    for (const std::string& name : result_.quantities) {
      if (!truth.count(name)) {
        throw ArgumentError(source.name() + " has no '" + to_style(name, NameStyle::Bracketed) + "', which " +
                            spec_.fit.model->name() + " has: the data must come from a model of the same parameters");
      }
    }
  }

  // Where the processes come from: the fit's setting nproc on this host (the others run
  // `variate sbc` with the same model, data and options), or its rendezvous.
  RankPlan rank_plan(RankFiles& files) const {
    std::vector<std::string> arguments = {
        "--replications", std::to_string(spec_.replications), "--thin",     std::to_string(spec_.thin),
        "--method",       store::to_string(spec_.fit.method), "--parallel", std::to_string(spec_.parallel)};
    if (spec_.generator && spec_.fit.settings.get(setting::nproc).value_or(1) > 1) {
      const ModelSource& generator = *spec_.generator;
      arguments.push_back("--generator");
      arguments.push_back(generator.file() ? *generator.file() : files.write("generator.vmod", *generator.text()));
    }
    RankPlan plan = services::rank_plan(spec_.fit, files, "sbc", arguments);
    plan.split_rows = false;
    if (plan.nproc.value_or(1) <= 1) plan.nproc.reset();  // one process: no group
    return plan;
  }

  // Replications as this process's threads become free: the next index from a counter all
  // processes share (or this process's own), so a slow fit holds up no other.
  void fit_here() {
    const int cores = ranks_ ? ranks_->threads(0) : hardware_threads();
    const int parallel = std::max(1, std::min(spec_.replications, spec_.parallel > 0 ? spec_.parallel : cores));
    std::atomic<int> local{0};
    const auto next = [&]() -> int {
      return ranks_ ? static_cast<int>(ranks_->next_ticket("sbc/replications")) : local++;
    };
    const auto work = [&](const std::string& worker) {
      for (int r = next(); r < spec_.replications && !observers_.stop_requested(); r = next()) replicate(r, worker);
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < parallel; ++t) threads.emplace_back(work, std::string());
    if (!ranks_ || ranks_->root()) {  // the workers are rank 0's
      for (const std::string& worker : spec_.workers) threads.emplace_back(work, worker);
    }
    work(std::string());
    for (auto& thread : threads) thread.join();
  }

  // Every rank's replications to every rank: one row per replication (ran, failed,
  // divergences, max R-hat, then the ranks), each filled by the rank that fitted it, summed.
  void gather() {
    const auto q = static_cast<int64_t>(result_.quantities.size());
    const int size = ranks_->size();
    at::Tensor rows = at::zeros({spec_.replications, 4 + q}, at::kDouble);
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
    for (int r = 0; r < spec_.replications; ++r) {
      if (std::find(fitted_here_.begin(), fitted_here_.end(), r) != fitted_here_.end()) continue;
      SbcReplication theirs;
      theirs.index = r;
      theirs.seed = replication_seed(r);
      theirs.divergences = static_cast<int64_t>(row[r][2]);
      theirs.max_rhat = row[r][3];
      if (row[r][0] == 0) continue;  // stopped before it ran
      if (row[r][1] != 0) {
        theirs.failure = "failed on another process (its message is in that process's output)";
      } else {
        for (int64_t k = 0; k < q; ++k) theirs.ranks.push_back(static_cast<int64_t>(row[r][4 + k]));
      }
      result_.replications[r] = theirs;
    }
  }

  uint64_t replication_seed(int index) const {
    return RandomStream::for_chain(result_.seed, static_cast<uint64_t>(index) + 1).next();
  }

  // Replication `index`, fitted here, or by `worker` when one is named.
  void replicate(int index, const std::string& worker) {
    SbcReplication replication;
    replication.index = index;
    replication.seed = replication_seed(index);
    try {
      const CoreLimit one_core(1);  // the fit's chains and tensor operations: the cores go to replications
      at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(replication.seed);
      const workflow::PriorDraw draw = workflow::draw_from_prior(*generator_, data_, generator);
      RunSpec fit = spec_.fit;
      fit.data = DataInput::of(draw.data, "replication " + std::to_string(index + 1));
      fit.settings.set(setting::seed, std::optional<uint64_t>(replication.seed));
      fit.settings.set(setting::nproc, std::optional<int>());  // the replications' processes, not the fit's
      fit.rendezvous.reset();
      fit.world_size.reset();
      fit.rank.reset();
      if (!worker.empty()) fit.settings.set(setting::worker, std::optional<std::string>(worker));
      // A worker samples `auto` non-centered: so does every replication, wherever it runs.
      if (!spec_.workers.empty() && fit.settings.get(setting::reparam) == "auto") {
        fit.settings.set(setting::reparam, std::string("noncentered"));
      }
      if (!fit.settings.given(setting::threads.descriptor())) fit.settings.set(setting::threads, 1);
      fit.record = {};
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
    if (progress_) progress_(result_.replications[index], done_);
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
      for (size_t i = 0; i < chain.size(); i += spec_.thin) {
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

}  // namespace variate::services
