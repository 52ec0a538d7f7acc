#include "ui/engine/run_prediction.h"

#undef slots
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <ATen/ATen.h>
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/store/project.h"
#include "engine/target/parameter_names.h"
#include "engine/workflow/posterior_predictive.h"

#include "ui/engine/run_loader.h"
#include "ui/engine/stored_loo.h"

namespace variate::ui {
namespace {

double mean(const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size()); }

double sd(const std::vector<double>& x) {
  if (x.size() < 2) return 0;
  const double m = mean(x);
  double sum = 0;
  for (double v : x) sum += (v - m) * (v - m);
  return std::sqrt(sum / static_cast<double>(x.size() - 1));
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

using Statistic = double (*)(const std::vector<double>&);
const std::vector<std::pair<QString, Statistic>>& statisticList() {
  static const std::vector<std::pair<QString, Statistic>> list = {
      {"mean", &mean},
      {"sd", &sd},
      {"median", [](const std::vector<double>& x) { return median(x); }},
      {"min", [](const std::vector<double>& x) { return *std::min_element(x.begin(), x.end()); }},
      {"max", [](const std::vector<double>& x) { return *std::max_element(x.begin(), x.end()); }},
  };
  return list;
}

// The tensor's elements in CmdStan's column-major order, as y_rep's columns are.
std::vector<double> columnMajor(const at::Tensor& value) {
  const at::Tensor flat = value.reshape(-1).to(at::kCPU, at::kDouble).contiguous();
  const double* data = flat.data_ptr<double>();
  std::vector<double> out;
  for (int64_t offset : column_major_order(Shape(value.sizes().begin(), value.sizes().end()))) out.push_back(data[offset]);
  return out;
}

}  // namespace

std::vector<TestStatistic> testStatistics(const std::vector<double>& observed,
                                          const std::vector<std::vector<double>>& replicated) {
  std::vector<TestStatistic> out;
  if (observed.empty() || replicated.empty()) return out;
  for (const auto& [name, statistic] : statisticList()) {
    TestStatistic t;
    t.name = name;
    t.observed = statistic(observed);
    int atLeast = 0;
    for (const auto& draw : replicated) {
      t.replicated.push_back(statistic(draw));
      atLeast += t.replicated.back() >= t.observed;
    }
    t.pValue = static_cast<double>(atLeast) / static_cast<double>(replicated.size());
    out.push_back(std::move(t));
  }
  return out;
}

RunPrediction predictRun(const QString& projectPath, const RunData& run) {
  RunPrediction result;
  result.runId = run.id;
  try {
    if (run.config.method != InferenceMethod::Nuts) throw std::runtime_error("posterior predictive checks need a NUTS run");
    store::Project project(projectPath.toStdString());
    const store::ModelVersion version = project.model_version(run.modelVersion);
    std::optional<Data> data;
    if (run.dataSetId >= 0) {
      const store::DataSet set = project.data_set(run.dataSetId);
      data = io::parse_json_data(set.json_text, set.name);
    }
    const model::CompileResult compiled =
        model::compile_model(model::Source(version.model_name + ".vmod", version.text), data ? &*data : nullptr);
    if (!compiled.ok() || !compiled.model) throw std::runtime_error(compiled.ok() ? "the model has no data set" : compiled.report());
    const workflow::PosteriorPredictive predictive(compiled.model->log_joint(), compiled.model->layout());
    if (predictive.observed().empty() || !data) throw std::runtime_error("the model observes nothing to replicate");

    std::vector<ChainDraws> chains = run.chains;
    if (!run.drawsLoaded) {
      LoadedRun loaded = RunLoader::read(projectPath, run.id);
      if (!loaded.error.isEmpty()) throw std::runtime_error(loaded.error.toStdString());
      chains = std::move(loaded.chains);
    }
    at::NoGradGuard noGrad;
    // Every chain's post-warmup draws, the log likelihood [observation][chain][draw] for loo.
    std::vector<std::vector<double>> replicatedRows;
    std::vector<diagnostics::Draws> logLik;
    int perChain = -1;
    for (const auto& chain : chains) perChain = perChain < 0 ? chain.samplingIterations() : std::min(perChain, chain.samplingIterations());
    if (perChain <= 0) throw std::runtime_error("the run has no post-warmup draws");
    result.drawsPerChain = perChain;
    for (size_t c = 0; c < chains.size(); ++c) {
      std::vector<std::vector<double>> rows(static_cast<size_t>(perChain));
      const int begin = chains[c].warmupIterations();
      for (int column = 0; column < run.columnNames.size(); ++column) {
        chains[c].forEach(column, begin, begin + perChain, [&](int iteration, double value) {
          rows[static_cast<size_t>(iteration - begin)].push_back(value);
        });
      }
      const workflow::PredictiveRows predicted = predictive.rows(rows, run.config.seed, c + 1);
      replicatedRows.insert(replicatedRows.end(), predicted.replicated.begin(), predicted.replicated.end());
      if (logLik.empty()) logLik.assign(predicted.log_lik.empty() ? 0 : predicted.log_lik[0].size(), diagnostics::Draws(chains.size()));
      for (const auto& row : predicted.log_lik) {
        for (size_t i = 0; i < row.size(); ++i) logLik[i][c].push_back(row[i]);
      }
    }
    // Split the replicated columns by observed variable, in program order.
    size_t offset = 0;
    for (const auto& variable : predictive.observed()) {
      ObservedPrediction prediction;
      prediction.name = QString::fromStdString(variable.name);
      prediction.observed = columnMajor((*data)[variable.name]);
      const size_t size = prediction.observed.size();
      for (const auto& row : replicatedRows) prediction.replicated.emplace_back(row.begin() + static_cast<std::ptrdiff_t>(offset), row.begin() + static_cast<std::ptrdiff_t>(offset + size));
      offset += size;
      prediction.statistics = testStatistics(prediction.observed, prediction.replicated);
      result.observed.push_back(std::move(prediction));
    }
    try {
      result.loo = diagnostics::psis_loo(logLik);
    } catch (const std::exception& e) {
      result.looNote = QString::fromStdString(e.what());
    }
    // Stored for `variate compare --project` and the next opening; a file that cannot be
    // written now (read-only) only costs computing it again then.
    try {
      if (result.loo) storeLoo(project, result, static_cast<int>(chains.size()));
    } catch (const store::ProjectError&) {
    }
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

RunPrediction looOfRun(const QString& projectPath, const RunData& run) {
  try {
    if (std::optional<RunPrediction> stored = storedLoo(store::Project(projectPath.toStdString()), run.id)) {
      return std::move(*stored);
    }
  } catch (const store::ProjectError&) {
    // Unreadable now: predictRun says why, or computes it.
  }
  return predictRun(projectPath, run);
}

}  // namespace variate::ui
