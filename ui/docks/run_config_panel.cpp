#include "ui/docks/run_config_panel.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/core/argument_error.h"
#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"
#include "engine/services/settings.h"
#include "ui/docks/known_workers.h"
#include "ui/document/project_document.h"
#include "ui/modeling/devices.h"

namespace variate::ui {
namespace {

using services::SettingDescriptor;
using services::SettingKind;
using services::SettingValue;

// Selects `worker` in the "Run on" box; a worker the project names but this user has not
// added is listed too.
void showWorker(QComboBox* box, const WorkerRef& worker) {
  if (!worker.isRemote()) {
    box->setCurrentIndex(0);
    return;
  }
  int index = box->findText(worker.address);
  if (index < 0) {
    box->addItem(worker.address, QStringList{worker.address, worker.tokenFile, worker.caFile});
    index = box->count() - 1;
  }
  box->setCurrentIndex(index);
}

// A spin box's bounds from a description's; a setting without a default shows its "none"
// one step below its least value.
int spinMinimum(const SettingDescriptor& s) {
  const double lowest = std::max(s.min + (s.min_excluded ? 1 : 0), static_cast<double>(INT_MIN + 1));
  return static_cast<int>(lowest) - (s.default_value ? 0 : 1);
}
int spinMaximum(const SettingDescriptor& s) { return static_cast<int>(std::min(s.max, static_cast<double>(INT_MAX))); }

// The field that edits one kind of setting.
QWidget* makeField(const SettingDescriptor& s) {
  const QString none = QString::fromStdString(s.none_means);
  switch (s.kind) {
    case SettingKind::integer: {
      auto* box = new QSpinBox;
      box->setRange(spinMinimum(s), spinMaximum(s));
      box->setGroupSeparatorShown(true);
      if (!s.default_value) box->setSpecialValueText(none);
      box->setKeyboardTracking(false);  // one edit when the user is done typing
      return box;
    }
    case SettingKind::real: {  // a line: tolerances span from 1e-12 to 1e7, beyond a spin box's decimals
      auto* line = new QLineEdit;
      line->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9eE.+-]*"), line));
      line->setPlaceholderText(none);
      return line;
    }
    case SettingKind::flag: return new QCheckBox;
    case SettingKind::tristate: {
      auto* box = new QComboBox;
      box->addItems({"auto", "on", "off"});
      return box;
    }
    case SettingKind::choice: {
      auto* box = new QComboBox;
      for (const auto& choice : s.choices) box->addItem(QString::fromStdString(choice));
      return box;
    }
    case SettingKind::device: {
      auto* box = new QComboBox;
      box->addItems(availableDevices());
      return box;
    }
    case SettingKind::seed:
    case SettingKind::text: {
      auto* line = new QLineEdit;
      if (s.kind == SettingKind::seed) {
        line->setValidator(new QRegularExpressionValidator(QRegularExpression("\\d{0,20}"), line));
      }
      line->setPlaceholderText(none);
      return line;
    }
  }
  return new QLabel;
}

// Shows `value` (none: the setting has no value) in a setting's field.
void showValue(const SettingDescriptor& s, QWidget* field, const std::optional<SettingValue>& value) {
  if (auto* box = qobject_cast<QSpinBox*>(field)) {
    box->setValue(value ? static_cast<int>(std::get<int64_t>(*value)) : box->minimum());
  } else if (auto* check = qobject_cast<QCheckBox*>(field)) {
    check->setChecked(value && std::get<bool>(*value));
  } else if (auto* box = qobject_cast<QComboBox*>(field)) {
    const QString text = value ? QString::fromStdString(s.format(*value)) : QString();
    if (box->findText(text) < 0 && !text.isEmpty()) box->addItem(text);
    box->setCurrentText(text);
  } else if (auto* line = qobject_cast<QLineEdit*>(field)) {
    line->setText(value ? QString::fromStdString(s.format(*value)) : QString());
  }
}

// The value a setting's field shows; none for its "none" or an empty line.
std::optional<SettingValue> fieldValue(const SettingDescriptor& s, const QWidget* field) {
  if (auto* box = qobject_cast<const QSpinBox*>(field)) {
    if (!s.default_value && box->value() == box->minimum()) return std::nullopt;
    return static_cast<int64_t>(box->value());
  }
  if (auto* check = qobject_cast<const QCheckBox*>(field)) return check->isChecked();
  if (auto* box = qobject_cast<const QComboBox*>(field)) return s.parse(box->currentText().toStdString());
  if (auto* line = qobject_cast<const QLineEdit*>(field)) {
    if (line->text().isEmpty()) return std::nullopt;
    return s.parse(line->text().toStdString());
  }
  return std::nullopt;
}

// A field's object name: the setting's, with its method's before it where a setting
// earlier in the table has that name ("draws" is NUTS's, "pathfinder.draws" Pathfinder's).
QString fieldName(const SettingDescriptor& s) {
  const QString name = QString::fromStdString(s.name);
  for (const SettingDescriptor* earlier : services::all_settings()) {
    if (earlier == &s) return name;
    if (earlier->name != s.name) continue;
    for (const services::Method method : services::all_methods()) {
      if (s.methods.contains(method)) return QString::fromUtf8(store::to_string(method)) + "." + name;
    }
  }
  return name;
}

}  // namespace

RunConfigPanel::RunConfigPanel(QWidget* parent)
    : QWidget(parent), form_(new QFormLayout), method_(new QComboBox), trained_(new QLabel), runOn_(new QComboBox),
      heldout_(new QComboBox), model_(new QLabel) {
  for (const services::Method method : services::all_methods()) {
    if (method != services::Method::amortized) method_->addItem(methodName(method), static_cast<int>(method));
  }
  method_->setToolTip(
      tr("NUTS: exact MCMC with Stan's adaptation. ADVI: a fast Gaussian approximation, started "
         "from Pathfinder's estimate. Optimize (L-BFGS): the posterior mode, with draws from the "
         "Laplace approximation there. Pathfinder: approximate draws from quasi-Newton paths. "
         "The approximations' draws are independent: the Pareto k-hat of their importance "
         "ratios says how far to trust them. SBC: simulation-based calibration of one of these "
         "(NUTS, ADVI, Pathfinder): data simulated from the prior and fitted many times; the "
         "parameters' ranks among the fits' draws are uniform when the fits are calibrated"));
  addRow("method", tr("Method"), method_);
  trained_->setText(tr("amortized VI: the networks are trained"));
  trained_->setToolTip(tr("A model with networks or guides is trained by amortized variational inference (as "
                          "variate fit trains it): Adam on the minibatch ELBO, the guide's latents drawn per row"));
  addRow("method_deep", tr("Method"), trained_);
  // The method's own settings first (chains, draws, ...), then those most methods share (the
  // seed, the backend, the processes).
  const auto shared = [](const SettingDescriptor& s) {
    const auto& all = services::all_methods();
    return std::count_if(all.begin(), all.end(), [&](services::Method m) { return s.methods.contains(m); }) > 2;
  };
  for (const bool general : {false, true}) {
    for (const SettingDescriptor* setting : services::all_settings()) {
      if (setting->has(services::kInRunPanel) && shared(*setting) == general) addSettingRow(*setting);
    }
  }
  heldout_->setToolTip(QString::fromStdString(services::setting::test_data.descriptor().help));
  addRow("test_data_set", QString::fromStdString(services::setting::test_data.descriptor().label), heldout_);
  runOn_->setToolTip(tr("This computer, or a worker added in the Workers panel: the run's draws come back live; "
                        "closing the studio leaves the job running, and reopening the project reattaches to it"));
  addRow("run_on", QString::fromStdString(services::setting::worker.descriptor().label), runOn_);
  refreshWorkers();

  model_->setWordWrap(true);
  model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  column->addLayout(form_);
  column->addWidget(model_);
  column->addStretch(1);
  auto* scroll = new QScrollArea;  // the settings outnumber a short dock's rows
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);

  for (QComboBox* box : {method_, runOn_, heldout_}) {
    connect(box, &QComboBox::currentIndexChanged, this, &RunConfigPanel::edited);
  }
  setEnabled(false);
}

void RunConfigPanel::addSettingRow(const SettingDescriptor& setting) {
  QWidget* field = makeField(setting);
  field->setToolTip(QString::fromStdString(setting.full_help()));
  addRow(fieldName(setting), QString::fromStdString(setting.label), field);
  rows_ << Row{&setting, field};
  if (auto* box = qobject_cast<QSpinBox*>(field)) connect(box, &QSpinBox::valueChanged, this, &RunConfigPanel::edited);
  if (auto* box = qobject_cast<QCheckBox*>(field)) connect(box, &QCheckBox::toggled, this, &RunConfigPanel::edited);
  if (auto* box = qobject_cast<QComboBox*>(field)) {
    connect(box, &QComboBox::currentIndexChanged, this, &RunConfigPanel::edited);
  }
  if (auto* line = qobject_cast<QLineEdit*>(field)) connect(line, &QLineEdit::editingFinished, this, &RunConfigPanel::edited);
}

void RunConfigPanel::addRow(const QString& name, const QString& label, QWidget* field) {
  field->setObjectName(name);
  form_->addRow(label, field);
}

QWidget* RunConfigPanel::field(const QString& name) const {
  for (const Row& row : rows_) {
    if (row.field->objectName() == name) return row.field;
  }
  return nullptr;
}

QWidget* RunConfigPanel::fieldOf(const SettingDescriptor& setting) const {
  for (const Row& row : rows_) {
    if (row.setting == &setting) return row.field;
  }
  return nullptr;
}

QSpinBox* RunConfigPanel::chainsBox() const { return qobject_cast<QSpinBox*>(field("chains")); }
QSpinBox* RunConfigPanel::drawsBox() const { return qobject_cast<QSpinBox*>(field("draws")); }
QSpinBox* RunConfigPanel::warmupBox() const { return qobject_cast<QSpinBox*>(field("warmup")); }
QSpinBox* RunConfigPanel::processesBox() const { return qobject_cast<QSpinBox*>(field("nproc")); }

void RunConfigPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  setEnabled(document != nullptr);
  if (!document) return;
  connections_ << connect(document, &ProjectDocument::runConfigChanged, this, &RunConfigPanel::show);
  connections_ << connect(document, &ProjectDocument::modelChecked, this, &RunConfigPanel::showModel);
  connections_ << connect(document, &ProjectDocument::dataSetsChanged, this, [this] { show(document_->runConfig()); });
  deep_ = document->modelCheck().deep;
  show(document->runConfig());
  showModel(document->modelCheck());
}

// A row shows for the method the run will use: a deep model's training, or the chosen one;
// SBC's with those of the method its replications are fitted by.
bool RunConfigPanel::isShown(const SettingDescriptor& setting, const RunConfig& config) const {
  if (deep_) return setting.methods.contains(services::Method::amortized);
  if (config.method == services::Method::sbc && !setting.methods.contains(services::Method::sbc)) {
    return setting.methods.contains(services::fit_method(config.settings)) && services::sbc_fit_takes(setting);
  }
  return setting.methods.contains(config.method);
}

void RunConfigPanel::show(const RunConfig& config) {
  showing_ = true;
  const QString heldout = QString::fromStdString(config.settings.get(services::setting::test_data).value_or(""));
  heldout_->clear();
  heldout_->addItem(tr("(none)"), QString());
  if (document_) {
    for (const DataSetEntry& set : document_->dataSets()) heldout_->addItem(set.name, set.name);
  }
  if (heldout_->findData(heldout) < 0) heldout_->addItem(heldout, heldout);
  heldout_->setCurrentIndex(heldout_->findData(heldout));
  method_->setCurrentIndex(std::max(0, method_->findData(static_cast<int>(config.method))));
  for (const Row& row : rows_) {
    showValue(*row.setting, row.field, config.settings.value_of(*row.setting));
    form_->setRowVisible(row.field, isShown(*row.setting, config));
  }
  // A dense metric adapts as Stan's and a low-rank one as fisher: the Adaptation row is the
  // diagonal metric's alone.
  if (QWidget* adapt = fieldOf(services::setting::adapt.descriptor())) {
    adapt->setEnabled(config.settings.get(services::setting::metric) == "diag");
  }
  showWorker(runOn_, config.worker());
  form_->setRowVisible(method_, !deep_);
  form_->setRowVisible(trained_, deep_);
  form_->setRowVisible(heldout_, deep_);
  // SBC's replications go to this computer, and to the worker chosen too.
  const bool sbc = config.method == services::Method::sbc;
  form_->setRowVisible(runOn_,
                       !deep_ && (sbc || services::setting::worker.descriptor().methods.contains(config.method)));
  if (auto* label = qobject_cast<QLabel*>(form_->labelForField(runOn_))) {
    label->setText(sbc ? tr("Also on") : QString::fromStdString(services::setting::worker.descriptor().label));
  }
  runOn_->setItemText(0, sbc ? tr("No worker") : tr("This computer"));
  showing_ = false;
}

void RunConfigPanel::refreshWorkers() {
  const bool wasShowing = showing_;
  showing_ = true;  // listing is no edit
  const QString current = runOn_->currentData().toStringList().value(0);
  runOn_->clear();
  runOn_->addItem(tr("This computer"), QStringList());
  for (const WorkerRef& worker : knownWorkers()) {
    runOn_->addItem(worker.address, QStringList{worker.address, worker.tokenFile, worker.caFile});
  }
  if (document_) {
    showWorker(runOn_, document_->runConfig().worker());
  } else {
    const int index = runOn_->findText(current);
    runOn_->setCurrentIndex(index < 0 ? 0 : index);
  }
  showing_ = wasShowing;
}

void RunConfigPanel::showModel(const ModelCheck& check) {
  if (check.deep != deep_) {
    deep_ = check.deep;
    if (document_) show(document_->runConfig());
  }
  if (check.deep) {
    QString text = tr("<b>Networks</b>: %1").arg(check.networks.join("; ").toHtmlEscaped());
    if (!check.amortized.isEmpty()) {
      text += tr("<br><b>Amortized latents</b> (drawn per row from their guides): %1")
                  .arg(check.amortized.join(", ").toHtmlEscaped());
    }
    model_->setText(text);
  } else if (check.compiled) {
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
  config.method = static_cast<services::Method>(method_->currentData().toInt());
  bool refused = false;
  for (const Row& row : rows_) {
    try {
      const std::optional<SettingValue> value = fieldValue(*row.setting, row.field);
      if (value) config.settings.put(*row.setting, *value); else config.settings.clear(*row.setting);
    } catch (const ArgumentError& e) {  // a value the setting does not take: the field shows the setting's again
      refused = true;
      if (document_) document_->log(QString::fromUtf8(e.what()));
    }
  }
  const QString heldout = heldout_->currentData().toString();
  config.settings.set(services::setting::test_data,
                      heldout.isEmpty() ? std::optional<std::string>() : std::optional(heldout.toStdString()));
  const QStringList worker = runOn_->currentData().toStringList();
  if (worker.value(0) != config.workerAddress()) {  // the same worker keeps the recorded job
    config.setWorker(worker.size() == 3 ? WorkerRef{worker[0], worker[1], worker[2]} : WorkerRef());
  }
  document_->setRunConfig(config);
  if (refused) show(document_->runConfig());
}

}  // namespace variate::ui
