// Opening project files: files that are not projects (empty, text, another program's
// database, truncated, corrupt), newer schemas and missing tables get a clear message and
// are left byte for byte as they were; version 1, 3 and 4 files are migrated with their
// records kept; runs left "running" by a dead writer are marked interrupted; a new
// project appears whole, also to two creators at once.

#include <atomic>
#include <csignal>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include <QtTest/QtTest>

#include "engine/store/project.h"
#include "engine/store/run_owner.h"

namespace store = variate::store;

namespace {

void exec_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const QString message = error ? QString(error) : QString();
  sqlite3_free(error);
  sqlite3_close(db);
  QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

int64_t query_int(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
  const int64_t value = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1;
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

QByteArray bytes_of(const std::string& path) {
  QFile file(QString::fromStdString(path));
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void write_bytes(const std::string& path, const QByteArray& bytes) {
  QFile file(QString::fromStdString(path));
  QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
  file.write(bytes);
}

// Opening `path` must fail with a message naming it and containing `expected`, and must
// leave the file's bytes unchanged.
void expect_refused(const std::string& path, const QString& expected) {
  const QByteArray before = bytes_of(path);
  try {
    store::Project project(path);
    QFAIL(qPrintable("opened " + QString::fromStdString(path)));
  } catch (const store::ProjectError& e) {
    const QString message = e.what();
    QVERIFY2(message.startsWith("project '" + QString::fromStdString(path) + "': "), e.what());
    QVERIFY2(message.contains(expected), e.what());
  }
  QVERIFY(bytes_of(path) == before);
}

// A project with one finished run of a few hundred rows (several pages), closed.
std::string make_project(const QTemporaryDir& directory, const char* name = "p.variate") {
  const std::string path = directory.filePath(name).toStdString();
  store::Project project(path, store::Project::OpenMode::create);
  store::RunSpec spec;
  spec.model_version_id = project.save_model("m", "mu ~ Normal(0, 1)\n").id;
  spec.columns = {"lp__", "mu"};
  const store::Id run = project.create_run(spec);
  store::DrawBlock block{0, 0, 2000, 2, std::vector<double>(4000, 1.5)};
  store::ChainRecord chain;
  project.write(run, {{block}, {chain}, {}});
  project.finish_run(run, store::RunStatus::finished);
  return path;
}

// Migration 1 as released: the schema of version 1 files, written out independently of
// the store's own copy so that a change to a released migration fails this test.
const char* const kVersion1Schema = R"sql(
CREATE TABLE models (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at REAL NOT NULL);
CREATE TABLE model_versions (id INTEGER PRIMARY KEY,
  model_id INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE, version INTEGER NOT NULL,
  text TEXT NOT NULL, created_at REAL NOT NULL, UNIQUE (model_id, version));
CREATE TABLE data_sets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, json_text TEXT NOT NULL,
  created_at REAL NOT NULL);
CREATE INDEX data_sets_by_name ON data_sets(name);
CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi')), config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id), seed INTEGER NOT NULL, columns_json TEXT NOT NULL,
  created_at REAL NOT NULL, started_at REAL, finished_at REAL, status TEXT NOT NULL
  CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '', seconds REAL NOT NULL DEFAULT 0, diagnostics_json TEXT);
CREATE TABLE chains (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  chain INTEGER NOT NULL CHECK (chain >= 0), warmup_iterations INTEGER NOT NULL, step_size REAL,
  metric TEXT NOT NULL DEFAULT '', inverse_metric BLOB NOT NULL, last_position BLOB NOT NULL,
  seconds_warmup REAL NOT NULL DEFAULT 0, seconds_sampling REAL NOT NULL DEFAULT 0,
  gradient_evaluations INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0,
  stopped_early INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, chain));
CREATE TABLE draw_blocks (run_id INTEGER NOT NULL, chain INTEGER NOT NULL,
  first_iteration INTEGER NOT NULL CHECK (first_iteration >= 0),
  row_count INTEGER NOT NULL CHECK (row_count > 0), column_count INTEGER NOT NULL CHECK (column_count > 0),
  draws BLOB NOT NULL CHECK (length(draws) = 8 * row_count * column_count),
  PRIMARY KEY (run_id, chain, first_iteration),
  FOREIGN KEY (run_id, chain) REFERENCES chains(run_id, chain) ON DELETE CASCADE);
CREATE TABLE elbo_trace (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  iteration INTEGER NOT NULL, elbo REAL, rel_change REAL, PRIMARY KEY (run_id, iteration));
PRAGMA application_id = 1448236101;
PRAGMA user_version = 1;
)sql";

// Two runs in a version 1 file: one finished with a draw row (mu = 2.5, lp__ = -1) and an
// ELBO point, one left running (version 1 did not record who wrote a run).
const char* const kVersion1Records = R"sql(
INSERT INTO models VALUES (1, 'm', 1000.0);
INSERT INTO model_versions VALUES (1, 1, 1, 'mu ~ Normal(0, 1)', 1000.0);
INSERT INTO data_sets VALUES (1, 'd', '{"N": 1}', 1000.0);
INSERT INTO runs (id, name, method, config_json, model_version_id, data_set_id, seed, columns_json,
  created_at, started_at, finished_at, status, seconds, diagnostics_json)
  VALUES (1, 'old', 'nuts', '{}', 1, 1, 7, '["lp__","mu"]', 1000.0, 1000.0, 1010.0, 'finished', 10.0, '{"x":1}');
INSERT INTO runs (id, name, method, config_json, model_version_id, seed, columns_json, created_at,
  started_at, status) VALUES (2, 'killed', 'nuts', '{}', 1, 8, '["lp__","mu"]', 1020.0, 1020.0, 'running');
INSERT INTO chains (run_id, chain, warmup_iterations, step_size, metric, inverse_metric, last_position)
  VALUES (1, 0, 0, 0.5, 'diag_e', X'000000000000F03F', X'');
INSERT INTO draw_blocks VALUES (1, 0, 0, 1, 2, X'000000000000F0BF0000000000000440');
INSERT INTO elbo_trace VALUES (1, 100, -3.5, 0.25);
)sql";

// Migrations 2 and 3 as released, applied to a version 1 file, and a version 3 record: a
// run owned by a process elsewhere whose heartbeat is in the future (it stays running).
const char* const kVersion3Migrations = R"sql(
ALTER TABLE runs ADD COLUMN owner_host TEXT;
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_start_time INTEGER;
ALTER TABLE runs ADD COLUMN heartbeat_at REAL;
ALTER TABLE model_versions ADD COLUMN canvas_layout_json TEXT NOT NULL DEFAULT '';
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
PRAGMA user_version = 3;
INSERT INTO settings VALUES ('studio.run_config', '{"chains": 2}');
INSERT INTO runs (id, name, method, config_json, model_version_id, seed, columns_json, created_at,
  started_at, status, owner_host, owner_pid, owner_start_time, heartbeat_at)
  VALUES (3, 'elsewhere', 'advi', '{}', 1, 9, '["lp__","mu"]', 1030.0, 1030.0, 'running',
  'another-host', 4242, 77, 1e12);
)sql";

// Migration 4 as released (runs rebuilt to allow 'amortized', the training tables), applied
// to a version 3 file, and a version 4 record: a training run with one epoch.
const char* const kVersion4Migration = R"sql(
CREATE TABLE runs_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('nuts', 'advi', 'amortized')), config_json TEXT NOT NULL,
  model_version_id INTEGER NOT NULL REFERENCES model_versions(id),
  data_set_id INTEGER REFERENCES data_sets(id), seed INTEGER NOT NULL, columns_json TEXT NOT NULL,
  created_at REAL NOT NULL, started_at REAL, finished_at REAL, status TEXT NOT NULL
  CHECK (status IN ('running', 'finished', 'stopped', 'interrupted', 'failed')),
  error_message TEXT NOT NULL DEFAULT '', seconds REAL NOT NULL DEFAULT 0, diagnostics_json TEXT,
  owner_host TEXT, owner_pid INTEGER, owner_start_time INTEGER, heartbeat_at REAL);
INSERT INTO runs_new (id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at)
SELECT id, name, method, config_json, model_version_id, data_set_id, seed,
  columns_json, created_at, started_at, finished_at, status, error_message, seconds,
  diagnostics_json, owner_host, owner_pid, owner_start_time, heartbeat_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE TABLE training_epochs (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  epoch INTEGER NOT NULL CHECK (epoch >= 1), step INTEGER NOT NULL CHECK (step >= 0), train_elbo REAL,
  heldout_elbo REAL, seconds REAL NOT NULL, rows_per_second REAL NOT NULL, PRIMARY KEY (run_id, epoch));
CREATE TABLE checkpoints (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL CHECK (step >= 0), epoch INTEGER NOT NULL CHECK (epoch >= 1),
  epoch_step INTEGER NOT NULL CHECK (epoch_step >= 0), saved_at REAL NOT NULL, weights BLOB NOT NULL,
  optimizer BLOB NOT NULL, PRIMARY KEY (run_id, step));
PRAGMA user_version = 4;
INSERT INTO runs (id, name, method, config_json, model_version_id, seed, columns_json, created_at,
  started_at, finished_at, status) VALUES (4, 'trained', 'amortized', '{}', 1, 10, '[]', 1040.0, 1040.0,
  1050.0, 'finished');
INSERT INTO training_epochs VALUES (4, 1, 100, -250.5, NULL, 2.0, 640.0);
)sql";

}  // namespace

class TestProjectFiles : public QObject {
  Q_OBJECT

 private slots:
  void aMissingFileIsNotCreatedUnlessAsked() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("none.variate").toStdString();
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::Project{path});
    QVERIFY(!QFile::exists(QString::fromStdString(path)));
    store::Project created(path, store::Project::OpenMode::create);
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    QCOMPARE(query_int(path, "PRAGMA application_id"), int64_t{0x56525445});
  }

  // A new project appears whole: a reader that finds the file opens it, and two
  // connections that create it at once both open the one project.
  void aNewProjectAppearsWhole() {
    QTemporaryDir directory;
    for (int i = 0; i < 20; ++i) {
      const QString file = directory.filePath(QString("new_%1.variate").arg(i));
      const std::string path = file.toStdString();
      std::atomic<bool> go{false};
      std::atomic<int> made{0};
      std::string errors[3];
      const auto create = [&](int k) {
        while (!go) std::this_thread::yield();
        try {
          store::Project project(path, store::Project::OpenMode::create);
        } catch (const std::exception& e) {
          errors[k] = e.what();
        }
        ++made;
      };
      std::thread first(create, 0), second(create, 1);
      std::thread watcher([&] {
        while (!go) std::this_thread::yield();
        while (!QFile::exists(file) && made < 2) std::this_thread::yield();
        try {
          store::Project project(path);
        } catch (const std::exception& e) {
          errors[2] = std::string("the watcher: ") + e.what();
        }
      });
      go = true;
      first.join();
      second.join();
      watcher.join();
      for (const std::string& error : errors) QVERIFY2(error.empty(), error.c_str());
    }
    QCOMPARE(QDir(directory.path()).entryList(QDir::Files | QDir::Hidden).filter(".new-"), QStringList());
  }

  // A process killed while making a project leaves its temporary (".NAME.new-PID-N" and
  // its log): the next process to make the project removes those of processes that are
  // gone, and leaves those of a live process, which may still be making one.
  void temporariesOfKilledProcessesAreRemoved() {
    QTemporaryDir directory;
    const pid_t dead = fork();  // a process that has ended, and whose pid is free
    if (dead == 0) _exit(0);
    QVERIFY(dead > 0);
    waitpid(dead, nullptr, 0);
    QProcess sleeper;  // alive while the project is made
    sleeper.start("sleep", {"30"});
    QVERIFY(sleeper.waitForStarted());
    const QString orphan = directory.filePath(QString(".p.variate.new-%1-0").arg(dead));
    const QString live = directory.filePath(QString(".p.variate.new-%1-0").arg(sleeper.processId()));
    const QString other = directory.filePath(QString(".q.variate.new-%1-0").arg(dead));  // another project's
    for (const QString& file : {orphan, orphan + "-wal", live, other}) write_bytes(file.toStdString(), "x");
    store::Project(directory.filePath("p.variate").toStdString(), store::Project::OpenMode::create);
    QVERIFY(!QFile::exists(orphan));
    QVERIFY(!QFile::exists(orphan + "-wal"));
    QVERIFY(QFile::exists(live));
    QVERIFY(QFile::exists(other));
    sleeper.kill();
    sleeper.waitForFinished();
  }

  void filesThatAreNotProjectsAreRefusedAndLeftAlone() {
    QTemporaryDir directory;
    const std::string empty = directory.filePath("empty.variate").toStdString();
    write_bytes(empty, "");
    expect_refused(empty, "empty");
    const std::string text = directory.filePath("notes.variate").toStdString();
    write_bytes(text, "data J: int\nThese are notes, not a project.\n");
    expect_refused(text, "not a SQLite database");
    const std::string binary = directory.filePath("image.variate").toStdString();
    write_bytes(binary, QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(4000, '\x07'));
    expect_refused(binary, "not a SQLite database");
    const std::string other = directory.filePath("other.variate").toStdString();
    exec_sql(other, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada');");
    expect_refused(other, "not a Variate project");
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::Project(directory.path().toStdString()));
  }

  void aTruncatedProjectIsRefusedAndLeftAlone() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    const QByteArray whole = bytes_of(path);
    QVERIFY2(whole.size() > 16384, qPrintable(QString::number(whole.size())));
    write_bytes(path, whole.left(whole.size() / 2));
    expect_refused(path, "truncated");
    write_bytes(path, whole.left(60));
    expect_refused(path, "truncated");
  }

  void aCorruptProjectGivesAClearErrorNotACrash() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    QByteArray bytes = bytes_of(path);
    const int page = 4096;
    for (int i = page; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7919) & 0xff);
    write_bytes(path, bytes);
    const QByteArray before = bytes_of(path);
    try {
      store::Project project(path);
      for (const auto& run : project.runs()) project.draws(run.id);
      QFAIL("every page after the first was garbage, and nothing noticed");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).startsWith("project '") && QString(e.what()).contains("corrupt"), e.what());
    }
    QVERIFY(bytes_of(path) == before);
  }

  // A row count whose product with the width overflows to the block's size (a file
  // edited by hand, or by fuzz_project; SQLite checks its CHECK constraint only on
  // writes) ends the table there, as a missing block does, instead of claiming 2^63 rows.
  void aDamagedRowCountEndsTheTable() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    exec_sql(path, "PRAGMA ignore_check_constraints = ON; "
                   "UPDATE draw_blocks SET row_count = -9223372036854773808");  // INT64_MIN + 2000
    const store::Project project(path);
    const store::ChainDraws table = project.chain_draws(project.runs().front().id, 0);
    QCOMPARE(table.rows, size_t{0});
    QVERIFY(table.values.empty());
  }

  void aNewerSchemaIsRefusedAndLeftAlone() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    exec_sql(path, "PRAGMA user_version = 99");
    expect_refused(path, "newer Variate (schema version 99; this build knows up to " +
                             QString::number(store::Project::schema_version()));
  }

  void aMissingTableIsNamedAndTheFileLeftAlone() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    exec_sql(path, "DROP TABLE elbo_trace");
    expect_refused(path, "missing table 'elbo_trace'");
  }

  void aVersion1FileIsMigratedWithEveryRecordKept() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("v1.variate").toStdString();
    exec_sql(path, std::string(kVersion1Schema) + kVersion1Records);
    {
      store::Project project(path);
      QCOMPARE(project.model_version(1).text, std::string("mu ~ Normal(0, 1)"));
      QCOMPARE(project.model_version(1).canvas_layout_json, std::string());
      QCOMPARE(project.data_set(1).json_text, std::string(R"({"N": 1})"));
      const auto runs = project.runs();
      QCOMPARE(runs.size(), size_t{2});
      QCOMPARE(runs[0].status, store::RunStatus::finished);
      QCOMPARE(runs[0].seed, uint64_t{7});
      QCOMPARE(*project.diagnostics_json(1), std::string(R"({"x":1})"));
      const auto draws = project.chain_draws(1, 0);
      QCOMPARE(draws.rows, size_t{1});
      QCOMPARE(draws.at(0, 0), -1.0);
      QCOMPARE(draws.at(0, 1), 2.5);
      QCOMPARE(*project.chains(1)[0].step_size, 0.5);
      QVERIFY((project.chains(1)[0].inverse_metric == std::vector<double>{1.0}));
      QCOMPARE(project.elbo_trace(1)[0].elbo, -3.5);
      // Its writer unknown and no heartbeat: the running run is reported interrupted.
      QCOMPARE(runs[1].status, store::RunStatus::interrupted);
      QVERIFY(project.interrupted_at_open() == std::vector<store::Id>{2});
      // The migrated file takes the new columns.
      project.set_canvas_layout(1, R"({"nodes": []})");
      project.set_setting("studio.run_config", "{}");
      store::RunSpec spec;
      spec.model_version_id = 1;
      spec.columns = {"lp__", "mu"};
      project.create_run(spec);
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM runs WHERE owner_pid IS NOT NULL"), int64_t{1});
  }

  void aVersion3FileIsMigratedAndGainsTheTrainingTables() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("v3.variate").toStdString();
    exec_sql(path, std::string(kVersion1Schema) + kVersion1Records + kVersion3Migrations);
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{3});
    {
      store::Project project(path);
      // Every record kept, the rebuilt runs table's owner columns included.
      const auto runs = project.runs();
      QCOMPARE(runs.size(), size_t{3});
      QCOMPARE(runs[0].name, std::string("old"));
      QCOMPARE(*project.diagnostics_json(1), std::string(R"({"x":1})"));
      QCOMPARE(project.chain_draws(1, 0).at(0, 1), 2.5);
      QCOMPARE(project.elbo_trace(1)[0].elbo, -3.5);
      QCOMPARE(runs[2].method, store::RunMethod::advi);
      QCOMPARE(runs[2].status, store::RunStatus::running);
      QCOMPARE(project.setting("studio.run_config").value_or(""), std::string(R"({"chains": 2})"));
      // A training run with its epochs and a checkpoint fits the migrated file.
      store::RunSpec spec;
      spec.method = store::RunMethod::amortized;
      spec.model_version_id = 1;
      const store::Id training = project.create_run(spec);
      store::RunUpdate update;
      update.elbo = {{1, -200.0, std::nan("")}};
      update.epochs = {{1, 1, -200.0, std::nullopt, 1.0, 128.0}};
      update.checkpoint = store::CheckpointRecord{1, 2, 0, std::string("w\0w", 3), std::string(1, '\0'), 0};
      project.write(training, update);
      QCOMPARE(project.training_epochs(training).size(), size_t{1});
      QCOMPARE(project.latest_checkpoint(training)->weights, std::string("w\0w", 3));
      QCOMPARE(project.run(training).method, store::RunMethod::amortized);
      // The children of the rebuilt runs table still cascade from it.
      project.delete_run(1);
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    QCOMPARE(query_int(path, "SELECT owner_pid FROM runs WHERE id = 3"), int64_t{4242});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM chains WHERE run_id = 1"), int64_t{0});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM draw_blocks WHERE run_id = 1"), int64_t{0});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM elbo_trace WHERE run_id = 1"), int64_t{0});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM pragma_foreign_key_check"), int64_t{0});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'runs_new'"), int64_t{0});
    // The rebuilt table keeps its checks, the new method among the allowed ones.
    QCOMPARE(query_int(path, "SELECT instr(sql, '''amortized''') > 0 AND instr(sql, '''interrupted''') > 0 "
                             "FROM sqlite_master WHERE name = 'runs'"),
             int64_t{1});
  }

  // Version 5 rebuilt runs again, for the methods of the studio's optimize and Pathfinder
  // runs: a version 4 file keeps every record, training epochs included, and takes them.
  void aVersion4FileIsMigratedAndTakesOptimizeAndPathfinderRuns() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("v4.variate").toStdString();
    exec_sql(path, std::string(kVersion1Schema) + kVersion1Records + kVersion3Migrations + kVersion4Migration);
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{4});
    // A version 4 file cannot hold the new methods: the migration is what lets it.
    QCOMPARE(query_int(path, "SELECT instr(sql, '''pathfinder''') FROM sqlite_master WHERE name = 'runs'"), int64_t{0});
    {
      store::Project project(path);
      const auto runs = project.runs();
      QCOMPARE(runs.size(), size_t{4});
      QCOMPARE(runs[0].name, std::string("old"));
      QCOMPARE(*project.diagnostics_json(1), std::string(R"({"x":1})"));
      QCOMPARE(project.chain_draws(1, 0).at(0, 1), 2.5);
      QCOMPARE(project.elbo_trace(1)[0].elbo, -3.5);
      QCOMPARE(runs[2].method, store::RunMethod::advi);
      QCOMPARE(runs[3].method, store::RunMethod::amortized);
      QCOMPARE(project.training_epochs(4).size(), size_t{1});
      QCOMPARE(project.training_epochs(4)[0].train_elbo, -250.5);
      for (const store::RunMethod method : {store::RunMethod::optimize, store::RunMethod::pathfinder}) {
        store::RunSpec spec;
        spec.method = method;
        spec.model_version_id = 1;
        spec.columns = {"lp__", "log_p__", "log_g__", "mu"};
        const store::Id run = project.create_run(spec);
        store::DrawBlock block{0, 0, 1, 4, {0, -1.25, -1.5, 0.5}};
        project.write(run, {{block}, {store::ChainRecord{}}, {}});
        project.finish_run(run, store::RunStatus::finished);
      }
    }
    {
      const store::Project reopened(path);
      const auto runs = reopened.runs();
      QCOMPARE(runs.size(), size_t{6});
      QCOMPARE(runs[4].method, store::RunMethod::optimize);
      QCOMPARE(runs[5].method, store::RunMethod::pathfinder);
      QCOMPARE(reopened.chain_draws(runs[5].id, 0).at(0, 1), -1.25);
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    QCOMPARE(query_int(path, "SELECT owner_pid FROM runs WHERE id = 3"), int64_t{4242});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM pragma_foreign_key_check"), int64_t{0});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'runs_new'"), int64_t{0});
    // The rebuilt table still checks its values: an unknown method is refused.
    QCOMPARE(query_int(path, "SELECT instr(sql, '''interrupted''') > 0 AND instr(sql, '''optimize''') > 0 "
                             "FROM sqlite_master WHERE name = 'runs'"),
             int64_t{1});
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const int rc = sqlite3_exec(db, "UPDATE runs SET method = 'gibbs' WHERE id = 1", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_CONSTRAINT);
  }

  // Version 6 adds a run's PSIS-LOO document: a version 5 file keeps its runs, which have
  // none, and takes one that survives reopening.
  void aVersion5FileIsMigratedAndStoresARunsLoo() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    exec_sql(path, "DROP TABLE sbc_replications; ALTER TABLE runs DROP COLUMN loo_json; PRAGMA user_version = 5;");
    {
      store::Project project(path);
      const auto runs = project.runs();
      QCOMPARE(runs.size(), size_t{1});
      QVERIFY(!project.loo_json(runs[0].id));
      project.set_loo(runs[0].id, R"({"elpd_loo": -30.5})");
      QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.set_loo(runs[0].id + 100, "{}"));
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    const store::Project reopened(path);
    QCOMPARE(reopened.loo_json(reopened.runs()[0].id).value_or(""), std::string(R"({"elpd_loo": -30.5})"));
  }

  // Version 7 adds SBC runs and their replications: a version 6 file (runs without 'sbc'
  // in their CHECK, no replications table) keeps its runs and takes an SBC run.
  void aVersion6FileIsMigratedAndTakesSbcRuns() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    exec_sql(path, "DROP TABLE sbc_replications; PRAGMA user_version = 6;");
    {
      store::Project project(path);
      QCOMPARE(project.runs().size(), size_t{1});
      QCOMPARE(project.chain_draws(1, 0).at(1999, 1), 1.5);
      store::RunSpec spec;
      spec.method = store::RunMethod::sbc;
      spec.model_version_id = 1;
      spec.columns = {"mu"};
      const store::Id run = project.create_run(spec);
      project.write_sbc_replication(run, {0, 7, {3}, 10, 0, 1.001, ""});
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{store::Project::schema_version()});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM sbc_replications"), int64_t{1});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM pragma_foreign_key_check"), int64_t{0});
  }

  void aFailedMigrationLeavesTheFileAtItsVersion() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("v1.variate").toStdString();
    // A version 1 file that somehow has a column migration 2 adds: the migration fails.
    exec_sql(path, std::string(kVersion1Schema) + kVersion1Records + "ALTER TABLE runs ADD COLUMN heartbeat_at REAL;");
    const QByteArray before = bytes_of(path);
    try {
      store::Project project(path);
      QFAIL("the migration should have failed");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("migrating to schema version 2 failed"), e.what());
    }
    QCOMPARE(query_int(path, "PRAGMA user_version"), int64_t{1});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM runs"), int64_t{2});
    QCOMPARE(query_int(path, "SELECT COUNT(*) FROM pragma_table_info('model_versions') WHERE name = 'canvas_layout_json'"),
             int64_t{0});
    QVERIFY(bytes_of(path) == before);
  }

  void aRunWhoseWriterWasKilledIsMarkedInterrupted() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    const pid_t child = fork();
    if (child == 0) {
      // The child writes one block of a run and dies without a chance to clean up.
      store::Project project(path);
      store::RunSpec spec;
      spec.model_version_id = 1;
      spec.columns = {"lp__", "mu"};
      const store::Id run = project.create_run(spec);
      project.write(run, {{{0, 0, 3, 2, {1, 2, 3, 4, 5, 6}}}, {store::ChainRecord{}}, {}});
      raise(SIGKILL);
      _exit(0);
    }
    int status = 0;
    QCOMPARE(waitpid(child, &status, 0), child);
    QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    store::Project project(path);
    QCOMPARE(project.interrupted_at_open().size(), size_t{1});
    const store::RunInfo run = project.run(project.interrupted_at_open()[0]);
    QCOMPARE(run.status, store::RunStatus::interrupted);
    QVERIFY2(QString::fromStdString(run.error_message).contains("process " + QString::number(child)),
             run.error_message.c_str());
    QVERIFY(run.finished_at.has_value());
    QCOMPARE(project.chain_draws(run.id, 0).rows, size_t{3});
    QCOMPARE(project.chain_draws(run.id, 0).at(2, 1), 6.0);
    // Already marked: the next open finds nothing to do.
    QVERIFY(store::Project(path).interrupted_at_open().empty());
  }

  void aRunOfALiveWriterStaysRunning() {
    QTemporaryDir directory;
    const std::string path = make_project(directory);
    store::Project writer(path);
    store::RunSpec spec;
    spec.model_version_id = 1;
    spec.columns = {"lp__", "mu"};
    const store::Id live = writer.create_run(spec);
    const store::Id elsewhere_fresh = writer.create_run(spec);
    const store::Id elsewhere_stale = writer.create_run(spec);
    const store::Id reused_pid = writer.create_run(spec);
    const double now = store::unix_seconds_now();
    exec_sql(path, "UPDATE runs SET owner_host = 'another-host', heartbeat_at = " + std::to_string(now + 60) +
                       " WHERE id = " + std::to_string(elsewhere_fresh));
    exec_sql(path, "UPDATE runs SET owner_host = 'another-host', heartbeat_at = " + std::to_string(now - 60) +
                       " WHERE id = " + std::to_string(elsewhere_stale));
    // This pid, but another start time: a process that reused a dead writer's pid.
    exec_sql(path, "UPDATE runs SET owner_start_time = owner_start_time + 12345 WHERE id = " + std::to_string(reused_pid));
    store::Project reader(path);
    QCOMPARE(reader.run(live).status, store::RunStatus::running);
    QCOMPARE(reader.run(elsewhere_fresh).status, store::RunStatus::running);
    QCOMPARE(reader.run(elsewhere_stale).status, store::RunStatus::interrupted);
    QCOMPARE(reader.run(reused_pid).status, store::RunStatus::interrupted);
    QCOMPARE(reader.interrupted_at_open().size(), size_t{2});
  }
};

QTEST_APPLESS_MAIN(TestProjectFiles)
#include "tst_project_files.moc"
