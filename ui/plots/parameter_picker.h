#pragma once
/// Choosing which parameters a plot shows, with search by name as ShinyStan has it:
/// typing filters the list ("theta" finds theta[1]...theta[8]); checked names are shown.

#include <QStringList>
#include <QWidget>

class QLineEdit;
class QListWidget;
class QLabel;

namespace variate::ui {

class ParameterPicker : public QWidget {
  Q_OBJECT

 public:
  explicit ParameterPicker(QWidget* parent = nullptr);

  /// Keeps the checked names that still exist; checks the first `defaultCount` otherwise.
  void setNames(const QStringList& names, int defaultCount = 4);
  QStringList names() const { return names_; }
  QStringList selected() const;
  void setSelected(const QStringList& names);

 signals:
  void selectionChanged(const QStringList& selected);

 private:
  void applyFilter();

  QLineEdit* search_;
  QListWidget* list_;
  QLabel* count_;
  QStringList names_;
  bool updating_ = false;
};

}  // namespace variate::ui
