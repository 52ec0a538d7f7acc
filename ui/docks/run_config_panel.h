#pragma once
/// The run configuration: the method (NUTS, ADVI, Optimize (L-BFGS) or Pathfinder; a
/// model with networks or guides is trained instead), then a row for every setting of the
/// method the settings' descriptions show in the panel (engine/services/setting_table.cpp:
/// their labels, ranges, defaults and tooltips come from there, as `variate`'s flags do),
/// the data set a training holds out, and where the run goes ("Run on": this computer or
/// a worker). Every change is an undoable edit of the document (consecutive changes of
/// one field merge into one step). A setting's field is named after it ("max_depth"),
/// after its method too where several methods have one of that name ("optimize.iter").
/// Below: the model's parameters as the checker sees them.

#include <QPointer>
#include <QWidget>

#include "engine/services/setting.h"
#include "ui/document/run_config.h"

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace variate::ui {

class ProjectDocument;
struct ModelCheck;

class RunConfigPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunConfigPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);

  QComboBox* methodBox() const { return method_; }
  /// The field of a setting, by its object name ("chains", "optimize.iter"); null if none.
  QWidget* field(const QString& name) const;
  /// The field of a setting, by its description; null for one the panel does not show.
  QWidget* fieldOf(const services::SettingDescriptor& setting) const;
  QSpinBox* chainsBox() const;
  QSpinBox* drawsBox() const;
  QSpinBox* warmupBox() const;
  QSpinBox* processesBox() const;
  /// "This computer", then the known workers (Workers panel).
  QComboBox* runOnBox() const { return runOn_; }
  /// Lists the known workers again (they changed in the Workers panel).
  void refreshWorkers();

 private:
  // A setting's row: its description and its field.
  struct Row {
    const services::SettingDescriptor* setting;
    QWidget* field;
  };

  void addSettingRow(const services::SettingDescriptor& setting);
  void addRow(const QString& name, const QString& label, QWidget* field);
  bool isShown(const services::SettingDescriptor& setting, const RunConfig& config) const;
  void show(const RunConfig& config);
  void showModel(const ModelCheck& check);
  void edited();

  QPointer<ProjectDocument> document_;
  QFormLayout* form_;
  QList<Row> rows_;
  QComboBox* method_;
  QLabel* trained_;
  QComboBox* runOn_;
  QComboBox* heldout_;
  bool deep_ = false;  // the model is trained: only the training's rows show
  QLabel* model_;
  bool showing_ = false;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
