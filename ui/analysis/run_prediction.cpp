#include "ui/analysis/run_prediction.h"

#undef slots
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <ATen/ATen.h>
#include "engine/services/loo.h"
#include "engine/services/predict.h"
#include "engine/store/project.h"
#include "engine/target/parameter_names.h"

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

namespace {

// The LOO of a prediction as the LOO panel shows it.
void addLoo(RunPrediction& result, const services::LooOutcome& outcome) {
  result.loo = outcome.loo;
  result.drawsPerChain = outcome.draws_per_chain;
}

}  // namespace

RunPrediction predictRun(const QString& projectPath, const RunData& run) {
  RunPrediction result;
  result.runId = run.id;
  try {
    store::Project project(projectPath.toStdString());
    at::NoGradGuard noGrad;
    const services::Prediction prediction = services::predict_stored_run(project, std::to_string(run.id));
    // Every chain's draws one after another; their replicated columns split by observed
    // variable, in program order.
    std::vector<std::vector<double>> replicatedRows;
    for (const auto& chain : prediction.predicted) {
      replicatedRows.insert(replicatedRows.end(), chain.replicated.begin(), chain.replicated.end());
    }
    size_t offset = 0;
    for (const auto& variable : prediction.observed) {
      ObservedPrediction observed;
      observed.name = QString::fromStdString(variable.name);
      observed.observed = columnMajor(prediction.data[variable.name]);
      const size_t size = observed.observed.size();
      for (const auto& row : replicatedRows) {
        observed.replicated.emplace_back(row.begin() + static_cast<std::ptrdiff_t>(offset),
                                         row.begin() + static_cast<std::ptrdiff_t>(offset + size));
      }
      offset += size;
      observed.statistics = testStatistics(observed.observed, observed.replicated);
      result.observed.push_back(std::move(observed));
    }
    result.drawsPerChain = prediction.chains.empty() ? 0 : static_cast<int>(prediction.chains.front().rows.size());
    try {  // stored with the run, for `variate compare --project` and the next opening
      addLoo(result, services::loo_of(project, prediction));
    } catch (const std::exception& e) {
      result.looNote = QString::fromStdString(e.what());
    }
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

RunPrediction looOfRun(const QString& projectPath, const RunData& run) {
  try {
    if (const auto stored = services::stored_loo(store::Project(projectPath.toStdString()), run.id)) {
      RunPrediction prediction;
      prediction.runId = run.id;
      prediction.looOnly = true;
      addLoo(prediction, *stored);
      return prediction;
    }
  } catch (const store::ProjectError&) {
    // Unreadable now: predictRun says why, or computes it.
  }
  return predictRun(projectPath, run);
}

}  // namespace variate::ui
