#include "engine/services/sbc.h"

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
#include "engine/mcmc/sampler_columns.h"
#include "engine/model/compile.h"
#include "engine/services/fit.h"
#include "engine/services/pathfinder.h"
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

// The simulated values by Stan CSV name ("theta.1"), column-major as a run writes them.
std::map<std::string, double> truth_by_name(const workflow::PriorDraw& draw) {
  std::map<std::string, double> truth;
  for (const ValueMap* values : {&draw.parameters, &draw.derived}) {
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

class SbcRun {
 public:
  SbcRun(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress)
      : spec_(spec), observers_(observers), progress_(progress) {}

  SbcResult run() {
    check();
    const auto start = std::chrono::steady_clock::now();
    result_.seed = spec_.fit.settings.get(setting::seed).value_or(std::random_device{}());
    result_.replications.resize(spec_.replications);
    const int parallel = std::min(spec_.replications, spec_.parallel > 0 ? spec_.parallel : hardware_threads());
    std::atomic<int> next{0};
    const auto work = [&] {
      for (int r = next++; r < spec_.replications && !observers_.stop_requested(); r = next++) replicate(r);
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < parallel; ++t) threads.emplace_back(work);
    work();
    for (auto& thread : threads) thread.join();
    result_.stopped = observers_.stop_requested();
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    test();
    return std::move(result_);
  }

 private:
  void check() {
    if (spec_.replications < 1) throw ArgumentError("--replications must be at least 1");
    if (spec_.thin < 1) throw ArgumentError("--thin must be at least 1");
    const Method method = spec_.fit.method;
    if (method != Method::nuts && method != Method::advi && method != Method::pathfinder) {
      throw ArgumentError("SBC fits with nuts, advi or pathfinder");
    }
    const ModelSource& source = spec_.generator ? *spec_.generator : *spec_.fit.model;
    if (!source.text()) throw ArgumentError("SBC simulates from a model's text; a model written in C++ has none");
    const Data data = spec_.fit.data.read();
    model::CompileResult compiled = model::compile_model(model::Source(source.name(), *source.text()), &data);
    if (!compiled.ok()) throw ArgumentError(compiled.report());
    workflow::check_simulable(*compiled.checked);
    data_ = data;
    generator_.emplace(std::move(*compiled.model));
    // A prior that cannot be drawn from (improper, or constrained beyond its family's
    // support) fails every draw: refused before any replication.
    workflow::draw_from_prior(*generator_, data_, at::make_generator<at::CPUGeneratorImpl>(0));
  }

  void replicate(int index) {
    SbcReplication replication;
    replication.index = index;
    replication.seed = RandomStream::for_chain(result_.seed, static_cast<uint64_t>(index) + 1).next();
    try {
      at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(replication.seed);
      const workflow::PriorDraw draw = workflow::draw_from_prior(*generator_, data_, generator);
      RunSpec fit = spec_.fit;
      fit.data = DataInput::of(draw.data, "replication " + std::to_string(index + 1));
      fit.settings.set(setting::seed, std::optional<uint64_t>(replication.seed));
      if (!fit.settings.given(setting::threads.descriptor())) fit.settings.set(setting::threads, 1);
      fit.record = {};
      const FitDraws fitted = fit_draws(fit);
      replication.divergences = fitted.divergences;
      replication.max_rhat = fitted.max_rhat;
      rank(replication, fitted, truth_by_name(draw));
    } catch (const std::exception& e) {
      replication.failure = e.what();
      replication.ranks.clear();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    result_.replications[index] = replication;
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
      if (result_.quantities.empty()) {
        result_.quantities = names;
        result_.max_rank = kept.empty() ? 0 : static_cast<int64_t>(kept[0].size());
      }
      if (names != result_.quantities || (!kept.empty() && static_cast<int64_t>(kept[0].size()) != result_.max_rank)) {
        throw ArgumentError("the fit's quantities or draws differ from the first replication's (a stopped fit?)");
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
  std::mutex mutex_;
  int done_ = 0;
  SbcResult result_;
};

}  // namespace

SbcResult run_sbc(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress) {
  return SbcRun(spec, observers, progress).run();
}

}  // namespace variate::services
