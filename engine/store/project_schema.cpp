#include "engine/store/project_schema.h"

#include "engine/store/database.h"

namespace variate::store {
namespace {

// Migration i (1-based) brings a file from version i - 1 to version i; version 0 is an
// empty database. Released migrations never change: a new schema adds one at the end.
const char* const kMigrations[] = {
    // 1: models with versions, data sets, runs, per-chain records, draw blocks, ELBO.
    R"sql(
CREATE TABLE models (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at REAL NOT NULL);
CREATE TABLE model_versions (
  id INTEGER PRIMARY KEY,
  model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  text TEXT NOT NULL,
  created_at REAL NOT NULL,
  UNIQUE (model_id, version));
CREATE TABLE data_sets (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  json_text TEXT NOT NULL,
  created_at REAL NOT NULL);
CREATE INDEX data_sets_by_name ON data_sets(name);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi')),
  config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id),
  seed INTEGER NOT NULL,
  columns_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  finished_at REAL,
  status TEXT NOT NULL
    CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '',
  seconds REAL NOT NULL DEFAULT 0,
  diagnostics_json TEXT);
CREATE TABLE chains (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  chain INTEGER NOT NULL CHECK (chain >= 0),
  warmup_iterations INTEGER NOT NULL,
  step_size REAL,
  metric TEXT NOT NULL DEFAULT '',
  inverse_metric BLOB NOT NULL,
  last_position BLOB NOT NULL,
  seconds_warmup REAL NOT NULL DEFAULT 0,
  seconds_sampling REAL NOT NULL DEFAULT 0,
  gradient_evaluations INTEGER NOT NULL DEFAULT 0,
  ended INTEGER NOT NULL DEFAULT 0,
  stopped_early INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, chain));
CREATE TABLE draw_blocks (
  run_id INTEGER NOT NULL,
  chain INTEGER NOT NULL,
  first_iteration INTEGER NOT NULL CHECK (first_iteration >= 0),
  row_count INTEGER NOT NULL CHECK (row_count > 0),
  column_count INTEGER NOT NULL CHECK (column_count > 0),
  draws BLOB NOT NULL CHECK (length(draws) = 8 * row_count * column_count),
  PRIMARY KEY (run_id, chain, first_iteration),
  FOREIGN KEY (run_id, chain) REFERENCES chains(run_id, chain) ON DELETE CASCADE);
CREATE TABLE elbo_trace (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  iteration INTEGER NOT NULL,
  elbo REAL,
  rel_change REAL,
  PRIMARY KEY (run_id, iteration));
)sql",
    // 2: who writes a running run (crash detection), and a canvas layout per model version.
    R"sql(
ALTER TABLE runs ADD COLUMN owner_host TEXT;
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_start_time INTEGER;
ALTER TABLE runs ADD COLUMN heartbeat_at REAL;
ALTER TABLE model_versions ADD COLUMN canvas_layout_json TEXT NOT NULL DEFAULT '';
)sql",
    // 3: the project's own settings (the studio's run configuration travels with the file).
    R"sql(
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL);
)sql",
    // 4: training runs (method 'amortized') with their epochs and checkpoints. SQLite cannot
    // change a CHECK constraint in place, so runs is rebuilt (sqlite.org/lang_altertable.html,
    // "other kinds of table schema changes"): ids are copied, so the rows of chains and
    // elbo_trace still point at their runs; foreign keys are off while migrating, so the
    // DROP deletes no child rows.
    R"sql(
CREATE TABLE runs_new (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi', 'amortized')),
  config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id),
  seed INTEGER NOT NULL,
  columns_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  finished_at REAL,
  status TEXT NOT NULL
    CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '',
  seconds REAL NOT NULL DEFAULT 0,
  diagnostics_json TEXT,
  owner_host TEXT,
  owner_pid INTEGER,
  owner_start_time INTEGER,
  heartbeat_at REAL);
INSERT INTO runs_new (id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at)
SELECT id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
-- train_elbo NULL: a diverged epoch's NaN.
CREATE TABLE training_epochs (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  epoch INTEGER NOT NULL CHECK (epoch >= 1),
  step INTEGER NOT NULL CHECK (step >= 0),
  train_elbo REAL,
  heldout_elbo REAL,
  seconds REAL NOT NULL,
  rows_per_second REAL NOT NULL,
  PRIMARY KEY (run_id, epoch));
CREATE TABLE checkpoints (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL CHECK (step >= 0),
  epoch INTEGER NOT NULL CHECK (epoch >= 1),
  epoch_step INTEGER NOT NULL CHECK (epoch_step >= 0),
  saved_at REAL NOT NULL,
  weights BLOB NOT NULL,
  optimizer BLOB NOT NULL,
  PRIMARY KEY (run_id, step));
)sql",
    // 5: runs of the mode by L-BFGS with its Laplace draws (method 'optimize') and of
    // Pathfinder ('pathfinder'). runs is rebuilt as in 4, for the same reason; the
    // approximation's k-hat goes with the run's diagnostics document, no column.
    R"sql(
CREATE TABLE runs_new (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi', 'amortized', 'optimize', 'pathfinder')),
  config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id),
  seed INTEGER NOT NULL,
  columns_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  finished_at REAL,
  status TEXT NOT NULL
    CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '',
  seconds REAL NOT NULL DEFAULT 0,
  diagnostics_json TEXT,
  owner_host TEXT,
  owner_pid INTEGER,
  owner_start_time INTEGER,
  heartbeat_at REAL);
INSERT INTO runs_new (id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at)
SELECT id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
)sql",
    // 6: a run's PSIS-LOO (`variate loo --project`), a JSON document beside its diagnostics.
    R"sql(
ALTER TABLE runs ADD COLUMN loo_json TEXT;
)sql",
    // 7: simulation-based calibration runs (method 'sbc'), one row per replication as it
    // ends (its ranks as 64-bit integers); runs is rebuilt as in 4.
    R"sql(
CREATE TABLE runs_new (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi', 'amortized', 'optimize', 'pathfinder', 'sbc')),
  config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id),
  seed INTEGER NOT NULL,
  columns_json TEXT NOT NULL,
  created_at REAL NOT NULL,
  started_at REAL,
  finished_at REAL,
  status TEXT NOT NULL
    CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '',
  seconds REAL NOT NULL DEFAULT 0,
  diagnostics_json TEXT,
  owner_host TEXT,
  owner_pid INTEGER,
  owner_start_time INTEGER,
  heartbeat_at REAL,
  loo_json TEXT);
INSERT INTO runs_new (id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at, loo_json)
SELECT id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at, loo_json FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE TABLE sbc_replications (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  replication INTEGER NOT NULL CHECK (replication >= 0),
  seed INTEGER NOT NULL,
  max_rank INTEGER NOT NULL CHECK (max_rank >= 0),
  divergences INTEGER NOT NULL,
  max_rhat REAL NOT NULL,
  failure TEXT NOT NULL,
  ranks BLOB NOT NULL CHECK (length(ranks) % 8 = 0),
  PRIMARY KEY (run_id, replication));
)sql",
};

constexpr int kMigrationCount = sizeof(kMigrations) / sizeof(kMigrations[0]);

void apply_migrations(Database& db, int from_version) {
  // A migration may rebuild a parent table (4 does runs): with foreign keys on, its DROP
  // would cascade into the children. The pragma is a no-op inside a transaction, hence
  // here; Project turns them on once the schema is current.
  db.exec("PRAGMA foreign_keys = OFF");
  Transaction transaction(db);
  for (int version = from_version + 1; version <= kMigrationCount; ++version) {
    try {
      db.exec(kMigrations[version - 1]);
    } catch (const ProjectError& e) {
      db.fail_plain("migrating to schema version " + std::to_string(version) + " failed (the file is unchanged): " + e.what());
    }
  }
  db.exec("PRAGMA application_id = " + std::to_string(kProjectApplicationId));
  db.exec("PRAGMA user_version = " + std::to_string(kMigrationCount));
  transaction.commit();
}

}  // namespace

int current_schema_version() { return kMigrationCount; }

std::vector<std::string> schema_tables(int version) {
  std::vector<std::string> tables;
  if (version >= 1) {
    tables = {"models", "model_versions", "data_sets", "runs", "chains", "draw_blocks", "elbo_trace"};
  }
  if (version >= 3) tables.push_back("settings");
  if (version >= 4) {
    tables.push_back("training_epochs");
    tables.push_back("checkpoints");
  }
  if (version >= 7) tables.push_back("sbc_replications");
  return tables;
}

void create_schema(Database& db) { apply_migrations(db, 0); }

void migrate_schema(Database& db, int from_version) {
  if (from_version < 1 || from_version >= kMigrationCount) {
    db.fail_plain("cannot migrate from schema version " + std::to_string(from_version));
  }
  apply_migrations(db, from_version);
}

}  // namespace variate::store
