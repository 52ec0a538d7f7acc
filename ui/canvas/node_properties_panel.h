#pragma once
/// The properties of the selected node: its name, data type, sizes, distribution,
/// parameterization, the argument of each parameter and its expression. Every field is
/// checked by the engine as the user types (the message shows below, the field turns red)
/// and applied as one undoable edit on Enter or when it loses the focus; a refused edit
/// leaves the model as it was.

#include <functional>

#include <QWidget>

class QFormLayout;
class QLabel;
class QLineEdit;
class QComboBox;

namespace variate::ui {

class CanvasModel;
struct CanvasNode;

class NodePropertiesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit NodePropertiesPanel(CanvasModel* model, QWidget* parent = nullptr);

  /// The node shown ("" for none).
  const QString& node() const { return node_; }
  /// The validation or refusal message shown now.
  QString status() const;

 private:
  void refresh();
  void buildForm(const CanvasNode& node);
  QLineEdit* addField(const QString& objectName, const QString& label, const QString& value,
                      const std::function<QString(const QString&)>& check,
                      const std::function<void(const QString&)>& apply);
  QComboBox* addDistributionField(const CanvasNode& node);
  void setStatus(const QString& message, bool error);
  void clearForm();

  CanvasModel* model_;
  QLabel* title_;
  QWidget* formHost_;
  QWidget* form_ = nullptr;
  QFormLayout* layout_ = nullptr;
  QLabel* status_;
  QString node_;
  QString signature_;
};

}  // namespace variate::ui
