#include "engine/store/project.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "engine/store/database.h"
#include "engine/store/project_schema.h"
#include "engine/store/run_owner.h"

namespace variate::store {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ProjectError("project '" + path + "': " + what);
}

uint32_t big_endian(const unsigned char* bytes) {
  return (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) | (uint32_t(bytes[2]) << 8) | bytes[3];
}

// Reads only the 100-byte SQLite header (https://www.sqlite.org/fileformat.html), so a
// file that is no database, or a truncated one, is rejected before SQLite reads it. The
// bytes come through the connection's own file handle (Database::read_start): opening
// and closing the file any other way would drop the locks this process holds on it.
void check_file_header(Database& db, const std::string& path) {
  int64_t size = 0;
  const std::string start = db.read_start(100, &size);
  if (size == 0) fail(path, "the file is empty, not a Variate project");
  const auto* header = reinterpret_cast<const unsigned char*>(start.data());
  static const char kMagic[] = "SQLite format 3";  // with its '\0', 16 bytes
  if (start.size() < 16 || std::memcmp(header, kMagic, 16) != 0) {
    fail(path, "not a SQLite database, so not a Variate project (it does not start with the "
               "SQLite header)");
  }
  if (start.size() < 100) fail(path, "the file is truncated (" + std::to_string(size) + " bytes)");
  const uint32_t page_size = header[16] == 0 && header[17] == 1 ? 65536u : (header[16] << 8 | header[17]);
  const uint32_t pages = big_endian(header + 28);
  const bool pages_valid = big_endian(header + 24) == big_endian(header + 92) && pages > 0;
  // With a write-ahead log beside it the file may legitimately lag its header until the
  // log is checkpointed, so only a file without one is measured.
  std::error_code error;
  const bool has_wal = fs::exists(path + "-wal", error) && fs::file_size(path + "-wal", error) > 0;
  if (pages_valid && !has_wal && uint64_t(page_size) * pages > uint64_t(size)) {
    fail(path, "the file is truncated: its header says " + std::to_string(uint64_t(page_size) * pages) +
                   " bytes, it has " + std::to_string(size));
  }
}

// Temporaries of create_project_file left by processes that were killed while making
// `target` (".NAME.new-PID-N" and its log): removed once their process is gone. A live
// process with that pid may still be making one, so its files stay.
void remove_orphaned_temporaries(const fs::path& target) {
  const std::string prefix = "." + target.filename().string() + ".new-";
  std::error_code error;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());  // "PID-N", maybe with -wal or -shm
    char* after = nullptr;
    const long pid = std::strtol(rest.c_str(), &after, 10);
    if (pid <= 0 || after == rest.c_str() || *after != '-') continue;
    if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove(it->path(), ignored);
  }
}

// A new project appears whole or not at all: it is made under a temporary name beside
// `path` and linked into place, so a process killed while making it leaves no empty or
// half-made project behind, and of two processes making one at once, one makes it and
// the other opens that one.
void create_project_file(const std::string& path) {
  static std::atomic<int> counter{0};
  const fs::path target(path);
  const std::string temporary = (target.parent_path() / ("." + target.filename().string() + ".new-" +
                                                         std::to_string(getpid()) + "-" + std::to_string(counter++)))
                                    .string();
  const auto remove_temporary = [&temporary] {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(temporary + suffix, ignored);
  };
  remove_temporary();  // left by a killed process that had this pid
  remove_orphaned_temporaries(target);
  try {
    Database db(temporary, true, path);
    db.exec("PRAGMA journal_mode = WAL");
    create_schema(db);
  } catch (...) {  // closing the connection checkpoints and removes its log
    remove_temporary();
    throw;
  }
  // link() never replaces a file; where the file system has no hard links, a rename that
  // does not replace either.
  int failed = link(temporary.c_str(), path.c_str()) == 0 ? 0 : errno;
  if (failed != 0 && failed != EEXIST) {
    failed = renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0 ? 0 : errno;
  }
  remove_temporary();
  if (failed != 0 && failed != EEXIST) fail(path, std::string("cannot create the file: ") + std::strerror(failed));
}

void check_tables(Database& db, int version) {
  Statement statement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  for (const auto& table : schema_tables(version)) {
    statement.reset();
    statement.bind(1, table);
    if (!statement.step()) {
      db.fail_plain("missing table '" + table + "' (the file is damaged or not a Variate project)");
    }
  }
}

ModelVersion read_version(Statement& s) {
  // Columns: id, model_id, name, version, text, canvas_layout_json, created_at.
  ModelVersion v;
  v.id = s.read_int(0);
  v.model_id = s.read_int(1);
  v.model_name = s.read_text(2);
  v.version = static_cast<int>(s.read_int(3));
  v.text = s.read_text(4);
  v.canvas_layout_json = s.read_text(5);
  v.created_at = s.read_double(6);
  return v;
}

const char* const kVersionColumns =
    "SELECT v.id, v.model_id, m.name, v.version, v.text, v.canvas_layout_json, v.created_at "
    "FROM model_versions v JOIN models m ON m.id = v.model_id ";

DataSet read_data_set(Statement& s) {
  return {s.read_int(0), s.read_text(1), s.read_text(2), s.read_double(3)};
}

}  // namespace

Project::Project(const std::string& path, OpenMode mode) : path_(path) {
  std::error_code error;
  const bool exists = fs::exists(path, error);
  if (!exists && mode == OpenMode::existing) fail(path, "no such file");
  if (exists && fs::is_directory(path, error)) fail(path, "is a folder, not a project file");
  if (!exists) create_project_file(path);
  db_ = std::make_unique<Database>(path, false);  // opening reads and writes nothing yet
  check_file_header(*db_, path);
  // Read-only checks first: a file that fails them is left exactly as it was.
  const int64_t application = db_->query_int("PRAGMA application_id");
  const int64_t version = db_->query_int("PRAGMA user_version");
  if (application != kProjectApplicationId) {
    db_->fail_plain("a SQLite database, but not a Variate project (its application id is " +
                    std::to_string(application) + ")");
  }
  if (version > current_schema_version()) {
    db_->fail_plain("written by a newer Variate (schema version " + std::to_string(version) +
                    "; this build knows up to " + std::to_string(current_schema_version()) +
                    "): open it with a newer Variate");
  }
  if (version < 1) db_->fail_plain("schema version " + std::to_string(version) + " (the file is damaged)");
  check_tables(*db_, static_cast<int>(version));
  // Migrated before WAL is switched on: a migration that fails leaves the file as it was.
  if (version < current_schema_version()) migrate_schema(*db_, static_cast<int>(version));
  db_->exec("PRAGMA journal_mode = WAL");
  db_->exec("PRAGMA foreign_keys = ON");
  // In WAL mode NORMAL keeps every commit across a process crash; only a power loss may
  // drop the last ones.
  db_->exec("PRAGMA synchronous = NORMAL");
  interrupted_at_open_ = mark_abandoned_runs_interrupted();
}

Project::~Project() = default;
Project::Project(Project&&) noexcept = default;
Project& Project::operator=(Project&&) noexcept = default;

int Project::schema_version() { return current_schema_version(); }

void Project::copy_to(const std::string& path) const {
  std::error_code error;
  if (fs::exists(path, error)) fail(path, "cannot copy the project there: the file exists");
  try {
    Statement copy(*db_, "VACUUM INTO ?");
    copy.bind(1, path).run();
  } catch (const ProjectError&) {
    fs::remove(path, error);
    throw;
  }
}

std::vector<Id> Project::mark_abandoned_runs_interrupted(double stale_seconds) {
  const RunOwner self = current_run_owner();
  const double now = unix_seconds_now();
  auto abandoned = [&](Statement& s) {
    RunOwner owner{s.read_text(1), s.read_optional_int(2).value_or(0), s.read_optional_int(3).value_or(0)};
    const std::optional<double> heartbeat = s.read_optional_double(4);
    if (s.is_null(1)) return !heartbeat || now - *heartbeat > stale_seconds;  // no owner recorded
    if (owner.host == self.host) return !run_owner_alive(owner);
    return !heartbeat || now - *heartbeat > stale_seconds;
  };
  const char* const select =
      "SELECT id, owner_host, owner_pid, owner_start_time, heartbeat_at FROM runs WHERE status = 'running'";
  bool any = false;
  {
    Statement s(*db_, select);
    while (s.step() && !any) any = abandoned(s);
  }
  std::vector<Id> marked;
  if (!any) return marked;  // no write at all on an ordinary open
  Transaction transaction(*db_);
  Statement s(*db_, select);
  Statement update(*db_,
                   "UPDATE runs SET status = 'interrupted', error_message = ?, "
                   "finished_at = COALESCE(heartbeat_at, started_at), "
                   "seconds = MAX(0, COALESCE(heartbeat_at - started_at, seconds)) WHERE id = ?");
  while (s.step()) {
    if (!abandoned(s)) continue;
    const std::string who = s.is_null(1) ? std::string("its writer")
                                         : "process " + std::to_string(s.read_int(2)) + " on " + s.read_text(1);
    update.reset();
    update.bind(1, "interrupted: " + who + " ended before the run finished").bind(2, s.read_int(0)).run();
    marked.push_back(s.read_int(0));
  }
  transaction.commit();
  return marked;
}

ModelVersion Project::save_model(const std::string& name, const std::string& text) {
  if (name.empty()) db_->fail_plain("a model needs a name");
  Transaction transaction(*db_);
  const double now = unix_seconds_now();
  Statement insert_model(*db_, "INSERT INTO models (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING");
  insert_model.bind(1, name).bind(2, now).run();
  if (auto latest = latest_model_version(name); latest && latest->text == text) return *latest;
  Statement insert(*db_,
                   "INSERT INTO model_versions (model_id, version, text, created_at) "
                   "SELECT id, (SELECT COALESCE(MAX(version), 0) + 1 FROM model_versions WHERE model_id = models.id), ?, ? "
                   "FROM models WHERE name = ?");
  insert.bind(1, text).bind(2, now).bind(3, name).run();
  const Id id = db_->last_insert_id();
  transaction.commit();
  return model_version(id);
}

std::vector<ModelInfo> Project::models() const {
  Statement s(*db_,
              "SELECT m.id, m.name, v.version, v.id, m.created_at FROM models m "
              "JOIN model_versions v ON v.model_id = m.id "
              "WHERE v.version = (SELECT MAX(version) FROM model_versions WHERE model_id = m.id) "
              "ORDER BY m.name");
  std::vector<ModelInfo> models;
  while (s.step()) {
    models.push_back({s.read_int(0), s.read_text(1), static_cast<int>(s.read_int(2)), s.read_int(3), s.read_double(4)});
  }
  return models;
}

ModelVersion Project::model_version(Id version_id) const {
  Statement s(*db_, (std::string(kVersionColumns) + "WHERE v.id = ?").c_str());
  s.bind(1, version_id);
  if (!s.step()) db_->fail_plain("no model version with id " + std::to_string(version_id));
  return read_version(s);
}

std::vector<ModelVersion> Project::model_versions(const std::string& name) const {
  Statement s(*db_, (std::string(kVersionColumns) + "WHERE m.name = ? ORDER BY v.version").c_str());
  s.bind(1, name);
  std::vector<ModelVersion> versions;
  while (s.step()) versions.push_back(read_version(s));
  return versions;
}

std::optional<ModelVersion> Project::latest_model_version(const std::string& name) const {
  Statement s(*db_, (std::string(kVersionColumns) + "WHERE m.name = ? ORDER BY v.version DESC LIMIT 1").c_str());
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return read_version(s);
}

std::optional<ModelVersion> Project::latest_model_version() const {
  Statement s(*db_, (std::string(kVersionColumns) + "ORDER BY v.id DESC LIMIT 1").c_str());
  if (!s.step()) return std::nullopt;
  return read_version(s);
}

void Project::set_canvas_layout(Id version_id, const std::string& layout_json) {
  Transaction transaction(*db_);
  Statement s(*db_, "UPDATE model_versions SET canvas_layout_json = ? WHERE id = ?");
  s.bind(1, layout_json).bind(2, version_id).run();
  if (db_->changes() == 0) db_->fail_plain("no model version with id " + std::to_string(version_id));
  transaction.commit();
}

std::optional<std::string> Project::setting(const std::string& key) const {
  Statement s(*db_, "SELECT value FROM settings WHERE key = ?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return s.read_text(0);
}

void Project::set_setting(const std::string& key, const std::string& value) {
  if (key.empty()) db_->fail_plain("a setting needs a key");
  Transaction transaction(*db_);
  Statement s(*db_, "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  s.bind(1, key).bind(2, value).run();
  transaction.commit();
}

DataSet Project::save_data_set(const std::string& name, const std::string& json_text) {
  if (name.empty()) db_->fail_plain("a data set needs a name");
  if (static_cast<int64_t>(json_text.size()) > max_data_set_bytes()) {
    db_->fail_plain("data set '" + name + "': " + std::to_string(json_text.size()) +
                    " bytes of JSON; a project stores a data set of at most " +
                    std::to_string(max_data_set_bytes()) + " bytes (SQLite's limit on one value)");
  }
  // Checked without building the document, which would take ten times the text.
  const size_t first = json_text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || json_text[first] != '{' || !nlohmann::json::accept(json_text)) {
    db_->fail_plain("data set '" + name + "': not a JSON object (CmdStan JSON data is {\"name\": value, ...})");
  }
  Transaction transaction(*db_);
  {
    Statement latest(*db_, "SELECT id, name, json_text, created_at FROM data_sets WHERE name = ? ORDER BY id DESC LIMIT 1");
    latest.bind(1, name);
    if (latest.step() && latest.read_text(2) == json_text) return read_data_set(latest);
  }  // finalized before the commit, so that the commit can checkpoint the log
  Statement insert(*db_, "INSERT INTO data_sets (name, json_text, created_at) VALUES (?, ?, ?)");
  insert.bind(1, name).bind(2, json_text).bind(3, unix_seconds_now()).run();
  const Id id = db_->last_insert_id();
  transaction.commit();
  return data_set(id);
}

int64_t Project::max_data_set_bytes() {
  static const int64_t limit = [] {
    sqlite3* db = nullptr;  // the limit is the library's: any connection reports it
    int64_t bytes = 1'000'000'000;  // SQLITE_MAX_LENGTH's default, if no connection opens
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr) == SQLITE_OK) {
      bytes = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
    }
    sqlite3_close(db);
    return bytes;
  }();
  return limit;
}

std::vector<DataSet> Project::data_sets() const {
  Statement s(*db_,
              "SELECT id, name, json_text, created_at FROM data_sets "
              "WHERE id IN (SELECT MAX(id) FROM data_sets GROUP BY name) ORDER BY name");
  std::vector<DataSet> sets;
  while (s.step()) sets.push_back(read_data_set(s));
  return sets;
}

DataSet Project::data_set(Id id) const {
  Statement s(*db_, "SELECT id, name, json_text, created_at FROM data_sets WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) db_->fail_plain("no data set with id " + std::to_string(id));
  return read_data_set(s);
}

}  // namespace variate::store
