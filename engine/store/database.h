#pragma once
/// A thin RAII layer over the sqlite3 C API for the project store: one connection, prepared
/// statements with typed binds and reads, and transactions that roll back unless
/// committed. Every error becomes a ProjectError "project 'PATH': WHAT: sqlite message".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/store/project_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace variate::store {

class Database;

/// One prepared statement. Binds are 1-based, column reads 0-based.
class Statement {
 public:
  Statement(Database& db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<int64_t>(value)); }
  /// NaN is stored as NULL (SQLite's own rule); read_double turns NULL back into NaN.
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, const std::optional<int64_t>& value);
  Statement& bind_null(int index);
  /// The doubles' bytes (IEEE 754, little-endian).
  Statement& bind_doubles(int index, const std::vector<double>& values);
  /// Bytes as a BLOB (NUL bytes included; empty is an empty BLOB, not NULL).
  Statement& bind_blob(int index, const std::string& bytes);

  /// Advances to the next row; false when done.
  bool step();
  /// Runs a statement that returns no rows.
  void run();
  void reset();

  bool is_null(int column) const;
  int64_t read_int(int column) const;
  double read_double(int column) const;  // NULL reads as NaN
  std::string read_text(int column) const;
  std::optional<int64_t> read_optional_int(int column) const;
  std::optional<double> read_optional_double(int column) const;
  std::vector<double> read_doubles(int column) const;
  std::string read_blob(int column) const;

 private:
  Database& db_;
  sqlite3_stmt* statement_ = nullptr;
};

class Database {
 public:
  /// Opens `path` read-write; creates it only when `create`. Errors name the file
  /// `shown_as` when given (a temporary file, by the project it becomes).
  Database(const std::string& path, bool create, const std::string& shown_as = "");
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* handle() { return db_; }

  /// The file's first `count` bytes (fewer when it is shorter) and, in `size`, its size,
  /// read through the connection's own file handle: opening and closing the file any other
  /// way would drop the POSIX locks this process holds on it for its connections, and then
  /// another process could checkpoint and delete the log under them (SQLite's "How To
  /// Corrupt", 2.2.1).
  std::string read_start(size_t count, int64_t* size);
  /// Runs one or more statements that return no rows.
  void exec(const std::string& sql);
  /// The single integer a query returns (e.g. a PRAGMA).
  int64_t query_int(const std::string& sql);
  int64_t last_insert_id();
  int changes();

  /// "project 'PATH': WHAT: <sqlite's message for the last error>".
  [[noreturn]] void fail(const std::string& what);
  /// "project 'PATH': WHAT".
  [[noreturn]] void fail_plain(const std::string& what) const;

 private:
  std::string file_;
  std::string path_;  // as errors name it
  sqlite3* db_ = nullptr;
};

/// BEGIN IMMEDIATE now (takes the write lock up front, so no deadlock on upgrade);
/// rolls back in the destructor unless commit() ran.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace variate::store
