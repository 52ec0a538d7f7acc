#include "ui/docks/run_config_panel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/document/project_document.h"
#include "ui/engine/devices.h"

namespace variate::ui {
namespace {

QSpinBox* spin(int lo, int hi, const QString& tip, const QString& special = QString()) {
  auto* box = new QSpinBox;
  box->setRange(lo, hi);
  box->setToolTip(tip);
  box->setGroupSeparatorShown(true);
  box->setKeyboardTracking(false);  // one edit when the user is done typing
  if (!special.isEmpty()) box->setSpecialValueText(special);
  return box;
}

}  // namespace

RunConfigPanel::RunConfigPanel(QWidget* parent)
    : QWidget(parent), form_(new QFormLayout), method_(new QComboBox),
      chains_(spin(1, 64, tr("Independent chains (R-hat needs at least 2)"))),
      warmup_(spin(0, 10'000'000, tr("Warmup iterations per chain: step size and metric adaptation"))),
      draws_(spin(0, 100'000'000, tr("Draws per chain after warmup"))),
      seed_(new QLineEdit),
      threads_(spin(0, 256, tr("Threads for the chains; auto: one per chain, so every chain samples live"), tr("auto"))),
      device_(new QComboBox), family_(new QComboBox),
      iterations_(spin(1, 10'000'000, tr("Most optimization iterations; ADVI stops earlier once converged"))),
      outputDraws_(spin(1, 10'000'000, tr("Draws from the fitted approximation recorded as the run's draws"))),
      model_(new QLabel) {
  method_->addItems({"NUTS", "ADVI"});
  method_->setToolTip(tr("NUTS: exact MCMC with Stan's adaptation. ADVI: a fast Gaussian approximation"));
  seed_->setValidator(new QRegularExpressionValidator(QRegularExpression("\\d{1,19}"), seed_));
  seed_->setToolTip(tr("Random seed: the same seed and settings give the same draws"));
  device_->addItems(availableDevices());
  family_->addItems({"meanfield", "fullrank"});
  family_->setToolTip(tr("meanfield: independent Gaussians; fullrank: one correlated Gaussian"));
  form_->addRow(tr("Method"), method_);
  form_->addRow(tr("Chains"), chains_);
  form_->addRow(tr("Warmup"), warmup_);
  form_->addRow(tr("Draws"), draws_);
  form_->addRow(tr("Family"), family_);
  form_->addRow(tr("Iterations"), iterations_);
  form_->addRow(tr("Output draws"), outputDraws_);
  form_->addRow(tr("Seed"), seed_);
  form_->addRow(tr("Threads"), threads_);
  form_->addRow(tr("Device"), device_);
  model_->setWordWrap(true);
  model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form_);
  layout->addWidget(model_);
  layout->addStretch(1);
  for (QSpinBox* box : {chains_, warmup_, draws_, threads_, iterations_, outputDraws_}) {
    connect(box, &QSpinBox::valueChanged, this, &RunConfigPanel::edited);
  }
  for (QComboBox* box : {method_, device_, family_}) connect(box, &QComboBox::currentIndexChanged, this, &RunConfigPanel::edited);
  connect(seed_, &QLineEdit::editingFinished, this, &RunConfigPanel::edited);
  setEnabled(false);
}

void RunConfigPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  setEnabled(document != nullptr);
  if (!document) return;
  connections_ << connect(document, &ProjectDocument::runConfigChanged, this, &RunConfigPanel::show);
  connections_ << connect(document, &ProjectDocument::modelChecked, this, &RunConfigPanel::showModel);
  show(document->runConfig());
  showModel(document->modelCheck());
}

void RunConfigPanel::show(const RunConfig& config) {
  showing_ = true;
  const bool advi = config.method == InferenceMethod::Advi;
  method_->setCurrentIndex(advi ? 1 : 0);
  chains_->setValue(config.chains);
  warmup_->setValue(config.warmup);
  draws_->setValue(config.draws);
  seed_->setText(QString::number(config.seed));
  threads_->setValue(config.threads);
  device_->setCurrentText(config.device);
  family_->setCurrentText(config.family);
  iterations_->setValue(config.iterations);
  outputDraws_->setValue(config.outputDraws);
  for (QWidget* field : {static_cast<QWidget*>(chains_), static_cast<QWidget*>(warmup_), static_cast<QWidget*>(draws_),
                         static_cast<QWidget*>(threads_)}) {
    form_->setRowVisible(field, !advi);
  }
  for (QWidget* field : {static_cast<QWidget*>(family_), static_cast<QWidget*>(iterations_),
                         static_cast<QWidget*>(outputDraws_)}) {
    form_->setRowVisible(field, advi);
  }
  showing_ = false;
}

void RunConfigPanel::showModel(const ModelCheck& check) {
  if (check.compiled) {
    QString text = tr("<b>Parameters</b>: %1").arg(check.parameters.join(", ").toHtmlEscaped());
    if (!check.derived.isEmpty()) text += tr("<br><b>Derived</b>: %1").arg(check.derived.join(", ").toHtmlEscaped());
    model_->setText(text);
  } else {
    const int errors = check.errorCount();
    model_->setText(errors ? tr("<span style='color:#c62828'>The model has %n error(s): see the Model panel.</span>", "", errors)
                           : tr("The model needs a data set to compile."));
  }
}

void RunConfigPanel::edited() {
  if (showing_ || !document_) return;
  RunConfig config = document_->runConfig();
  config.method = method_->currentIndex() == 1 ? InferenceMethod::Advi : InferenceMethod::Nuts;
  config.chains = chains_->value();
  config.warmup = warmup_->value();
  config.draws = draws_->value();
  config.seed = seed_->text().toULongLong();
  config.threads = threads_->value();
  config.device = device_->currentText();
  config.family = family_->currentText();
  config.iterations = iterations_->value();
  config.outputDraws = outputDraws_->value();
  document_->setRunConfig(config);
}

}  // namespace variate::ui
