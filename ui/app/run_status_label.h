#pragma once
/// The status bar's account of the current run: status, draws per chain, total draws per
/// second and the time left (the slowest chain's), refreshed twice a second.

#include <QLabel>
#include <QPointer>
#include <QTimer>

namespace variate::ui {

class ProjectDocument;

class RunStatusLabel : public QLabel {
  Q_OBJECT

 public:
  explicit RunStatusLabel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);

 private:
  void refresh();

  QPointer<ProjectDocument> document_;
  QTimer timer_;
};

}  // namespace variate::ui
