#pragma once
/// The project's data sets: which one runs use, each variable with its type and shape,
/// and the values of the selected variable as a table. New data sets come from CmdStan
/// JSON files.

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;
class QTreeWidget;

namespace variate::ui {

class DataTableModel;
class ProjectDocument;

class DataPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DataPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);
  QTreeWidget* variables() const { return variables_; }
  QTableView* table() const { return table_; }

 signals:
  void importRequested();

 private:
  void showDataSets();
  void showVariables(int index);
  void showValues();

  QPointer<ProjectDocument> document_;
  QComboBox* sets_;
  QTreeWidget* variables_;
  QTableView* table_;
  DataTableModel* model_;
  QLabel* error_;
  bool showing_ = false;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
