#pragma once
/// What the predictive check and LOO panels share: the current run's prediction
/// (run_prediction.h) from the PredictionService, asked for only while the panel is in
/// sight (asking starts computing), and a caption saying why there is none yet.

#include <QPointer>
#include <QWidget>

#include "ui/analysis/prediction_service.h"
#include "ui/document/run_list.h"

namespace variate::ui {

class ProjectDocument;

class PredictionPanel : public QWidget {
  Q_OBJECT

 public:
  PredictionPanel(PredictionService* predictions, PredictionNeed need, QWidget* parent = nullptr);

  void setDocument(ProjectDocument* document);
  /// Shows what changed while the panel was out of sight (a background tab).
  void catchUp() {
    if (stale_) refreshPrediction();
  }

 signals:
  /// After the panel showed what is known now.
  void shown();

 protected:
  /// Shows the prediction of the current run; `prediction` is null (and `why` says why)
  /// while there is none.
  virtual void present(const RunPtr& run, const RunPredictionPtr& prediction, const QString& why) = 0;
  ProjectDocument* document() const;
  PredictionService* predictions() const { return predictions_; }
  PredictionNeed need() const { return need_; }
  void showEvent(QShowEvent* event) override;
  void refreshPrediction();

 private:
  PredictionService* predictions_;
  PredictionNeed need_;
  QPointer<ProjectDocument> document_;
  QList<QMetaObject::Connection> connections_;
  bool stale_ = true;
};

}  // namespace variate::ui
