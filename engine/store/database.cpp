#include "engine/store/database.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <sqlite3.h>

namespace variate::store {

// Draw blocks are stored as the machine's doubles; project files are little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "project files store little-endian doubles");

Database::Database(const std::string& path, bool create, const std::string& shown_as)
    : file_(path), path_(shown_as.empty() ? path : shown_as) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    fail_plain("cannot open: " + message);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Writers of other connections (a recorder, the studio) hold the lock for milliseconds.
  sqlite3_busy_timeout(db_, 5000);
}

Database::~Database() { sqlite3_close_v2(db_); }

namespace {

// SQLite reports a failed write() as a plain "disk I/O error" and does not keep its errno
// (for the log file); the two causes a user meets are found by looking: the process's
// file-size limit (ulimit -f) reached by the file or its log, or no space left.
std::string why_a_write_failed(const std::string& file) {
  constexpr uint64_t kLargestFrame = 65536 + 24;  // the largest page, with its log header
  rlimit limit{};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    for (const char* suffix : {"", "-wal"}) {
      std::error_code error;
      const uint64_t size = std::filesystem::file_size(file + suffix, error);
      if (!error && size + kLargestFrame > limit.rlim_cur) {
        return "the file cannot grow: it reached this process's limit on the size of files (ulimit -f, " +
               std::to_string(limit.rlim_cur) + " bytes)";
      }
    }
  }
  struct statvfs space{};
  const std::string folder = std::filesystem::absolute(file).parent_path().string();
  if (statvfs(folder.c_str(), &space) == 0 && uint64_t(space.f_bavail) * space.f_frsize < kLargestFrame) {
    return "the disk is full";
  }
  return "";
}

}  // namespace

void Database::fail(const std::string& what) {
  const int primary = sqlite3_errcode(db_) & 0xff;
  std::string reason = sqlite3_errmsg(db_);
  const bool busy = primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
  if (primary == SQLITE_CORRUPT) reason = "the file is corrupt (" + reason + ")";
  if (primary == SQLITE_NOTADB) reason = "not a SQLite database (" + reason + ")";
  if (primary == SQLITE_FULL) reason = "the disk is full (" + reason + ")";
  if (primary == SQLITE_READONLY) reason = "the file is read-only (" + reason + ")";
  if (busy) reason = "another process kept the file locked for over 5 s (" + reason + ")";
  if (primary == SQLITE_IOERR) {
    if (const std::string cause = why_a_write_failed(file_); !cause.empty()) reason = cause + " (" + reason + ")";
  }
  throw ProjectError("project '" + path_ + "': " + what + ": " + reason, busy);
}

void Database::fail_plain(const std::string& what) const {
  throw ProjectError("project '" + path_ + "': " + what);
}

std::string Database::read_start(size_t count, int64_t* size) {
  sqlite3_file* file = nullptr;
  if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file ||
      !file->pMethods) {
    fail_plain("cannot read the file");
  }
  sqlite3_int64 bytes = 0;
  if (file->pMethods->xFileSize(file, &bytes) != SQLITE_OK) fail_plain("cannot read the file's size");
  *size = bytes;
  std::string start(count, '\0');
  const int rc = file->pMethods->xRead(file, start.data(), static_cast<int>(count), 0);
  if (rc == SQLITE_IOERR_SHORT_READ) {
    start.resize(static_cast<size_t>(std::min<sqlite3_int64>(bytes, static_cast<sqlite3_int64>(count))));
  } else if (rc != SQLITE_OK) {
    fail_plain("cannot read the file");
  }
  return start;
}

void Database::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    sqlite3_free(error);
    fail("'" + sql.substr(0, sql.find_first_of("(\n")) + "' failed");
  }
}

int64_t Database::query_int(const std::string& sql) {
  Statement statement(*this, sql.c_str());
  if (!statement.step()) fail_plain("'" + sql + "' returned no row");
  return statement.read_int(0);
}

int64_t Database::last_insert_id() { return sqlite3_last_insert_rowid(db_); }

int Database::changes() { return sqlite3_changes(db_); }

Statement::Statement(Database& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql, -1, &statement_, nullptr) != SQLITE_OK) {
    db_.fail(std::string("cannot prepare '") + sql + "'");
  }
}

Statement::~Statement() { sqlite3_finalize(statement_); }

namespace {
void check_bind(Database& db, int rc) {
  if (rc != SQLITE_OK) db.fail("cannot bind a value");
}
}  // namespace

Statement& Statement::bind(int index, int64_t value) {
  check_bind(db_, sqlite3_bind_int64(statement_, index, value));
  return *this;
}

Statement& Statement::bind(int index, double value) {
  check_bind(db_, std::isnan(value) ? sqlite3_bind_null(statement_, index)
                                    : sqlite3_bind_double(statement_, index, value));
  return *this;
}

Statement& Statement::bind(int index, const std::string& value) {
  check_bind(db_, sqlite3_bind_text64(statement_, index, value.data(), value.size(),
                                      SQLITE_TRANSIENT, SQLITE_UTF8));
  return *this;
}

Statement& Statement::bind(int index, const std::optional<int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}

Statement& Statement::bind_null(int index) {
  check_bind(db_, sqlite3_bind_null(statement_, index));
  return *this;
}

Statement& Statement::bind_doubles(int index, const std::vector<double>& values) {
  // Zero-length blobs must still be non-NULL: bind_zeroblob gives an empty BLOB.
  const int rc = values.empty()
                     ? sqlite3_bind_zeroblob(statement_, index, 0)
                     : sqlite3_bind_blob64(statement_, index, values.data(),
                                           values.size() * sizeof(double), SQLITE_TRANSIENT);
  check_bind(db_, rc);
  return *this;
}

Statement& Statement::bind_blob(int index, const std::string& bytes) {
  const int rc = bytes.empty() ? sqlite3_bind_zeroblob(statement_, index, 0)
                               : sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
  check_bind(db_, rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail(std::string("'") + sqlite3_sql(statement_) + "' failed");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int64_t Statement::read_int(int column) const { return sqlite3_column_int64(statement_, column); }

double Statement::read_double(int column) const {
  if (is_null(column)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(statement_, column);
}

std::string Statement::read_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  return text ? std::string(text, sqlite3_column_bytes(statement_, column)) : std::string();
}

std::optional<int64_t> Statement::read_optional_int(int column) const {
  if (is_null(column)) return std::nullopt;
  return read_int(column);
}

std::optional<double> Statement::read_optional_double(int column) const {
  if (is_null(column)) return std::nullopt;
  return read_double(column);
}

std::vector<double> Statement::read_doubles(int column) const {
  const void* data = sqlite3_column_blob(statement_, column);
  const size_t bytes = static_cast<size_t>(sqlite3_column_bytes(statement_, column));
  if (bytes % sizeof(double) != 0) {
    db_.fail_plain("a stored array has " + std::to_string(bytes) +
                   " bytes, not a whole number of doubles (the file is damaged)");
  }
  std::vector<double> values(bytes / sizeof(double));
  if (bytes > 0) std::memcpy(values.data(), data, bytes);
  return values;
}

std::string Statement::read_blob(int column) const {
  const void* data = sqlite3_column_blob(statement_, column);
  const size_t bytes = static_cast<size_t>(sqlite3_column_bytes(statement_, column));
  return data ? std::string(static_cast<const char*>(data), bytes) : std::string();
}

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace variate::store
