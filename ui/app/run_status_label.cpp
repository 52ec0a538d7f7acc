#include "ui/app/run_status_label.h"

#include "engine/services/setting_table.h"
#include "ui/document/project_document.h"

namespace variate::ui {

RunStatusLabel::RunStatusLabel(QWidget* parent) : QLabel(parent) {
  timer_.setInterval(500);
  connect(&timer_, &QTimer::timeout, this, &RunStatusLabel::refresh);
  timer_.start();
}

void RunStatusLabel::setDocument(ProjectDocument* document) {
  document_ = document;
  refresh();
}

void RunStatusLabel::refresh() {
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  if (!run) {
    setText(document_ ? tr("No runs yet") : QString());
    return;
  }
  if (run->config.method == services::Method::amortized) {  // a training: steps and epochs
    QString text = tr("%1: %2").arg(run->name, statusName(run->status));
    if (run->isActive() && !run->elbo.points.empty()) {
      const int epochs = run->elbo.epochs.empty() ? 0 : run->elbo.epochs.back().epoch;
      text += tr(" · step %1 · %2 of %3 epochs").arg(run->elbo.points.back().iteration).arg(epochs).arg(run->config.epochs());
      if (!run->elbo.epochs.empty()) text += tr(" · %1 rows/s").arg(run->elbo.epochs.back().rowsPerSecond, 0, 'f', 0);
    }
    setText(text);
    return;
  }
  if (run->config.method == services::Method::sbc) {  // replications, not draws
    setText(tr("%1: %2 · %3 of %4 replications")
                .arg(run->name, statusName(run->status))
                .arg(run->sbc.ended.size())
                .arg(run->config.settings.get(services::setting::replications)));
    return;
  }
  if (services::draws_are_independent(run->config.method)) {  // the draws come at the end, all at once
    QString text = tr("%1: %2").arg(run->name, statusName(run->status));
    if (run->isActive() && !run->elbo.points.empty()) {
      text += tr(" · ADVI iteration %1").arg(run->elbo.points.back().iteration);
    } else if (run->isActive() && !run->elbo.pathPoints.empty()) {
      const PathPoint& point = run->elbo.pathPoints.back();
      text += run->config.method == services::Method::pathfinder
                  ? tr(" · path %1 scored to L-BFGS iteration %2").arg(point.path + 1).arg(point.iteration)
                  : tr(" · L-BFGS iteration %1, log density %2").arg(point.iteration).arg(point.value, 0, 'g', 8);
    } else if (!run->isActive() && !run->chains.empty()) {
      text += tr(" · %1 draws").arg(run->chains.front().iterations());
    }
    if (run->approximation.paretoK) text += " · " + kHatText(*run->approximation.paretoK);
    setText(text);
    return;
  }
  int least = run->chains.empty() ? 0 : run->chains.front().iterations();
  double rate = 0, left = 0;
  for (size_t c = 0; c < run->chains.size(); ++c) {
    least = std::min(least, run->chains[c].iterations());
    if (const auto r = run->drawsPerSecond(static_cast<int>(c))) rate += *r;
    if (const auto l = run->secondsLeft(static_cast<int>(c))) left = std::max(left, *l);
  }
  QString text = tr("%1: %2").arg(run->name, statusName(run->status));
  if (run->isActive()) {
    text += tr(" · iteration %1 of %2 · %3 draws/s · %4 s left")
                .arg(least)
                .arg(run->plannedIterations())
                .arg(rate, 0, 'f', 0)
                .arg(left, 0, 'f', 0);
  } else if ((run->status == RunStatus::Stopped || run->status == RunStatus::Interrupted) && !run->chains.empty()) {
    text += tr(" at iteration %1 of %2").arg(least).arg(run->plannedIterations());
  }
  setText(text);
}

}  // namespace variate::ui
