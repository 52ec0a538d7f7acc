#include "ui/engine/approximation_draws.h"

#include <QJsonDocument>

#include "engine/store/stored_run_summary.h"
#include "engine/vi/variational_draws.h"

namespace variate::ui {

std::vector<std::string> approximationColumns(const CompiledRequest& compiled) {
  std::vector<std::string> columns = variational_column_names();
  columns.insert(columns.end(), compiled.stanNames.begin(), compiled.stanNames.end());
  return columns;
}

std::vector<std::vector<double>> positionsOf(const at::Tensor& unconstrained) {
  const at::Tensor points = unconstrained.to(at::kDouble).contiguous();
  std::vector<std::vector<double>> positions(points.size(0));
  for (int64_t i = 0; i < points.size(0); ++i) {
    const double* row = points[i].data_ptr<double>();
    positions[i].assign(row, row + points.size(1));
  }
  return positions;
}

double importanceKHat(const at::Tensor& logP, const at::Tensor& logQ) {
  const at::Tensor ratios = (logP.to(at::kDouble) - logQ.to(at::kDouble)).contiguous();
  return importanceKHat(std::vector<double>(ratios.data_ptr<double>(), ratios.data_ptr<double>() + ratios.numel()));
}

void recordApproximationDraws(store::Project& project, store::Id run, const CompiledRequest& compiled,
                              const at::Tensor& unconstrained, const at::Tensor& logP, const at::Tensor& logQ,
                              const std::vector<double>& lastPosition, bool stoppedEarly, LiveMailbox& mailbox) {
  const auto outputs = compiled.columns->rows(positionsOf(unconstrained));
  const at::Tensor p = logP.to(at::kDouble).contiguous(), q = logQ.to(at::kDouble).contiguous();
  const int width = static_cast<int>(variational_column_names().size() + compiled.stanNames.size());
  store::DrawBlock stored{0, 0, static_cast<int>(outputs.size()), width, {}};
  stored.values.reserve(outputs.size() * width);
  auto block = std::make_shared<DrawBlock>();
  block->columns = static_cast<int>(compiled.stanNames.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const double log_p = p[static_cast<int64_t>(i)].item<double>();
    stored.values.insert(stored.values.end(), {0.0, log_p, q[static_cast<int64_t>(i)].item<double>()});
    stored.values.insert(stored.values.end(), outputs[i].begin(), outputs[i].end());
    block->values.insert(block->values.end(), outputs[i].begin(), outputs[i].end());
    SamplerRow row;
    row.logDensity = log_p;
    block->stats.push_back(row);
  }
  store::RunUpdate update;
  store::ChainRecord chain;
  chain.ended = true;
  chain.stopped_early = stoppedEarly;
  chain.last_position = lastPosition;
  update.chains.push_back(chain);
  update.blocks.push_back(std::move(stored));
  project.write(run, update);
  mailbox.post(DrawBlockPtr(std::move(block)));
}

void finishApproximationRun(store::Project& project, store::Id run, RunStatus status, const std::string& message,
                            const char* key, const QJsonObject& record, const ApproximationCheck& check,
                            LiveMailbox& mailbox) {
  project.finish_run(run,
                     status == RunStatus::Stopped  ? store::RunStatus::stopped
                     : status == RunStatus::Failed ? store::RunStatus::failed
                                                   : store::RunStatus::finished,
                     message);
  const store::StoredRunSummary summary = store::summarize_run(project, run);
  QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(summary.json())).object();
  json[key] = record;
  project.set_diagnostics(run, QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString());
  mailbox.post(check);
}

RunOutcome failedRun(store::Project* project, qint64 runId, const std::string& message) {
  RunOutcome outcome;
  outcome.runId = runId;
  outcome.status = RunStatus::Failed;
  outcome.message = QString::fromStdString(message);
  if (project && runId >= 0) {
    try {
      project->finish_run(runId, store::RunStatus::failed, message);
    } catch (const std::exception&) {  // the file is unwritable: the message still reaches the UI
    }
  }
  return outcome;
}

}  // namespace variate::ui
