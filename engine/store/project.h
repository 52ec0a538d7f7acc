#pragma once
/// A Variate project file (`*.variate`): one SQLite database holding models and their
/// versions, data sets, and runs with their draws, adaptation, ELBO traces and
/// diagnostics, and a training run's epochs and checkpoints. Written through the sqlite3 C
/// API, so the CLI and the studio share it.
///
///   store::Project project("eight_schools.variate", store::Project::OpenMode::create);
///   const auto version = project.save_model("eight_schools", text);
///   for (const store::RunInfo& run : project.runs()) {
///     const std::vector<store::ChainDraws> chains = project.draws(run.id);
///   }
///
/// The file is in WAL mode with foreign keys on; every write is one transaction, so a
/// crash leaves the file as of the last commit (synchronous=NORMAL: a power loss may also
/// drop the last commits, never corrupt the file). Opening an older file migrates it in
/// one transaction. Opening also marks as interrupted every run left "running" by a
/// process that is gone (see mark_abandoned_runs_interrupted()).
///
/// One Project is one connection: use it from one thread at a time. Several connections,
/// in one process or several, may use the same file at once (WAL: readers never block
/// the writer; writers wait up to 5 s for each other).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/project_error.h"
#include "engine/store/project_records.h"

namespace variate::store {

class Database;

class Project {
 public:
  enum class OpenMode {
    existing,  ///< the file must exist
    create,    ///< create an empty project when the file does not exist
  };

  /// Opens (or creates) a project. A file that is not a project is left untouched. A new
  /// project appears at `path` whole, never half made (by a process killed while making
  /// it); of two processes creating it at once, one makes it and both open it.
  /// @throws ProjectError "project 'x.variate': ..." when the file does not exist (with
  /// OpenMode::existing) or cannot be opened; is empty, not a SQLite database, corrupt or
  /// truncated; is a SQLite database of another application; has a schema version newer
  /// than this build knows; or lacks one of its tables.
  explicit Project(const std::string& path, OpenMode mode = OpenMode::existing);
  ~Project();
  Project(Project&&) noexcept;
  Project& operator=(Project&&) noexcept;
  Project(const Project&) = delete;
  Project& operator=(const Project&) = delete;

  const std::string& path() const { return path_; }
  /// The schema version this build writes (PRAGMA user_version of its files).
  static int schema_version();
  /// Writes a copy of the project as of now to `path`, which must not exist: SQLite's
  /// VACUUM INTO, so every commit of every connection is in it (also those still in the
  /// log) and a writer elsewhere cannot tear it, as a copy of the file's bytes could.
  /// @throws ProjectError if the copy cannot be written (nothing is left at `path`).
  void copy_to(const std::string& path) const;
  /// Runs this open found abandoned and marked interrupted.
  const std::vector<Id>& interrupted_at_open() const { return interrupted_at_open_; }

  /// Marks interrupted every "running" run whose writer is gone: on this host, its
  /// process no longer exists (pid and start time); on another host, its heartbeat is
  /// older than `stale_seconds`. Returns their ids.
  std::vector<Id> mark_abandoned_runs_interrupted(double stale_seconds = 5.0);

  // --- Models -------------------------------------------------------------------------

  /// Saves `text` as the newest version of model `name` (creating the model), or returns
  /// the newest version unchanged when its text is already `text`.
  /// @throws ProjectError for an empty name.
  ModelVersion save_model(const std::string& name, const std::string& text);
  std::vector<ModelInfo> models() const;
  /// @throws ProjectError if there is no such version.
  ModelVersion model_version(Id version_id) const;
  /// Versions of one model, oldest first (empty when there is no such model).
  std::vector<ModelVersion> model_versions(const std::string& name) const;
  /// The newest version of `name`, or nothing.
  std::optional<ModelVersion> latest_model_version(const std::string& name) const;
  /// The most recently saved version of any model, or nothing.
  std::optional<ModelVersion> latest_model_version() const;
  /// Stores the canvas layout (JSON) of one version.
  void set_canvas_layout(Id version_id, const std::string& layout_json);

  // --- Settings -----------------------------------------------------------------------

  /// A setting stored in the file (e.g. the studio's run configuration), or nothing.
  std::optional<std::string> setting(const std::string& key) const;
  /// Stores a setting, replacing its value. @throws ProjectError for an empty key.
  void set_setting(const std::string& key, const std::string& value);

  // --- Data sets ----------------------------------------------------------------------

  /// Saves CmdStan JSON under `name`; returns the newest data set of that name when its
  /// text is already `json_text`.
  /// @throws ProjectError for an empty name, text that is not a JSON object, or text
  ///         longer than max_data_set_bytes().
  DataSet save_data_set(const std::string& name, const std::string& json_text);
  /// The longest data set text a project stores: SQLite's limit on one value (1e9 bytes
  /// unless SQLite was built otherwise). A larger file is read directly, not through a
  /// project.
  static int64_t max_data_set_bytes();
  /// The newest data set of each name, by name.
  std::vector<DataSet> data_sets() const;
  /// @throws ProjectError if there is no such data set.
  DataSet data_set(Id id) const;

  // --- Writing runs (RunRecorder does this for NUTS) ---------------------------------

  /// Adds a run with status running, started now and owned by this process, named
  /// spec.name or else "run ID".
  /// @throws ProjectError if the model version or data set does not exist, or the name is
  /// another run's or a number alone (run names are unique: front ends name runs by them).
  Id create_run(const RunSpec& spec);
  /// Appends draw blocks, replaces chain records, appends ELBO points, replaces epoch
  /// records and stores a checkpoint (keeping the run's two highest-step ones) in one
  /// transaction, and refreshes the run's heartbeat (an empty update only does that).
  /// Appended draws drop the run's stored LOO document (it no longer covers every draw).
  /// A chain's first block needs the chain's record, in the same update or an earlier
  /// one; blocks of a chain must follow on from its stored rows.
  /// @throws ProjectError if a block's width differs from the run's columns, a block
  /// overlaps rows already stored, an ELBO point's iteration is already stored, an epoch
  /// or checkpoint has a number out of range, or the write fails (the file is then
  /// unchanged).
  void write(Id run, const RunUpdate& update);
  /// Makes an ended run "running" again, owned by this process, so that more draws can
  /// be appended to its chains ("run more draws"; RunRecorder's continuing constructor).
  /// @throws ProjectError if there is no such run or it is running.
  void resume_run(Id run);
  /// Stores the run's diagnostics document (JSON), replacing any earlier one.
  void set_diagnostics(Id run, const std::string& json);
  /// Stores the run's PSIS-LOO document (JSON: elpd_loo, p_loo, looic with their SEs,
  /// pareto_k, ...; `variate loo --project`, the studio's LOO panel), replacing any
  /// earlier one. Draws written to the run later drop it (see write()).
  /// @throws ProjectError if there is no such run.
  void set_loo(Id run, const std::string& json);
  /// Ends a run: status, error message (for failed), finish time and seconds.
  void finish_run(Id run, RunStatus status, const std::string& error_message = "");
  /// @throws ProjectError as create_run for a name taken or a number alone.
  void rename_run(Id run, const std::string& name);
  /// Replaces a run's configuration: a run continued elsewhere records where (a worker's
  /// new job).
  void set_run_config(Id run, const std::string& config_json);
  /// Deletes a run with its draws, chains, ELBO trace, diagnostics, epochs, checkpoints and
  /// SBC replications.
  void delete_run(Id run);
  /// Stores one replication of an SBC run (a run of method sbc), with the run's heartbeat,
  /// in one transaction.
  /// @throws ProjectError if the run is no SBC run, the replication is stored already (a
  /// replication counts once), its ranks are not one per quantity (the run's columns) or
  /// lie outside 0 to max_rank, or the write fails.
  void write_sbc_replication(Id run, const SbcReplicationRecord& replication);
  /// Before a training continues from `checkpoint_step`: deletes the ELBO points after that
  /// step and the epoch records whose step is after it (a crash can leave points the
  /// checkpoint does not cover), and any checkpoint after it, in one transaction.
  /// @throws ProjectError if there is no such run or the step is negative.
  void rewind_training(Id run, int64_t checkpoint_step);

  // --- Reading runs -------------------------------------------------------------------

  /// Every run, oldest first.
  std::vector<RunInfo> runs() const;
  /// A number that changes whenever another connection (another process, a recorder on
  /// another thread) commits to the file: a reader polls it to learn that runs changed.
  int64_t outside_changes() const;
  /// @throws ProjectError if there is no such run.
  RunInfo run(Id run) const;
  std::vector<ChainRecord> chains(Id run) const;
  /// One chain's table, every stored row (warmup first). Rows are contiguous from
  /// iteration 0; should a block be missing, the table ends before it.
  /// @throws ProjectError if the run has no such chain.
  ChainDraws chain_draws(Id run, int chain) const;
  /// Every chain's table, by chain.
  std::vector<ChainDraws> draws(Id run) const;
  std::vector<ElboPoint> elbo_trace(Id run) const;
  /// The diagnostics document, or nothing when none was stored.
  std::optional<std::string> diagnostics_json(Id run) const;
  /// The PSIS-LOO document, or nothing when none was stored.
  /// @throws ProjectError if there is no such run.
  std::optional<std::string> loo_json(Id run) const;
  /// A training run's epoch records, by epoch.
  std::vector<EpochRecord> training_epochs(Id run) const;
  /// The checkpoint of the highest step, or nothing.
  std::optional<CheckpointRecord> latest_checkpoint(Id run) const;
  /// An SBC run's stored replications, by replication.
  std::vector<SbcReplicationRecord> sbc_replications(Id run) const;

 private:
  /// The run's heartbeat now (and its seconds so far), inside a writer's transaction.
  void refresh_heartbeat(Id run);
  /// write()'s epochs and checkpoint, inside its transaction (project_training.cpp).
  void write_training_records(Id run, const RunUpdate& update);

  std::string path_;
  std::unique_ptr<Database> db_;
  std::vector<Id> interrupted_at_open_;
};

}  // namespace variate::store
