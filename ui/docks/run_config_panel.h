#pragma once
/// The run configuration: method (NUTS or ADVI), chains, warmup, draws, seed, threads and
/// device for NUTS; family, iterations and output draws for ADVI. Every change is an
/// undoable edit of the document (consecutive changes of one field merge into one step).
/// Below: the model's parameters as the checker sees them.

#include <QPointer>
#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace variate::ui {

class ProjectDocument;
struct RunConfig;
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

 private:
  void show(const RunConfig& config);
  void showModel(const ModelCheck& check);
  void edited();

  QPointer<ProjectDocument> document_;
  QFormLayout* form_;
  QComboBox* method_;
  QSpinBox* chains_;
  QSpinBox* warmup_;
  QSpinBox* draws_;
  QLineEdit* seed_;
  QSpinBox* threads_;
  QComboBox* device_;
  QComboBox* family_;
  QSpinBox* iterations_;
  QSpinBox* outputDraws_;
  QLabel* model_;
  bool showing_ = false;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
