#include "ui/document/project_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QPlainTextDocumentLayout>
#include <QSettings>

#include "engine/io/portable_json_data.h"
#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"
#include "engine/store/project.h"

#include "ui/document/model_file_link.h"
#include "ui/document/project_location.h"
#include "ui/document/rename_run_command.h"
#include "ui/document/select_data_set_command.h"
#include "ui/document/set_run_config_command.h"
#include "ui/document/text_edit_command.h"
#include "ui/document/run_records.h"
#include "ui/document/run_request.h"

namespace variate::ui {
namespace {

QString readFile(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
    return {};
  }
  return QString::fromUtf8(file.readAll());
}

// A data file the project is to store, refused before it is read when it is larger than a
// project holds.
QString readDataFile(const QString& path, QString* error) {
  const qint64 bytes = QFileInfo(path).size();
  if (bytes > store::Project::max_data_set_bytes()) {
    *error = QObject::tr("%1 has %2 bytes; a project stores a data set of at most %3 bytes (SQLite's limit on one "
                         "value). Run the model on it from the command line: variate sample MODEL.vmod --data %1")
                 .arg(path)
                 .arg(bytes)
                 .arg(store::Project::max_data_set_bytes());
    return {};
  }
  const QString text = readFile(path, error);
  if (!error->isEmpty()) return {};
  return QString::fromStdString(io::portable_json_data(text.toStdString(), path.toStdString()));
}

// The model file and data file a project is linked to (ModelFileLink), and the data set
// that holds that file's data.
constexpr const char* kModelFileSetting = "studio.model_file";
constexpr const char* kDataFileSetting = "studio.data_file";
const QString kLinkedDataSet = "data";

// The run configuration is stored in the project file under this key.
constexpr const char* kRunConfigSetting = "studio.run_config";

// Where studios before the project's settings table kept it: this machine's settings,
// keyed by the file's path. Read once, when the file has none yet.
QString legacyConfigKey(const QString& path) {
  return "projectRunConfig/" + QString(QFileInfo(path).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

}  // namespace

ProjectDocument::ProjectDocument(std::unique_ptr<store::Project> project)
    : project_(std::move(project)), path_(QString::fromStdString(project_->path())) {
  model_.setDocumentLayout(new QPlainTextDocumentLayout(&model_));  // the editor is a QPlainTextEdit
  model_.setUndoRedoEnabled(true);
  connect(&model_, &QTextDocument::undoCommandAdded, this, &ProjectDocument::onTextCommandAdded);
  connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
  // Every two seconds, one pragma; the runs are read again only after another connection wrote.
  connect(&outsideRuns_, &QTimer::timeout, this, [this] {
    try {
      const int64_t changes = project_->outside_changes();
      if (changes == outsideChangesSeen_) return;
      outsideChangesSeen_ = changes;
      syncRunsWithFile(*project_, runs_);
    } catch (const std::exception& e) {
      outsideRuns_.stop();  // one message, not one every two seconds
      log(tr("Stopped following runs added to %1 by other programs: %2").arg(displayName(), QString::fromUtf8(e.what())));
    }
  });
  outsideRuns_.start(2000);
}

ProjectDocument::~ProjectDocument() = default;

std::unique_ptr<ProjectDocument> ProjectDocument::open(const QString& path, QString* error) {
  try {
    auto project = std::make_unique<store::Project>(path.toStdString(), store::Project::OpenMode::existing);
    std::unique_ptr<ProjectDocument> document(new ProjectDocument(std::move(project)));
    document->load();
    return document;
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return nullptr;
  }
}

std::unique_ptr<ProjectDocument> ProjectDocument::create(const QString& path, const QString& modelName,
                                                         const QString& modelText,
                                                         const QList<QPair<QString, QString>>& dataSets,
                                                         QString* error) {
  if (QFileInfo::exists(path)) {
    *error = tr("%1 exists already; open it or choose another name").arg(path);
    return nullptr;
  }
  try {
    auto project = std::make_unique<store::Project>(path.toStdString(), store::Project::OpenMode::create);
    project->save_model(modelName.toStdString(), modelText.toStdString());
    for (const auto& [name, json] : dataSets) project->save_data_set(name.toStdString(), json.toStdString());
    std::unique_ptr<ProjectDocument> document(new ProjectDocument(std::move(project)));
    document->load();
    return document;
  } catch (const std::exception& e) {
    QFile::remove(path);  // a half-made project is no use
    *error = QString::fromStdString(e.what());
    return nullptr;
  }
}

std::unique_ptr<ProjectDocument> ProjectDocument::openModelFile(const QString& path, QString* error) {
  const QFileInfo model(path);
  const QString projectPath = projectPathForModel(path);
  // The data beside the model: data.json, MODEL.json or MODEL.data.json (CmdStan's
  // examples' naming), as the data set "data"; else the training and held-out rows of a
  // deep model (`variate fit --data train.json --test-data test.json`).
  const QString folder = model.absolutePath() + "/";
  QString single;
  for (const QString& name : {QString("data.json"), model.completeBaseName() + ".json",
                              model.completeBaseName() + ".data.json"}) {
    if (single.isEmpty() && QFileInfo::exists(folder + name)) single = folder + name;
  }
  if (QFileInfo::exists(projectPath)) {
    auto document = open(projectPath, error);
    if (document) document->linkModelFile(model.absoluteFilePath(), single);
    return document;
  }
  if (!QDir().mkpath(QFileInfo(projectPath).absolutePath())) {
    *error = tr("cannot make the folder of %1").arg(projectPath);
    return nullptr;
  }
  const QString text = readFile(path, error);
  if (!error->isEmpty()) return nullptr;
  QList<QPair<QString, QString>> dataSets;
  const bool deep = single.isEmpty();
  const QList<QPair<QString, QString>> files =
      deep ? QList<QPair<QString, QString>>{{"train", folder + "train.json"}, {"test", folder + "test.json"}}
           : QList<QPair<QString, QString>>{{kLinkedDataSet, single}};
  for (const auto& [name, dataPath] : files) {
    if (!QFileInfo::exists(dataPath)) continue;
    const QString json = readDataFile(dataPath, error);
    if (!error->isEmpty()) return nullptr;
    dataSets << qMakePair(name, json);
  }
  auto document = create(projectPath, model.completeBaseName(), text, dataSets, error);
  if (document && deep && dataSets.size() == 2) {
    RunConfig config = document->runConfig();
    config.settings.set(services::setting::test_data, std::optional<std::string>("test"));
    document->applyRunConfig(config);
    document->applyDataSetIndex(document->dataSetIndex("train"));
  }
  if (document) document->linkModelFile(model.absoluteFilePath(), single);
  return document;
}

void ProjectDocument::load() {
  if (const auto version = project_->latest_model_version()) {
    modelName_ = QString::fromStdString(version->model_name);
    model_.setPlainText(QString::fromStdString(version->text));
  }
  model_.clearUndoRedoStacks();
  loadDataSets();
  const auto records = project_->runs();
  for (const auto& record : records) runs_.add(runFromRecord(record));
  if (!records.empty()) {  // data set and configuration of the latest run
    const auto& last = records.back();
    for (int i = 0; i < dataSets_.size(); ++i) {
      if (last.data_set_id && dataSets_[i].id == *last.data_set_id) currentDataSet_ = i;
    }
    config_ = runs_.run(last.id)->config;
  }
  if (const auto stored = project_->setting(kRunConfigSetting)) {
    config_ = RunConfig::fromJson(*stored);
  } else if (const QVariant legacy = QSettings().value(legacyConfigKey(path_)); legacy.isValid()) {
    config_ = RunConfig::fromJson(legacy.toByteArray().toStdString());
    storeRunConfig();
  }
  // Data sets come in the order of their names ("test" before "train"): without a run
  // to say which it trained on, the held-out set is not the one to select.
  if (records.empty() && currentDataSet() && currentDataSet()->name == heldoutDataSet()) {
    currentDataSet_ = currentDataSet_ == 0 && dataSets_.size() > 1 ? 1 : 0;
  }
  for (auto id : project_->interrupted_at_open()) {
    openingNotes_ << (tr("Run %1 was interrupted (its writer stopped before it finished); its draws up to then are kept.").arg(id));
  }
  undo_.clear();
  // A project made from a model file (here or by `variate sample --project`) keeps to it:
  // the stored path, else MODEL.vmod beside the project.
  const auto stored = project_->setting(kModelFileSetting);
  const QString modelFile =
      stored ? QString::fromStdString(*stored) : QFileInfo(path_).absolutePath() + "/" + modelName_ + ".vmod";
  const auto dataFile = project_->setting(kDataFileSetting);
  if (QFileInfo::exists(modelFile)) linkModelFile(modelFile, dataFile ? QString::fromStdString(*dataFile) : QString());
}

void ProjectDocument::linkModelFile(const QString& modelPath, const QString& dataPath) {
  // An installed example stays as installed: its project lives in the user's documents.
  if (!QFileInfo(modelPath).isWritable()) return;
  const bool dataHeld = !dataPath.isEmpty() && dataSetIndex(kLinkedDataSet) >= 0;
  link_ = std::make_unique<ModelFileLink>(modelPath, dataHeld ? dataPath : QString());
  try {
    project_->set_setting(kModelFileSetting, modelPath.toStdString());
    if (dataHeld) project_->set_setting(kDataFileSetting, dataPath.toStdString());
  } catch (const std::exception&) {
    // a read-only project still follows the file for this session
  }
  connect(link_.get(), &ModelFileLink::modelChanged, this, [this](const QString& text) {
    if (text != modelText()) emit modelFileChanged(text);
  });
  connect(link_.get(), &ModelFileLink::dataChanged, this, &ProjectDocument::dataFileChanged);
  QString error;
  const QString text = link_->readModel(&error);
  modelFileDiffers_ = error.isEmpty() && text != modelText() ? std::optional<QString>(text) : std::nullopt;
}

QString ProjectDocument::modelFilePath() const { return link_ ? link_->modelPath() : QString(); }

QString ProjectDocument::dataFilePath() const { return link_ ? link_->dataPath() : QString(); }

bool ProjectDocument::useModelFile(QString* error) {
  if (!link_) return false;
  const QString text = link_->readModel(error);
  if (!error->isEmpty()) return false;
  modelFileDiffers_.reset();
  setModelText(text);
  if (!save(error)) return false;
  log(tr("Model read again from %1").arg(link_->modelPath()));
  return true;
}

void ProjectDocument::keepProjectModel() { modelFileDiffers_.reset(); }

bool ProjectDocument::reloadDataFile(QString* error) {
  if (!link_ || link_->dataPath().isEmpty()) return false;
  if (!storeDataFile(link_->dataPath(), kLinkedDataSet, error)) return false;
  log(tr("Data set %1 read again from %2").arg(kLinkedDataSet, link_->dataPath()));
  return true;
}

void ProjectDocument::loadDataSets() {
  const QString currentName = currentDataSet() ? currentDataSet()->name : QString();
  dataSets_.clear();
  for (const auto& set : project_->data_sets()) {
    dataSets_ << describeDataSet(set.id, QString::fromStdString(set.name), QString::fromStdString(set.json_text));
  }
  currentDataSet_ = dataSets_.isEmpty() ? -1 : 0;
  for (int i = 0; i < dataSets_.size(); ++i) {
    if (dataSets_[i].name == currentName) currentDataSet_ = i;
  }
  emit dataSetsChanged();
  emit currentDataSetChanged(currentDataSet_);
}

QString ProjectDocument::displayName() const { return QFileInfo(path_).fileName(); }

void ProjectDocument::onTextCommandAdded() { undo_.push(new TextEditCommand(&model_)); }

void ProjectDocument::setModelText(const QString& text) {
  if (text == modelText()) return;
  QTextCursor cursor(&model_);
  cursor.select(QTextCursor::Document);
  cursor.insertText(text);  // one text undo step, hence one command
}

void ProjectDocument::setModelCheck(const ModelCheck& check) {
  check_ = check;
  emit modelChecked(check_);
}

const DataSetEntry* ProjectDocument::currentDataSet() const {
  return currentDataSet_ >= 0 && currentDataSet_ < dataSets_.size() ? &dataSets_[currentDataSet_] : nullptr;
}

void ProjectDocument::selectDataSet(int index) {
  if (index == currentDataSet_ || index < 0 || index >= dataSets_.size()) return;
  undo_.push(new SelectDataSetCommand(this, currentDataSet_, index, dataSets_[index].name));
}

void ProjectDocument::applyDataSetIndex(int index) {
  currentDataSet_ = index;
  emit currentDataSetChanged(index);
}

bool ProjectDocument::importDataSet(const QString& filePath, QString* error) {
  const QString name = QFileInfo(filePath).completeBaseName();
  if (!storeDataFile(filePath, name, error)) return false;
  log(tr("Imported data set %1 from %2").arg(name, filePath));
  return true;
}

bool ProjectDocument::storeDataFile(const QString& filePath, const QString& name, QString* error) {
  const QString json = readDataFile(filePath, error);
  if (!error->isEmpty()) return false;
  const DataSetEntry entry = describeDataSet(-1, name, json);
  if (!entry.error.isEmpty()) {
    *error = entry.error;
    return false;
  }
  try {
    project_->save_data_set(name.toStdString(), json.toStdString());
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  loadDataSets();
  selectDataSet(dataSetIndex(name));
  return true;
}

void ProjectDocument::setRunConfig(const RunConfig& config) {
  if (config == config_) return;
  undo_.push(new SetRunConfigCommand(this, config_, config));
}

void ProjectDocument::applyRunConfig(const RunConfig& config) {
  config_ = config;
  storeRunConfig();
  emit runConfigChanged(config_);
}

void ProjectDocument::storeRunConfig() {
  try {
    project_->set_setting(kRunConfigSetting, config_.toJson());
  } catch (const store::ProjectError& e) {
    // The configuration stays in effect for this session; the file keeps the old one.
    log(tr("Could not store the run configuration in %1: %2").arg(displayName(), QString::fromUtf8(e.what())));
  }
}

int ProjectDocument::dataSetIndex(const QString& name) const {
  for (int i = 0; i < dataSets_.size(); ++i) {
    if (dataSets_[i].name == name) return i;
  }
  return -1;
}

bool ProjectDocument::prepareRun(RunRequest* request, QString* error) {
  try {
    const auto version = project_->save_model(modelName_.toStdString(), modelText().toStdString());
    request->projectPath = path_;
    request->config = config_;
    // A model with networks is trained whatever method the others use; only it is.
    if (isDeepModel(modelText())) {
      request->config.method = services::Method::amortized;
      if (!fillHeldout(request, error)) return false;
    } else if (config_.method == services::Method::amortized) {
      request->config.method = services::Method::nuts;
    }
    request->modelName = modelName_;
    request->modelText = modelText();
    request->modelVersionId = version.id;
    if (const DataSetEntry* data = currentDataSet()) {
      request->dataSetName = data->name;
      request->dataJson = data->json;
      request->dataSetId = data->id;
    }
    return true;
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
}

bool ProjectDocument::prepareRunMore(qint64 id, RunRequest* request, QString* error) {
  const RunPtr run = runs_.run(id);
  if (!run || run->isActive() || run->config.method != services::Method::nuts || run->status == RunStatus::Failed) {
    *error = tr("Only an ended NUTS run can be continued.");
    return false;
  }
  request->continues = id;
  for (size_t c = 0; c < run->chainStates.size(); ++c) {
    const ChainState& state = run->chainStates[c];
    if (!state.stepSize || state.lastPosition.empty() || state.inverseMetric.empty()) {
      *error = tr("%1 cannot be continued: chain %2 ended before its warmup did.").arg(run->name).arg(c + 1);
      return false;
    }
    request->resume.push_back({state.lastPosition, *state.stepSize, state.inverseMetric, run->chains[c].iterations(),
                               run->chains[c].warmupIterations()});
  }
  if (request->resume.empty()) {
    *error = tr("%1 has no chains to continue (its draws are not read yet).").arg(run->name);
    return false;
  }
  // The chains continue in the model version and data they were sampled with.
  if (!fillFromRecord(*run, request, error)) return false;
  request->config = run->config;
  services::Settings& settings = request->config.settings;
  namespace setting = services::setting;
  settings.set(setting::chains, static_cast<int>(request->resume.size()));
  settings.set(setting::warmup, 0);
  settings.set(setting::draws, config_.settings.get(setting::draws));
  // The other processes cannot resume chains: a continuation runs in the studio alone, on
  // the whole density.
  settings.set(setting::nproc, std::optional<int>());
  // Each continuation draws from its own streams (the engine also keeps them apart from
  // the first run's): the seed moves on with the draws already made.
  settings.set(setting::seed, std::optional<uint64_t>(run->seed + static_cast<uint64_t>(run->chains.front().iterations())));
  return true;
}

QString ProjectDocument::heldoutDataSet() const {
  return QString::fromStdString(config_.settings.get(services::setting::test_data).value_or(""));
}

bool ProjectDocument::fillHeldout(RunRequest* request, QString* error) const {
  const QString name = QString::fromStdString(request->config.settings.get(services::setting::test_data).value_or(""));
  if (name.isEmpty()) return true;
  const int index = dataSetIndex(name);
  if (index < 0) {
    *error = tr("The held-out data set '%1' is not in %2: choose another in the Run panel.").arg(name, displayName());
    return false;
  }
  request->heldoutJson = dataSets_[index].json;
  return true;
}

bool ProjectDocument::prepareContinueTraining(qint64 id, RunRequest* request, QString* error) {
  const RunPtr run = runs_.run(id);
  if (!run || run->isActive() || run->config.method != services::Method::amortized) {
    *error = tr("Only an ended training can be continued.");
    return false;
  }
  if (!fillFromRecord(*run, request, error)) return false;
  request->config = run->config;
  request->continues = id;
  // A finished training trains the configured epochs more; another goes on to its own.
  if (run->status == RunStatus::Finished) request->moreEpochs = config_.settings.get(services::setting::epochs).value_or(10);
  return fillHeldout(request, error);
}

bool ProjectDocument::fillFromRecord(const RunData& run, RunRequest* request, QString* error) const {
  try {
    const auto version = project_->model_version(run.modelVersion);
    request->projectPath = path_;
    request->modelName = QString::fromStdString(version.model_name);
    request->modelText = QString::fromStdString(version.text);
    request->modelVersionId = version.id;
    if (run.dataSetId >= 0) {
      const auto data = project_->data_set(run.dataSetId);
      request->dataSetName = QString::fromStdString(data.name);
      request->dataJson = QString::fromStdString(data.json_text);
      request->dataSetId = data.id;
    }
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  return true;
}

bool ProjectDocument::prepareReattach(qint64 id, RunRequest* request, QString* error) {
  const RunPtr run = runs_.run(id);
  if (!run || run->isActive() || !run->config.isRemote() || !run->config.job) {
    *error = tr("Only a run made on a worker can be reattached.");
    return false;
  }
  if (!fillFromRecord(*run, request, error)) return false;
  request->config = run->config;
  request->continues = id;
  request->reattach = true;
  return true;
}

std::optional<qint64> ProjectDocument::runToReattach() const {
  std::optional<qint64> found;
  for (const qint64 id : runs_.ids()) {
    const RunPtr run = runs_.run(id);
    if (run && run->status == RunStatus::Interrupted && run->config.job) found = run->id;
  }
  return found;
}

bool ProjectDocument::prepareContinueSbc(qint64 id, RunRequest* request, QString* error) {
  const RunPtr run = runs_.run(id);
  if (!run || run->isActive() || run->config.method != services::Method::sbc || run->status == RunStatus::Finished) {
    *error = tr("Only an SBC run that did not finish can be continued.");
    return false;
  }
  if (!fillFromRecord(*run, request, error)) return false;
  request->config = run->config;
  request->continues = id;
  return true;
}

std::optional<qint64> ProjectDocument::sbcRunToContinue() const {
  std::optional<qint64> found;
  for (const qint64 id : runs_.ids()) {
    const RunPtr run = runs_.run(id);
    if (run && run->status == RunStatus::Interrupted && run->config.method == services::Method::sbc) found = run->id;
  }
  return found;
}

QString ProjectDocument::sbcReplicationRunName(const QString& sbcRun, int index) {
  return tr("%1 replication %2").arg(sbcRun).arg(index + 1);
}

bool ProjectDocument::prepareReplicationFit(qint64 id, int index, RunRequest* request, QString* error) {
  const RunPtr run = runs_.run(id);
  if (!run || run->config.method != services::Method::sbc) {
    *error = tr("Only an SBC run's replications can be fitted again.");
    return false;
  }
  if (!fillFromRecord(*run, request, error)) return false;
  request->config = run->config;
  request->config.method = services::fit_method(run->config.settings);
  request->runName = sbcReplicationRunName(run->name, index);
  request->sbcReplication = index;
  request->sbcSeed = run->seed;
  return true;
}

void ProjectDocument::addStartedRun(RunData run) {
  try {
    const auto record = project_->run(run.id);
    run.name = QString::fromStdString(record.name);
    run.modelVersion = record.model_version_id;
  } catch (const std::exception&) {
    run.name = tr("run %1").arg(run.id);
  }
  runs_.add(std::move(run));
}

bool ProjectDocument::renameRun(qint64 id, const QString& name) {
  const RunPtr run = runs_.run(id);
  const QString wanted = name.trimmed();
  if (!run || wanted.isEmpty()) return false;
  if (run->name == wanted) return true;
  // The file refuses these too (Project::rename_run); refused here, the undo stack keeps
  // no rename that did not happen.
  bool number = false;
  wanted.toLongLong(&number);
  if (number) {
    log(tr("A run's name cannot be a number alone ('%1'): numbers name runs by their id").arg(wanted));
    return false;
  }
  for (const qint64 other : runs_.ids()) {
    const RunPtr taken = runs_.run(other);
    if (other == id || !taken || taken->name != wanted) continue;
    log(tr("Run %1 is already named '%2': run names are unique, choose another").arg(other).arg(wanted));
    return false;
  }
  undo_.push(new RenameRunCommand(this, id, run->name, wanted));
  return true;
}

void ProjectDocument::applyRunName(qint64 id, const QString& name) {
  try {
    project_->rename_run(id, name.toStdString());
    runs_.setName(id, name);
  } catch (const std::exception& e) {
    log(QString::fromStdString(e.what()));
  }
}

bool ProjectDocument::deleteRun(qint64 id, QString* error) {
  try {
    project_->delete_run(id);
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  runs_.remove(id);
  return true;
}

void ProjectDocument::refreshRun(qint64 id) {
  try {
    runs_.setRecorded(runFromRecord(project_->run(id)));
  } catch (const std::exception& e) {
    log(QString::fromStdString(e.what()));
  }
}

QByteArray ProjectDocument::storedCanvasLayout(QString* error) const {
  try {
    const auto version = project_->latest_model_version(modelName_.toStdString());
    return version ? QByteArray::fromStdString(version->canvas_layout_json) : QByteArray();
  } catch (const std::exception& e) {
    *error = QString::fromUtf8(e.what());
    return {};
  }
}

bool ProjectDocument::storeCanvasLayout(const QByteArray& json, QString* error) {
  try {
    const auto version = project_->latest_model_version(modelName_.toStdString());
    if (!version || QString::fromStdString(version->text) != modelText()) {
      *error = tr("save the model first: the layout is stored with a saved version of its text");
      return false;
    }
    project_->set_canvas_layout(version->id, json.toStdString());
    return true;
  } catch (const std::exception& e) {
    *error = QString::fromUtf8(e.what());
    return false;
  }
}

bool ProjectDocument::save(QString* error) {
  try {
    project_->save_model(modelName_.toStdString(), modelText().toStdString());
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  undo_.setClean();
  // The model file is the same text: what `variate sample MODEL.vmod` runs is what was saved.
  modelFileDiffers_.reset();
  if (link_ && !link_->writeModel(modelText(), error)) {
    *error = tr("The project is saved, but not the model file: %1").arg(*error);
    return false;
  }
  return true;
}

bool ProjectDocument::saveAs(const QString& path, QString* error) {
  if (QFileInfo(path).absoluteFilePath() == QFileInfo(path_).absoluteFilePath()) return save(error);
  if (QFileInfo::exists(path) && !QFile::remove(path)) {
    *error = tr("Cannot replace %1").arg(path);
    return false;
  }
  // Copied by SQLite, not by its bytes: a run that another process records into the
  // file meanwhile cannot tear the copy.
  try {
    project_->copy_to(path.toStdString());
    project_ = std::make_unique<store::Project>(path.toStdString());
  } catch (const std::exception& e) {
    *error = QString::fromStdString(e.what());
    return false;
  }
  path_ = path;
  emit filePathChanged(path_);
  return save(error);
}

void ProjectDocument::log(const QString& message) { emit logged(message); }

}  // namespace variate::ui
