#pragma once
/// The diagnostics dock: the current run's summary table (live while it samples), side by
/// side with the compared run's when there is one, filtered by parameter name.

#include <QPointer>
#include <QWidget>

#include "ui/docks/diagnostics_model.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace variate::ui {

class ProjectDocument;

class DiagnosticsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DiagnosticsPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  DiagnosticsModel* model() const { return model_; }
  QTableView* view() const { return view_; }

 private:
  void refresh();

  QPointer<ProjectDocument> document_;
  DiagnosticsModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_;
  QLabel* caption_;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
