#include "ui/docks/run_config_panel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/document/project_document.h"
#include "ui/docks/known_workers.h"
#include "ui/engine/devices.h"

namespace variate::ui {
namespace {

// Shows 0.001 as "0.001", not "0.001000": tolerances and step sizes span decades.
class CompactDoubleSpinBox : public QDoubleSpinBox {
 public:
  QString textFromValue(double value) const override { return locale().toString(value, 'g', 6); }
};

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

void prepare(QAbstractSpinBox* box, const QString& tip) {
  box->setToolTip(tip);
  box->setKeyboardTracking(false);  // one edit when the user is done typing
}

}  // namespace

RunConfigPanel::RunConfigPanel(QWidget* parent)
    : QWidget(parent), form_(new QFormLayout), method_(new QComboBox), model_(new QLabel) {
  method_->setObjectName("method");
  for (const InferenceMethod method :
       {InferenceMethod::Nuts, InferenceMethod::Advi, InferenceMethod::Optimize, InferenceMethod::Pathfinder}) {
    method_->addItem(methodName(method), static_cast<int>(method));
  }
  method_->setToolTip(tr("NUTS: exact MCMC with Stan's adaptation. ADVI: a fast Gaussian approximation, started "
                         "from Pathfinder's estimate. Optimize (L-BFGS): the posterior mode, with draws from the "
                         "Laplace approximation there. Pathfinder: approximate draws from quasi-Newton paths. "
                         "The approximations' draws are independent: the Pareto k-hat of their importance "
                         "ratios says how far to trust them"));
  addRow("method", tr("Method"), Shown::NotDeep, method_);

  chains_ = addInt("chains", tr("Chains"), Shown::Nuts, &RunConfig::chains, 1, 64,
                   tr("Independent chains (R-hat needs at least 2)"));
  warmup_ = addInt("warmup", tr("Warmup"), Shown::Nuts, &RunConfig::warmup, 0, 10'000'000,
                   tr("Warmup iterations per chain: step size and metric adaptation"));
  draws_ = addInt("draws", tr("Draws"), Shown::Nuts, &RunConfig::draws, 0, 100'000'000, tr("Draws per chain after warmup"));
  addInt("threads", tr("Threads"), Shown::Nuts, &RunConfig::threads, 0, 256,
         tr("Threads for the chains; auto: one per chain, so every chain samples live. With several "
            "processes: threads per process; auto: this machine's cores shared by them"),
         tr("auto"));
  processes_ = addInt("processes", tr("Processes"), Shown::NotDeep, &RunConfig::processes, 1, RunConfig::kMaxProcesses,
                      processesTip());
  metric_ = addCombo("metric", tr("Metric"), Shown::Nuts, {tr("diagonal"), tr("dense")},
                     tr("The mass matrix warmup adapts: diagonal, or dense for strongly correlated posteriors"));
  addInt("max_depth", tr("Max tree depth"), Shown::Nuts, &RunConfig::maxTreeDepth, 1, 30,
         tr("A trajectory has at most 2^depth leapfrog steps; transitions that reach it are counted"));
  addDouble("adapt_delta", tr("Adapt delta"), Shown::Nuts, &RunConfig::adaptDelta, 0.01, 0.999,
            tr("Target acceptance rate of warmup's step-size adaptation: higher means smaller steps "
               "and fewer divergences"));
  addInt("until_ess", tr("Until ESS"), Shown::Nuts, &RunConfig::untilEss, 0, 10'000'000,
         tr("Auto-stop: after Draws, the chains (keeping their adaptation) extend in rounds until every "
            "quantity has bulk and tail ESS at least this and R-hat below Until R-hat, or Max draws per chain; "
            "off: exactly Draws"),
         tr("off"));
  addDouble("until_rhat", tr("Until R-hat"), Shown::Nuts, &RunConfig::untilRhat, 1.001, 2,
            tr("Auto-stop's bound on every quantity's rank-normalized split R-hat"));
  addInt("max_draws", tr("Max draws"), Shown::Nuts, &RunConfig::maxDraws, 10, 100'000'000,
         tr("Auto-stop's cap on draws per chain"));
  batched_ = new QCheckBox(tr("evaluate all chains at once"));
  batched_->setToolTip(tr("One batched log-density computation for all chains: faster where one evaluation has a "
                          "large fixed cost (small models, GPUs)"));
  addRow("batched_chains", tr("Batched chains"), Shown::Nuts, batched_);

  family_ = addCombo("family", tr("Family"), Shown::Advi, {"meanfield", "fullrank"},
                     tr("meanfield: independent Gaussians; fullrank: one correlated Gaussian"));
  addInt("iterations", tr("Iterations"), Shown::Advi, &RunConfig::iterations, 1, 10'000'000,
         tr("Most optimization iterations; ADVI stops earlier once converged"));
  addDouble("tol_rel_obj", tr("tol_rel_obj"), Shown::Advi, &RunConfig::tolRelObj, 1e-6, 1,
            tr("Converged when the relative ELBO change drops below this"));
  eta_ = new CompactDoubleSpinBox;
  eta_->setRange(0, 1000);
  eta_->setDecimals(6);
  eta_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  eta_->setSpecialValueText(tr("adapted"));
  prepare(eta_, tr("Step size; adapted: the best of 100, 10, 1, 0.1 and 0.01 after the adaptation iterations"));
  addRow("eta", tr("Eta"), Shown::Advi, eta_);
  addInt("adapt_iter", tr("Adapt iterations"), Shown::Advi, &RunConfig::adaptIterations, 1, 100'000,
         tr("Iterations per step size tried while adapting eta"));
  addInt("grad_samples", tr("Gradient draws"), Shown::Advi, &RunConfig::gradSamples, 1, 100'000,
         tr("Monte Carlo draws per gradient"));
  addInt("elbo_samples", tr("ELBO draws"), Shown::Advi, &RunConfig::elboSamples, 1, 1'000'000,
         tr("Monte Carlo draws per ELBO evaluation"));
  addInt("eval_elbo", tr("Evaluate ELBO every"), Shown::Advi, &RunConfig::evalElbo, 1, 1'000'000,
         tr("Iterations between ELBO evaluations (and convergence checks)"));
  addInt("output_draws", tr("Output draws"), Shown::AdviOrPathfinder, &RunConfig::outputDraws, 1, 10'000'000,
         tr("Draws from the fitted approximation recorded as the run's draws (Pathfinder: each path draws as "
            "many, and several paths' draws are resampled to this many)"));

  jacobian_ = new QCheckBox(tr("include the Jacobian"));
  jacobian_->setToolTip(tr("On: the mode of the unconstrained density, the centre of the Laplace approximation, "
                           "whose draws then approximate the posterior (Stan's laplace). Off: the posterior mode "
                           "of the constrained parameters (Stan's optimize); the Laplace draws then approximate "
                           "no posterior and k-hat does not apply"));
  addRow("jacobian", tr("Jacobian"), Shown::Optimize, jacobian_);
  addInt("laplace_draws", tr("Laplace draws"), Shown::Optimize, &RunConfig::laplaceDraws, 0, 10'000'000,
         tr("Draws from the Laplace approximation at the mode (the Gaussian whose covariance is the inverse "
            "Hessian there), recorded as the run's draws; none: the run records the mode alone"),
         tr("none (the mode alone)"));
  addInt("num_paths", tr("Paths"), Shown::Pathfinder, &RunConfig::paths, 1, 256,
         tr("Single Pathfinder paths from independent random starts; their draws are pooled and resampled by "
            "Pareto smoothed importance weights"));

  auto* trained = new QLabel(tr("amortized VI: the networks are trained"));
  trained->setToolTip(tr("A model with networks or guides is trained by amortized variational inference (as "
                         "variate fit trains it): Adam on the minibatch ELBO, the guide's latents drawn per row"));
  addRow("method_deep", tr("Method"), Shown::Deep, trained);
  addInt("epochs", tr("Epochs"), Shown::Deep, &RunConfig::epochs, 1, 100'000, tr("Passes over the training rows"));
  addInt("batch_size", tr("Batch size"), Shown::Deep, &RunConfig::batchSize, 1, 1'000'000,
         tr("Rows per step (the likelihood is scaled by N / batch size)"));
  addDouble("learning_rate", tr("Learning rate"), Shown::Deep, &RunConfig::learningRate, 1e-6, 1,
            tr("Adam's step size"));
  heldout_ = addCombo("test_data_set", tr("Held-out data"), Shown::Deep, {},
                      tr("A data set of the project whose rows give the held-out ELBO after each epoch and the "
                         "images the Reconstructions panel shows"));

  seed_ = new QLineEdit;
  seed_->setValidator(new QRegularExpressionValidator(QRegularExpression("\\d{1,19}"), seed_));
  seed_->setToolTip(tr("Random seed: the same seed and settings give the same draws"));
  addRow("seed", tr("Seed"), Shown::Always, seed_);
  dtype_ = addCombo("dtype", tr("Dtype"), Shown::NotDeep, {dtypeName(Dtype::Float64), dtypeName(Dtype::Float32)},
                    tr("Arithmetic of data and of what the model computes from it; float32 is faster on large data "
                       "(the log density is summed in float64)"));
  device_ = addCombo("device", tr("Device"), Shown::NotDeep, availableDevices(), tr("Where the model is evaluated"));
  backend_ = addCombo("backend", tr("Backend"), Shown::NotDeep, {"auto", "tape", "torch"},
                      tr("What evaluates the density: auto takes the tape (fast, CPU, float64) when every "
                         "op of the model has a kernel, else LibTorch; batched chains run on LibTorch"));

  runOn_ = addCombo("run_on", tr("Run on"), Shown::Nuts, {}, tr("This computer, or a worker added in the Workers "
                    "panel: the run's draws come back live; closing the studio leaves the job running, and "
                    "reopening the project reattaches to it"));
  refreshWorkers();

  model_->setWordWrap(true);
  model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  column->addLayout(form_);
  column->addWidget(model_);
  column->addStretch(1);
  auto* scroll = new QScrollArea;  // the options outnumber a short dock's rows
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);

  for (const auto& field : ints_) connect(field.box, &QSpinBox::valueChanged, this, &RunConfigPanel::edited);
  for (const auto& field : doubles_) connect(field.box, &QDoubleSpinBox::valueChanged, this, &RunConfigPanel::edited);
  connect(eta_, &QDoubleSpinBox::valueChanged, this, &RunConfigPanel::edited);
  for (QComboBox* box : {method_, metric_, family_, dtype_, device_, backend_, runOn_, heldout_}) {
    connect(box, &QComboBox::currentIndexChanged, this, &RunConfigPanel::edited);
  }
  connect(batched_, &QCheckBox::toggled, this, &RunConfigPanel::edited);
  connect(jacobian_, &QCheckBox::toggled, this, &RunConfigPanel::edited);
  connect(seed_, &QLineEdit::editingFinished, this, &RunConfigPanel::edited);
  setEnabled(false);
}

QString RunConfigPanel::processesTip() {
  return tr("The likelihood's rows are split between this many processes on this machine; the chains then run "
            "one after another, each on all of them, and can be stopped but not paused. Any number of "
            "processes above 1 gives the same draws");
}

void RunConfigPanel::addRow(const QString& key, const QString& label, Shown shown, QWidget* field) {
  field->setObjectName(key);
  form_->addRow(label, field);
  rows_ << qMakePair(field, shown);
}

QSpinBox* RunConfigPanel::addInt(const QString& key, const QString& label, Shown shown, int RunConfig::*value,
                                 int lo, int hi, const QString& tip, const QString& special) {
  auto* box = new QSpinBox;
  box->setRange(lo, hi);
  box->setGroupSeparatorShown(true);
  if (!special.isEmpty()) box->setSpecialValueText(special);
  prepare(box, tip);
  addRow(key, label, shown, box);
  ints_ << Field<QSpinBox, int>{box, value};
  return box;
}

QDoubleSpinBox* RunConfigPanel::addDouble(const QString& key, const QString& label, Shown shown,
                                          double RunConfig::*value, double lo, double hi, const QString& tip) {
  auto* box = new CompactDoubleSpinBox;
  box->setDecimals(6);
  box->setRange(lo, hi);
  box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  prepare(box, tip);
  addRow(key, label, shown, box);
  doubles_ << Field<QDoubleSpinBox, double>{box, value};
  return box;
}

QComboBox* RunConfigPanel::addCombo(const QString& key, const QString& label, Shown shown, const QStringList& items,
                                    const QString& tip) {
  auto* box = new QComboBox;
  box->addItems(items);
  box->setToolTip(tip);
  addRow(key, label, shown, box);
  return box;
}

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

bool RunConfigPanel::isShown(Shown shown, const RunConfig& config) const {
  switch (shown) {
    case Shown::Always: return true;
    case Shown::Deep: return deep_;
    case Shown::NotDeep: return !deep_;
    case Shown::Nuts:
      return !deep_ && (config.method == InferenceMethod::Nuts || config.method == InferenceMethod::Amortized);
    case Shown::Advi: return !deep_ && config.method == InferenceMethod::Advi;
    case Shown::Optimize: return !deep_ && config.method == InferenceMethod::Optimize;
    case Shown::Pathfinder: return !deep_ && config.method == InferenceMethod::Pathfinder;
    case Shown::AdviOrPathfinder:
      return !deep_ && (config.method == InferenceMethod::Advi || config.method == InferenceMethod::Pathfinder);
  }
  return true;
}

void RunConfigPanel::show(const RunConfig& config) {
  showing_ = true;
  const bool nuts = config.method == InferenceMethod::Nuts || config.method == InferenceMethod::Amortized;
  heldout_->clear();
  heldout_->addItem(tr("(none)"), QString());
  if (document_) {
    for (const DataSetEntry& set : document_->dataSets()) heldout_->addItem(set.name, set.name);
  }
  if (heldout_->findData(config.heldoutDataSet) < 0) heldout_->addItem(config.heldoutDataSet, config.heldoutDataSet);
  heldout_->setCurrentIndex(heldout_->findData(config.heldoutDataSet));
  method_->setCurrentIndex(std::max(0, method_->findData(static_cast<int>(config.method))));
  for (const auto& field : ints_) field.box->setValue(config.*field.value);
  for (const auto& field : doubles_) field.box->setValue(config.*field.value);
  metric_->setCurrentIndex(config.metric == MetricKind::dense ? 1 : 0);
  batched_->setChecked(config.batchedChains);
  jacobian_->setChecked(config.jacobian);
  family_->setCurrentIndex(config.family == AdviMethod::fullrank ? 1 : 0);
  eta_->setValue(config.eta.value_or(0));
  seed_->setText(QString::number(config.seed));
  dtype_->setCurrentIndex(config.dtype == Dtype::Float32 ? 1 : 0);
  device_->setCurrentText(config.device);
  backend_->setCurrentText(tape::backend_name(config.backend));
  showWorker(runOn_, config.worker);
  processes_->setEnabled(nuts);
  processes_->setToolTip(nuts ? processesTip()
                              : tr("%1 runs on one process; Processes applies to NUTS").arg(methodName(config.method)));
  for (const auto& [field, shown] : rows_) form_->setRowVisible(field, isShown(shown, config));
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
    showWorker(runOn_, document_->runConfig().worker);
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
  config.method = static_cast<InferenceMethod>(method_->currentData().toInt());
  for (const auto& field : ints_) config.*field.value = field.box->value();
  for (const auto& field : doubles_) config.*field.value = field.box->value();
  config.metric = metric_->currentIndex() == 1 ? MetricKind::dense : MetricKind::diagonal;
  config.batchedChains = batched_->isChecked();
  config.jacobian = jacobian_->isChecked();
  config.family = family_->currentIndex() == 1 ? AdviMethod::fullrank : AdviMethod::meanfield;
  config.eta = eta_->value() > 0 ? std::optional<double>(eta_->value()) : std::nullopt;
  config.seed = seed_->text().toULongLong();
  config.dtype = dtype_->currentIndex() == 1 ? Dtype::Float32 : Dtype::Float64;
  config.device = device_->currentText();
  config.backend = tape::parse_backend(backend_->currentText().toStdString()).value_or(tape::Backend::automatic);
  config.heldoutDataSet = heldout_->currentData().toString();
  const QStringList worker = runOn_->currentData().toStringList();
  if (worker.value(0) != config.worker.address) {  // the same worker keeps the recorded job
    config.worker = worker.size() == 3 ? WorkerRef{worker[0], worker[1], worker[2], QString(), {}} : WorkerRef();
  }
  document_->setRunConfig(config);
}

}  // namespace variate::ui
