#pragma once
/// The records a project file holds, as plain values (no LibTorch, no Qt): models with
/// their versions, data sets, runs with per-chain draw tables, adaptation, ELBO traces,
/// and a training run's epochs and checkpoints.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace variate::store {

/// Row id of a record in its table (models, model versions, data sets, runs).
using Id = int64_t;

/// amortized: training a deep model (a VAE's networks) by amortized variational inference.
/// optimize: the mode by L-BFGS, its draws those of the Laplace approximation there (the
/// mode alone when none were asked for). pathfinder: Pathfinder's (resampled) draws. sbc:
/// simulation-based calibration, which records its replications' ranks
/// (SbcReplicationRecord), no draws.
enum class RunMethod { nuts, advi, amortized, optimize, pathfinder, sbc };
/// running: being written now. stopped: ended early by a stop request, its draws kept.
/// interrupted: its writer died (crash, kill) before finishing. failed: ended by an error.
enum class RunStatus { running, finished, stopped, interrupted, failed };

/// "nuts", "advi", "amortized", "optimize", "pathfinder", "sbc"; "running", "finished", ...
/// (the strings stored in the file).
const char* to_string(RunMethod method);
const char* to_string(RunStatus status);
/// @throws ProjectError for an unknown string.
RunMethod run_method_from_string(const std::string& text);
RunStatus run_status_from_string(const std::string& text);

struct ModelInfo {
  Id id = 0;
  std::string name;
  int latest_version = 0;  ///< 1-based version number of the newest text
  Id latest_version_id = 0;
  double created_at = 0;  ///< seconds since the Unix epoch (UTC), as all timestamps here
};

/// One saved text of a model. Versions are numbered 1, 2, ... per model.
struct ModelVersion {
  Id id = 0;
  Id model_id = 0;
  std::string model_name;
  int version = 0;
  std::string text;
  std::string canvas_layout_json;  ///< empty until a canvas stores a layout
  double created_at = 0;
};

/// A data set in CmdStan JSON. A data set is never changed once saved (runs point at it);
/// saving new text under the same name adds a new data set that then shadows the old.
struct DataSet {
  Id id = 0;
  std::string name;
  std::string json_text;
  double created_at = 0;
};

/// What a new run records when it starts.
struct RunSpec {
  std::string name;  ///< empty: "run N"
  RunMethod method = RunMethod::nuts;
  std::string config_json = "{}";  ///< options as given (chains, warmup, draws, max_depth...)
  Id model_version_id = 0;
  std::optional<Id> data_set_id;
  uint64_t seed = 0;
  /// Stan CSV names of a draw row: the method's own columns (mcmc/sampler_columns.h for
  /// NUTS, vi/variational_draws.h for ADVI, Laplace and Pathfinder draws: lp__, log_p__,
  /// log_g__), then the parameters ("theta.1").
  std::vector<std::string> columns;
};

struct RunInfo {
  Id id = 0;
  std::string name;
  RunMethod method = RunMethod::nuts;
  std::string config_json;
  Id model_version_id = 0;
  std::optional<Id> data_set_id;
  uint64_t seed = 0;
  std::vector<std::string> columns;
  double created_at = 0;
  /// When it started; a continuation moves it on so that `seconds` counts running time.
  std::optional<double> started_at;
  std::optional<double> finished_at;
  RunStatus status = RunStatus::running;
  std::string error_message;
  double seconds = 0;  ///< wall time from start to finish (or to the last commit)
  int chains = 0;      ///< chains with a record
  bool has_diagnostics = false;
  /// Draws after warmup stored per chain, the shortest chain's (a stopped run has fewer
  /// than its configuration asked for).
  int64_t sampling_draws = 0;
};

/// Consecutive rows of one chain's draw table, as a writer appends them.
struct DrawBlock {
  int chain = 0;            ///< 0-based
  int first_iteration = 0;  ///< 0-based, counting warmup
  int rows = 0;
  int columns = 0;
  std::vector<double> values;  ///< rows x columns, row-major
};

/// One chain's state besides its draws: warmup length, adaptation and last unconstrained
/// position (what NutsOptions::resume_from needs for "run more draws"), and its totals.
struct ChainRecord {
  int chain = 0;
  int warmup_iterations = 0;   ///< rows below this iteration are warmup
  std::optional<double> step_size;  ///< set once adapted
  std::string metric;               ///< "diag_e", "dense_e" or "lowrank_e" once adapted
  /// d values (diag_e), d*d row-major (dense_e), or EuclideanMetric's low-rank entries
  std::vector<double> inverse_metric;
  std::vector<double> last_position;   ///< unconstrained, after the last recorded draw
  double seconds_warmup = 0;
  double seconds_sampling = 0;
  int64_t gradient_evaluations = 0;
  bool ended = false;          ///< the chain reported its end
  bool stopped_early = false;  ///< it ended by a stop request
  int64_t rows = 0;            ///< rows stored, warmup included (filled when read; not written)
};

/// One chain's draws read back: a Stan CSV-like table, warmup rows first.
struct ChainDraws {
  int chain = 0;
  int warmup_iterations = 0;  ///< rows [0, min(warmup_iterations, rows)) are warmup
  std::vector<std::string> columns;
  size_t rows = 0;
  std::vector<double> values;  ///< rows x columns.size(), row-major

  double at(size_t row, size_t column) const { return values[row * columns.size() + column]; }
  /// Rows recorded after warmup.
  size_t sampling_rows() const;
  /// A column's values; post-warmup rows unless `with_warmup`.
  /// @throws ProjectError if there is no such column.
  std::vector<double> column(const std::string& name, bool with_warmup = false) const;
};

/// One ADVI iteration's objective, or one training step's (iteration = the step, elbo =
/// that step's batch ELBO per row, rel_change NaN).
struct ElboPoint {
  int iteration = 0;
  double elbo = 0;
  double rel_change = 0;  ///< NaN where undefined (the first evaluation)
};

/// One completed epoch of a training run.
struct EpochRecord {
  int epoch = 0;            ///< 1-based
  int64_t step = 0;         ///< steps done at its end
  double train_elbo = 0;    ///< mean per row; NaN is stored (as NULL) and reads back NaN
  std::optional<double> heldout_elbo;
  double seconds = 0;
  double rows_per_second = 0;
};

/// What a training run needs to continue after a stop or a crash: the networks' weights
/// and the optimizer's state (torch::serialize archives, opaque to the store).
struct CheckpointRecord {
  int64_t step = 0;         ///< steps done
  int epoch = 1;            ///< the epoch the next step belongs to
  int64_t epoch_step = 0;   ///< steps of that epoch already done
  std::string weights;      ///< binary
  std::string optimizer;    ///< binary
  double saved_at = 0;      ///< unix seconds (set by the store when written)
};

/// One replication of an SBC run, stored as it ends: a replication is stored once, so a
/// run continued after a crash fits only those it lacks.
struct SbcReplicationRecord {
  int replication = 0;  ///< from 0
  uint64_t seed = 0;
  /// Each quantity's rank (the run's columns' order) among the fit's thinned draws, 0 to
  /// max_rank; empty when the simulation or the fit failed.
  std::vector<int64_t> ranks;
  int64_t max_rank = 0;
  int64_t divergences = 0;
  double max_rhat = 0;
  std::string failure;  ///< why it failed; empty when it ran
};

/// Everything one commit writes for a run, in one transaction, with the run's heartbeat:
/// a checkpoint commits together with the ELBO points up to its step.
struct RunUpdate {
  std::vector<DrawBlock> blocks;
  std::vector<ChainRecord> chains;  ///< each replaces its chain's record
  std::vector<ElboPoint> elbo;
  // Initialized here so that the updates written as {blocks, chains, elbo} stay free of
  // -Wmissing-field-initializers.
  std::vector<EpochRecord> epochs = {};  ///< each replaces the run's record of that epoch
  /// Replaces one of the same step; the run keeps only its two highest-step checkpoints.
  std::optional<CheckpointRecord> checkpoint = std::nullopt;
};

}  // namespace variate::store
