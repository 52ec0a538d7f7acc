#pragma once
/// The diagnostics dock: the current run's summary table (live while it samples), side by
/// side with the compared run's when there is one, filtered by parameter name. A live
/// run's caption says at which iteration its summary was computed and how long ago.

#include <QPointer>
#include <QTimer>
#include <QWidget>

#include "ui/docks/diagnostics_model.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace variate::ui {

class ProjectDocument;
class RunData;

class DiagnosticsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiagnosticsPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  DiagnosticsModel* model() const { return model_; }
  QTableView* view() const { return view_; }
  /// What the table shows; a live run's says when its summary was computed.
  QLabel* caption() const { return caption_; }

 private:
  void refresh();
  /// The caption of `run` (compared with `other`, if any).
  QString captionText(const RunData& run, const RunData* other) const;
  QString liveNote(const RunData& run) const;

  QPointer<ProjectDocument> document_;
  DiagnosticsModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_;
  QLabel* caption_;
  QTimer age_;  // a live summary's age in the caption, every second
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
