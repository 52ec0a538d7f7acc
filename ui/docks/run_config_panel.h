#pragma once
/// The run configuration, every option `variate sample` and `variate fit` have: method
/// (NUTS, ADVI, Optimize (L-BFGS) or Pathfinder); for NUTS chains, warmup, draws,
/// threads, processes (shown disabled for the others, which run on one), metric, maximum
/// tree depth, adapt delta and batched chains; for ADVI family, iterations, tol_rel_obj,
/// eta (adapted or given), adaptation iterations, gradient and ELBO draws, the ELBO's
/// evaluation interval and output draws; for Optimize the Jacobian and the Laplace draws
/// (as `variate optimize --jacobian --laplace-draws`); for Pathfinder its paths and output
/// draws; for all seed, dtype, device and backend, and where the run goes ("Run on": this
/// computer or a worker, NUTS only). A model with networks or guides is trained instead:
/// then only its epochs, batch size, learning rate, held-out data set and seed show.
/// Every change is an undoable edit of the document (consecutive changes of one field
/// merge into one step).
/// Each field's object name is its key in the configuration's JSON ("max_depth").
/// Below: the model's parameters as the checker sees them.

#include <QPointer>
#include <QWidget>

#include "ui/document/run_config.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
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
  QSpinBox* chainsBox() const { return chains_; }
  QSpinBox* drawsBox() const { return draws_; }
  QSpinBox* warmupBox() const { return warmup_; }
  QSpinBox* processesBox() const { return processes_; }
  /// "This computer", then the known workers (Workers panel).
  QComboBox* runOnBox() const { return runOn_; }
  /// Lists the known workers again (they changed in the Workers panel).
  void refreshWorkers();

 private:
  // A field bound to one member of RunConfig, shown for one method or both.
  template <class Box, class Value>
  struct Field {
    Box* box;
    Value RunConfig::*value;
  };
  enum class Shown { Always, Nuts, Advi, Optimize, Pathfinder, AdviOrPathfinder, Deep, NotDeep };

  QSpinBox* addInt(const QString& key, const QString& label, Shown shown, int RunConfig::*value, int lo, int hi,
                   const QString& tip, const QString& special = QString());
  QDoubleSpinBox* addDouble(const QString& key, const QString& label, Shown shown, double RunConfig::*value,
                            double lo, double hi, const QString& tip);
  QComboBox* addCombo(const QString& key, const QString& label, Shown shown, const QStringList& items,
                      const QString& tip);
  void addRow(const QString& key, const QString& label, Shown shown, QWidget* field);

  static QString processesTip();
  bool isShown(Shown shown, const RunConfig& config) const;
  void show(const RunConfig& config);
  void showModel(const ModelCheck& check);
  void edited();

  QPointer<ProjectDocument> document_;
  QFormLayout* form_;
  QList<Field<QSpinBox, int>> ints_;
  QList<Field<QDoubleSpinBox, double>> doubles_;
  QList<QPair<QWidget*, Shown>> rows_;
  QComboBox* method_;
  QSpinBox* chains_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* draws_ = nullptr;
  QSpinBox* processes_ = nullptr;
  QComboBox* metric_;
  QCheckBox* batched_;
  QCheckBox* jacobian_;
  QComboBox* family_;
  QDoubleSpinBox* eta_;
  QLineEdit* seed_;
  QComboBox* dtype_;
  QComboBox* device_;
  QComboBox* backend_;
  QComboBox* runOn_;
  QComboBox* heldout_ = nullptr;
  bool deep_ = false;  // the model is trained: only the training's rows show
  QLabel* model_;
  bool showing_ = false;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
