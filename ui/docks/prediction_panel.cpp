#include "ui/docks/prediction_panel.h"

#include <QTimer>

#include "ui/document/project_document.h"
#include "ui/analysis/prediction_service.h"

namespace variate::ui {

PredictionPanel::PredictionPanel(PredictionService* predictions, PredictionNeed need, QWidget* parent)
    : QWidget(parent), predictions_(predictions), need_(need) {
  connect(predictions_, &PredictionService::computed, this, &PredictionPanel::refreshPrediction);
}

ProjectDocument* PredictionPanel::document() const { return document_; }

void PredictionPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    connections_ << connect(runs, &RunList::currentChanged, this, &PredictionPanel::refreshPrediction);
    connections_ << connect(runs, &RunList::runChanged, this, &PredictionPanel::refreshPrediction);  // a run ended
    connections_ << connect(runs, &RunList::runRemoved, this, &PredictionPanel::refreshPrediction);
  }
  refreshPrediction();
}

void PredictionPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  QTimer::singleShot(0, this, [this] { catchUp(); });  // once laid out and in sight
}

void PredictionPanel::refreshPrediction() {
  stale_ = !isVisible() || visibleRegion().isEmpty();
  if (stale_) return;
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  RunPredictionPtr prediction;
  QString why;
  if (!run) {
    why = tr("Run NUTS: this panel shows what a finished NUTS run predicts.");
  } else if (run->config.method != services::Method::nuts) {
    why = tr("%1 is a %2 run: this panel needs a NUTS run's draws.").arg(run->name, methodName(run->config.method));
  } else if (run->isActive()) {
    why = tr("%1 is sampling: y_rep and the pointwise log likelihood are computed once it has finished.").arg(run->name);
  } else if (!predictions_->request(document_->filePath(), run, need_)) {
    why = tr("%1: drawing y_rep and the pointwise log likelihood at every draw…").arg(run->name);
  } else {
    prediction = predictions_->result(run->id);
    if (!prediction->error.isEmpty()) {
      why = tr("%1: %2").arg(run->name, prediction->error);
      prediction.reset();
    }
  }
  present(run, prediction, why);
  emit shown();
}

}  // namespace variate::ui
