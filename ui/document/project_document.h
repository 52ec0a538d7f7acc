#pragma once
/// One open project (`*.variate`): its model text, data sets, run configuration and runs,
/// with the undo stack every user edit goes through. Views are thin: they are given the
/// document and listen to its signals (Tiled's MapDocument; docs/ARCHITECTURE.md).
///
///   QString error;
///   auto document = ProjectDocument::open("eight_schools.variate", &error);
///   if (!document) showError(error);

#include <memory>
#include <optional>

#include <QObject>
#include <QTimer>
#include <QTextDocument>
#include <QUndoStack>

#include "ui/document/data_set_entry.h"
#include "ui/document/model_check.h"
#include "ui/document/run_config.h"
#include "ui/document/run_list.h"

namespace variate::store { class Project; }

namespace variate::ui {

class ModelFileLink;
struct RunRequest;

class ProjectDocument : public QObject {
  Q_OBJECT

 public:
  ~ProjectDocument() override;

  /// Opens an existing project; nullptr with a message naming the file on any problem (a
  /// file that is not a Variate project is left untouched).
  static std::unique_ptr<ProjectDocument> open(const QString& path, QString* error);
  /// Creates a project file (which must not exist) holding a model and data sets.
  static std::unique_ptr<ProjectDocument> create(const QString& path, const QString& modelName,
                                                 const QString& modelText,
                                                 const QList<QPair<QString, QString>>& dataSets,
                                                 QString* error);
  /// Opens MODEL.vmod as a project: MODEL.variate where projectPathForModel puts it (next to
  /// the model, or in the user's documents for an installed example or a read-only
  /// folder) when that exists, otherwise a new one there with the model and a sibling
  /// data.json (if any).
  static std::unique_ptr<ProjectDocument> openModelFile(const QString& path, QString* error);

  QString filePath() const { return path_; }
  /// "eight_schools.variate".
  QString displayName() const;
  bool isModified() const { return !undo_.isClean(); }
  QUndoStack* undoStack() { return &undo_; }

  // Model
  QString modelName() const { return modelName_; }
  QTextDocument* modelDocument() { return &model_; }
  QString modelText() const { return model_.toPlainText(); }
  /// Replaces the whole text as one undoable edit.
  void setModelText(const QString& text);
  const ModelCheck& modelCheck() const { return check_; }
  void setModelCheck(const ModelCheck& check);

  // Data
  const QList<DataSetEntry>& dataSets() const { return dataSets_; }
  int currentDataSetIndex() const { return currentDataSet_; }
  const DataSetEntry* currentDataSet() const;
  /// Undoable.
  void selectDataSet(int index);
  /// The index of the data set called `name`, or -1.
  int dataSetIndex(const QString& name) const;
  /// Stores a CmdStan JSON file in the project and selects it; false with a message.
  bool importDataSet(const QString& filePath, QString* error);

  // Runs
  const RunConfig& runConfig() const { return config_; }
  /// Undoable; does nothing when unchanged.
  void setRunConfig(const RunConfig& config);
  RunList* runs() { return &runs_; }
  /// Saves the model text as a model version if it changed, and fills `request` for a
  /// run of the current configuration (a training for a model with networks or guides,
  /// with its held-out data set); false with a message.
  bool prepareRun(RunRequest* request, QString* error);
  /// Fills `request` to continue an ended NUTS run from where its chains ended, with
  /// their adapted step sizes and metrics, in the model version and data it was sampled
  /// with, for the configured number of draws; false with a message.
  bool prepareRunMore(qint64 id, RunRequest* request, QString* error);
  /// Fills `request` to continue an ended training from its latest checkpoint: an
  /// unfinished one (stopped, interrupted, failed) to its planned epochs, a finished one
  /// for the configured epochs more; false with a message.
  bool prepareContinueTraining(qint64 id, RunRequest* request, QString* error);
  /// Fills `request` to follow again the worker's job of run `id`, left interrupted when
  /// the studio that followed it closed; false with a message.
  bool prepareReattach(qint64 id, RunRequest* request, QString* error);
  /// The latest interrupted run whose job on a worker may still go on, if any.
  std::optional<qint64> runToReattach() const;
  /// Fills `request` to continue an SBC run that did not finish (stopped, interrupted by
  /// a crash, failed): the replications it lacks, with its seed, settings, model version
  /// and data; false with a message.
  bool prepareContinueSbc(qint64 id, RunRequest* request, QString* error);
  /// The latest SBC run a crash left interrupted, if any: reopening continues it.
  std::optional<qint64> sbcRunToContinue() const;
  /// Fills `request` to fit replication `index` of SBC run `id` again as a run of its own
  /// (its data simulated with its seed: the replication's draws), named
  /// sbcReplicationRunName(); false with a message.
  bool prepareReplicationFit(qint64 id, int index, RunRequest* request, QString* error);
  /// "sbc 1 replication 17".
  static QString sbcReplicationRunName(const QString& sbcRun, int index);
  /// A run the engine started (it is in the file now): adds it with the name and model
  /// version the file gave it, and makes it current.
  void addStartedRun(RunData run);
  /// Undoable: renames a run in the file; false (with a message in the log) for a name
  /// another run has, a number alone, or an empty name.
  bool renameRun(qint64 id, const QString& name);
  /// Deletes a run and its draws from the file (not undoable: callers confirm first).
  bool deleteRun(qint64 id, QString* error);
  /// Reads the run's record again (status, message, timing) without its draws.
  void refreshRun(qint64 id);
  /// What opening found worth telling (runs marked interrupted).
  QStringList openingNotes() const { return openingNotes_; }

  // Canvas layout (JSON, CanvasLayout's format), kept with a saved version of the model
  /// The layout stored with the newest version of the model; empty when there is none
  /// (or, with a message, when the file cannot be read).
  QByteArray storedCanvasLayout(QString* error) const;
  /// Stores the layout with the newest version of the model when that version holds the
  /// document's text (after a save); false with a message otherwise.
  bool storeCanvasLayout(const QByteArray& json, QString* error);

  /// Saves the model text as a new version, and into the model file the project is
  /// linked to; false with a message.
  bool save(QString* error);

  // The model file and data file the project is linked to (ModelFileLink): MODEL.vmod it
  // was opened from, or MODEL.vmod beside it; empty when none (or it cannot be written).
  QString modelFilePath() const;
  QString dataFilePath() const;
  /// The model file's text when, at opening, it differed from the project's model (edited
  /// outside meanwhile), until the user chose (useModelFile, keepProjectModel) or saved.
  std::optional<QString> modelFileDiffers() const { return modelFileDiffers_; }
  /// Takes the model file's text into the editor (one undoable edit) and saves.
  bool useModelFile(QString* error);
  /// Keeps the project's text; the model file gets it at the next save.
  void keepProjectModel();
  /// Stores the linked data file again as the data set "data" and selects it.
  bool reloadDataFile(QString* error);
  /// Copies the project (runs included) to `path`, saves the text there and continues
  /// there.
  bool saveAs(const QString& path, QString* error);

  /// For the undo commands: apply without pushing a command.
  void applyRunConfig(const RunConfig& config);
  void applyDataSetIndex(int index);
  void applyRunName(qint64 id, const QString& name);

 signals:
  void filePathChanged(const QString& path);
  void modifiedChanged(bool modified);
  void modelChecked(const variate::ui::ModelCheck& check);
  void dataSetsChanged();
  void currentDataSetChanged(int index);
  void runConfigChanged(const variate::ui::RunConfig& config);
  void logged(const QString& message);
  /// The linked model file changed on disk to `text`, which differs from the editor's.
  void modelFileChanged(const QString& text);
  /// The linked data file changed on disk.
  void dataFileChanged();

 public slots:
  void log(const QString& message);

 private:
  explicit ProjectDocument(std::unique_ptr<store::Project> project);
  /// The model version and data set `run` was sampled with, into `request`.
  bool fillFromRecord(const RunData& run, RunRequest* request, QString* error) const;
  /// The JSON of the data set the setting test_data names, if it names one.
  bool fillHeldout(RunRequest* request, QString* error) const;
  void load();
  /// Follows the model file (and data file), remembered in the project for next time.
  void linkModelFile(const QString& modelPath, const QString& dataPath);
  void loadDataSets();
  /// Stores the data file as the newest data set `name` and selects it; false with a message.
  bool storeDataFile(const QString& filePath, const QString& name, QString* error);
  void onTextCommandAdded();
  void storeRunConfig();
  /// The data set the configuration names for a training's held-out rows, or "".
  QString heldoutDataSet() const;

  std::unique_ptr<store::Project> project_;
  QString path_;
  QString modelName_ = "model";
  QTextDocument model_;
  ModelCheck check_;
  QList<DataSetEntry> dataSets_;
  int currentDataSet_ = -1;
  RunConfig config_;
  RunList runs_;
  /// Polls the file for runs another process adds or ends (syncRunsWithFile).
  QTimer outsideRuns_;
  int64_t outsideChangesSeen_ = -1;
  QUndoStack undo_;
  QStringList openingNotes_;
  std::unique_ptr<ModelFileLink> link_;
  std::optional<QString> modelFileDiffers_;
};

}  // namespace variate::ui
