#pragma once
// What the fault suites check of a project file after a kill, a full disk or two writers,
// read with SQLite itself as another program would: its integrity and the rows stored per
// run. The suites link SQLite::SQLite3.

#include <map>

#include <sqlite3.h>

#include <QtTest/QtTest>

#include "engine/store/project.h"

namespace app_test {

/// One read-write connection (so that it may recover a log left by a killed writer).
class ProjectFile {
 public:
  explicit ProjectFile(const QString& path) {
    if (sqlite3_open_v2(path.toUtf8().constData(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      error_ = db_ ? sqlite3_errmsg(db_) : "out of memory";
    }
    if (db_) sqlite3_busy_timeout(db_, 5000);
  }
  ~ProjectFile() { sqlite3_close_v2(db_); }
  ProjectFile(const ProjectFile&) = delete;
  ProjectFile& operator=(const ProjectFile&) = delete;

  /// PRAGMA integrity_check's answer: "ok", its complaints, or why it could not run.
  QString integrity() {
    QStringList lines;
    each_row("PRAGMA integrity_check", [&](sqlite3_stmt* s) { lines << text(s, 0); });
    return error_.isEmpty() ? lines.join('\n') : error_;
  }

  /// The rows stored for each run that has any (the sum of its draw blocks).
  std::map<int64_t, int64_t> rows_by_run() {
    std::map<int64_t, int64_t> rows;
    each_row("SELECT run_id, SUM(row_count) FROM draw_blocks GROUP BY run_id",
             [&](sqlite3_stmt* s) { rows[sqlite3_column_int64(s, 0)] = sqlite3_column_int64(s, 1); });
    return rows;
  }

  /// Why the last query failed, or empty.
  const QString& error() const { return error_; }

 private:
  template <typename Row>
  void each_row(const char* sql, Row row) {
    if (!error_.isEmpty()) return;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) {
      error_ = QString("%1: %2").arg(sql, sqlite3_errmsg(db_));
      return;
    }
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) row(s);
    if (rc != SQLITE_DONE) error_ = QString("%1: %2").arg(sql, sqlite3_errmsg(db_));
    sqlite3_finalize(s);
  }
  static QString text(sqlite3_stmt* s, int column) {
    return QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(s, column)));
  }

  sqlite3* db_ = nullptr;
  QString error_;
};

/// Every chain of `run` read back through the store: each stored row a real draw (at least
/// one leapfrog step, a finite lp__), the tables as long as their blocks say. Returns the
/// rows read, or -1 with a failure recorded.
inline int64_t read_back_draws(const variate::store::Project& project, variate::store::Id run, int64_t stored_rows) {
  int64_t rows = 0;
  for (const variate::store::ChainDraws& chain : project.draws(run)) {
    for (size_t row = 0; row < chain.rows; ++row) {
      if (!(chain.at(row, 4) >= 1) || !std::isfinite(chain.at(row, 0))) {
        qWarning("run %lld, chain %d, row %zu is not a draw", static_cast<long long>(run), chain.chain, row);
        return -1;
      }
    }
    rows += static_cast<int64_t>(chain.rows);
  }
  if (rows != stored_rows) {
    qWarning("run %lld: %lld rows read, its blocks hold %lld", static_cast<long long>(run),
             static_cast<long long>(rows), static_cast<long long>(stored_rows));
    return -1;
  }
  return rows;
}

}  // namespace app_test
