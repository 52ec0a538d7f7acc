// Project: writing and reading runs, their chains, draw blocks and ELBO traces.

#include <cstring>

#include <nlohmann/json.hpp>

#include "engine/store/database.h"
#include "engine/store/project.h"
#include "engine/store/run_owner.h"

namespace variate::store {
namespace {

int64_t seed_to_int(uint64_t seed) {
  int64_t stored;
  std::memcpy(&stored, &seed, sizeof(stored));  // SQLite integers are signed 64-bit
  return stored;
}

uint64_t seed_from_int(int64_t stored) {
  uint64_t seed;
  std::memcpy(&seed, &stored, sizeof(seed));
  return seed;
}

// A JSON document stored in a column of the run's row (`column` is one of ours, never
// user text: SQL cannot bind a column name).
void set_run_document(Database& db, const std::string& column, Id run_id, const std::string& json) {
  Transaction transaction(db);
  Statement s(db, ("UPDATE runs SET " + column + " = ? WHERE id = ?").c_str());
  s.bind(1, json).bind(2, run_id).run();
  if (db.changes() == 0) db.fail_plain("no run with id " + std::to_string(run_id));
  transaction.commit();
}

std::optional<std::string> run_document(Database& db, const std::string& column, Id run_id) {
  Statement s(db, ("SELECT " + column + " FROM runs WHERE id = ?").c_str());
  s.bind(1, run_id);
  if (!s.step()) db.fail_plain("no run with id " + std::to_string(run_id));
  if (s.is_null(0)) return std::nullopt;
  return s.read_text(0);
}

const char* const kRunColumns =
    "SELECT id, name, method, config_json, model_version_id, data_set_id, seed, columns_json, "
    "created_at, started_at, finished_at, status, error_message, seconds, "
    "(SELECT COUNT(*) FROM chains WHERE run_id = runs.id), diagnostics_json IS NOT NULL, "
    "(SELECT COALESCE(MIN(MAX(0, (SELECT COALESCE(MAX(first_iteration + row_count), 0) FROM draw_blocks d "
    "  WHERE d.run_id = c.run_id AND d.chain = c.chain) - c.warmup_iterations)), 0) "
    " FROM chains c WHERE c.run_id = runs.id) FROM runs ";

RunInfo read_run(Database& db, Statement& s) {
  RunInfo run;
  run.id = s.read_int(0);
  run.name = s.read_text(1);
  run.method = run_method_from_string(s.read_text(2));
  run.config_json = s.read_text(3);
  run.model_version_id = s.read_int(4);
  run.data_set_id = s.read_optional_int(5);
  run.seed = seed_from_int(s.read_int(6));
  const auto columns = nlohmann::json::parse(s.read_text(7), nullptr, false);
  if (!columns.is_array()) db.fail_plain("run " + std::to_string(run.id) + ": its column names are damaged");
  for (const auto& name : columns) run.columns.push_back(name.is_string() ? name.get<std::string>() : "");
  run.created_at = s.read_double(8);
  run.started_at = s.read_optional_double(9);
  run.finished_at = s.read_optional_double(10);
  run.status = run_status_from_string(s.read_text(11));
  run.error_message = s.read_text(12);
  run.seconds = s.read_double(13);
  run.chains = static_cast<int>(s.read_int(14));
  run.has_diagnostics = s.read_int(15) != 0;
  run.sampling_draws = s.read_int(16);
  return run;
}

ChainRecord read_chain(Statement& s) {
  // Columns: chain, warmup_iterations, step_size, metric, inverse_metric, last_position,
  // seconds_warmup, seconds_sampling, gradient_evaluations, ended, stopped_early.
  ChainRecord c;
  c.chain = static_cast<int>(s.read_int(0));
  c.warmup_iterations = static_cast<int>(s.read_int(1));
  c.step_size = s.read_optional_double(2);
  c.metric = s.read_text(3);
  c.inverse_metric = s.read_doubles(4);
  c.last_position = s.read_doubles(5);
  c.seconds_warmup = s.read_double(6);
  c.seconds_sampling = s.read_double(7);
  c.gradient_evaluations = s.read_int(8);
  c.ended = s.read_int(9) != 0;
  c.stopped_early = s.read_int(10) != 0;
  c.rows = s.read_int(11);
  return c;
}

std::optional<Id> run_named(Database& db, const std::string& name, Id except) {
  Statement s(db, "SELECT id FROM runs WHERE name = ? AND id != ?");
  s.bind(1, name).bind(2, except);
  if (!s.step()) return std::nullopt;
  return s.read_int(0);
}

// Runs are named on the command line and in the studio (`--run`, `compare`), so a name
// is unique in its project and never a number alone (which names a run by its id).
void check_run_name(Database& db, const std::string& name, Id except) {
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) {
    db.fail_plain("a run's name cannot be a number alone ('" + name + "'): numbers name runs by their id");
  }
  if (const auto other = run_named(db, name, except)) {
    db.fail_plain("it already has a run named '" + name + "' (run " + std::to_string(*other) +
                  "): run names are unique, choose another");
  }
}

// "run ID", or "run ID (2)", ... where a run was named "run ID" before this one existed.
std::string default_run_name(Database& db, Id run_id) {
  const std::string base = "run " + std::to_string(run_id);
  std::string name = base;
  for (int n = 2; run_named(db, name, run_id); ++n) name = base + " (" + std::to_string(n) + ")";
  return name;
}

}  // namespace

Id Project::create_run(const RunSpec& spec) {
  Transaction transaction(*db_);
  {
    Statement version(*db_, "SELECT 1 FROM model_versions WHERE id = ?");
    version.bind(1, spec.model_version_id);
    if (!version.step()) db_->fail_plain("no model version with id " + std::to_string(spec.model_version_id));
  }
  if (spec.data_set_id) data_set(*spec.data_set_id);  // throws when missing
  if (!spec.name.empty()) check_run_name(*db_, spec.name, 0);
  const RunOwner owner = current_run_owner();
  const double now = unix_seconds_now();
  Statement insert(*db_,
                   "INSERT INTO runs (name, method, config_json, model_version_id, data_set_id, seed, "
                   "columns_json, created_at, started_at, status, owner_host, owner_pid, "
                   "owner_start_time, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)");
  insert.bind(1, spec.name)
      .bind(2, std::string(to_string(spec.method)))
      .bind(3, spec.config_json)
      .bind(4, spec.model_version_id)
      .bind(5, spec.data_set_id)
      .bind(6, seed_to_int(spec.seed))
      .bind(7, nlohmann::json(spec.columns).dump())
      .bind(8, now)
      .bind(9, now)
      .bind(10, owner.host)
      .bind(11, owner.pid)
      .bind(12, owner.start_time)
      .bind(13, now)
      .run();
  const Id id = db_->last_insert_id();
  if (spec.name.empty()) {
    Statement name(*db_, "UPDATE runs SET name = ? WHERE id = ?");
    name.bind(1, default_run_name(*db_, id)).bind(2, id).run();
  }
  transaction.commit();
  return id;
}

void Project::write(Id run_id, const RunUpdate& update) {
  const size_t width = run(run_id).columns.size();
  Transaction transaction(*db_);
  Statement chain(*db_,
                  "INSERT INTO chains (run_id, chain, warmup_iterations, step_size, metric, inverse_metric, "
                  "last_position, seconds_warmup, seconds_sampling, gradient_evaluations, ended, stopped_early) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, chain) DO UPDATE SET "
                  "warmup_iterations = excluded.warmup_iterations, step_size = excluded.step_size, "
                  "metric = excluded.metric, inverse_metric = excluded.inverse_metric, "
                  "last_position = excluded.last_position, seconds_warmup = excluded.seconds_warmup, "
                  "seconds_sampling = excluded.seconds_sampling, "
                  "gradient_evaluations = excluded.gradient_evaluations, ended = excluded.ended, "
                  "stopped_early = excluded.stopped_early");
  for (const ChainRecord& c : update.chains) {
    chain.reset();
    chain.bind(1, run_id).bind(2, c.chain).bind(3, c.warmup_iterations);
    if (c.step_size) chain.bind(4, *c.step_size); else chain.bind_null(4);
    chain.bind(5, c.metric).bind_doubles(6, c.inverse_metric).bind_doubles(7, c.last_position)
        .bind(8, c.seconds_warmup).bind(9, c.seconds_sampling).bind(10, c.gradient_evaluations)
        .bind(11, int64_t(c.ended)).bind(12, int64_t(c.stopped_early)).run();
  }
  Statement end(*db_, "SELECT COALESCE(MAX(first_iteration + row_count), 0) FROM draw_blocks WHERE run_id = ? AND chain = ?");
  Statement block(*db_,
                  "INSERT INTO draw_blocks (run_id, chain, first_iteration, row_count, column_count, draws) "
                  "VALUES (?, ?, ?, ?, ?, ?)");
  for (const DrawBlock& b : update.blocks) {
    const std::string where = "run " + std::to_string(run_id) + ", chain " + std::to_string(b.chain + 1) + ": ";
    if (b.columns <= 0 || static_cast<size_t>(b.columns) != width) {
      db_->fail_plain(where + "a block of " + std::to_string(b.columns) + " columns, the run has " + std::to_string(width));
    }
    if (b.rows <= 0 || b.values.size() != static_cast<size_t>(b.rows) * b.columns) {
      db_->fail_plain(where + "a block of " + std::to_string(b.rows) + " rows holds " +
                      std::to_string(b.values.size()) + " values");
    }
    end.reset();
    end.bind(1, run_id).bind(2, b.chain);
    end.step();
    const int64_t stored_end = end.read_int(0);
    // A statement left on a row keeps a read transaction open, and then the commit's
    // automatic checkpoint fails: the write-ahead log would grow for the whole run.
    end.reset();
    if (stored_end != b.first_iteration) {
      db_->fail_plain(where + "a block starting at iteration " + std::to_string(b.first_iteration) +
                      ", but the stored rows end at " + std::to_string(stored_end));
    }
    block.reset();
    block.bind(1, run_id).bind(2, b.chain).bind(3, b.first_iteration).bind(4, b.rows)
        .bind(5, b.columns).bind_doubles(6, b.values).run();
  }
  if (!update.blocks.empty()) {
    // The stored LOO was computed from the draws before these ("run more draws"): drop it,
    // so that whoever needs it computes it again from them all.
    Statement loo(*db_, "UPDATE runs SET loo_json = NULL WHERE id = ? AND loo_json IS NOT NULL");
    loo.bind(1, run_id).run();
  }
  Statement elbo(*db_, "INSERT INTO elbo_trace (run_id, iteration, elbo, rel_change) VALUES (?, ?, ?, ?)");
  for (const ElboPoint& point : update.elbo) {
    elbo.reset();
    elbo.bind(1, run_id).bind(2, point.iteration).bind(3, point.elbo).bind(4, point.rel_change).run();
  }
  write_training_records(run_id, update);
  refresh_heartbeat(run_id);
  transaction.commit();
}

void Project::refresh_heartbeat(Id run_id) {
  Statement heartbeat(*db_,
                      "UPDATE runs SET heartbeat_at = ?1, seconds = MAX(0, ?1 - COALESCE(started_at, ?1)) "
                      "WHERE id = ?2 AND finished_at IS NULL");
  heartbeat.bind(1, unix_seconds_now()).bind(2, run_id).run();
}

void Project::resume_run(Id run_id) {
  Transaction transaction(*db_);
  if (run(run_id).status == RunStatus::running) {
    db_->fail_plain("run " + std::to_string(run_id) + " is running: it cannot be continued now");
  }
  const RunOwner owner = current_run_owner();
  Statement s(*db_,
              "UPDATE runs SET status = 'running', error_message = '', finished_at = NULL, owner_host = ?, "
              "owner_pid = ?, owner_start_time = ?, heartbeat_at = ?, "
              "started_at = ?5 - seconds WHERE id = ?6");  // seconds keep counting from there
  s.bind(1, owner.host).bind(2, owner.pid).bind(3, owner.start_time).bind(4, unix_seconds_now())
      .bind(5, unix_seconds_now()).bind(6, run_id).run();
  transaction.commit();
}

void Project::set_diagnostics(Id run_id, const std::string& json) {
  set_run_document(*db_, "diagnostics_json", run_id, json);
}

void Project::set_loo(Id run_id, const std::string& json) { set_run_document(*db_, "loo_json", run_id, json); }

void Project::finish_run(Id run_id, RunStatus status, const std::string& error_message) {
  Transaction transaction(*db_);
  Statement s(*db_,
              "UPDATE runs SET status = ?1, error_message = ?2, finished_at = ?3, heartbeat_at = ?3, "
              "seconds = MAX(0, ?3 - COALESCE(started_at, ?3)) WHERE id = ?4");
  s.bind(1, std::string(to_string(status))).bind(2, error_message).bind(3, unix_seconds_now()).bind(4, run_id).run();
  if (db_->changes() == 0) db_->fail_plain("no run with id " + std::to_string(run_id));
  transaction.commit();
}

void Project::rename_run(Id run_id, const std::string& name) {
  Transaction transaction(*db_);
  check_run_name(*db_, name, run_id);
  Statement s(*db_, "UPDATE runs SET name = ? WHERE id = ?");
  s.bind(1, name).bind(2, run_id).run();
  if (db_->changes() == 0) db_->fail_plain("no run with id " + std::to_string(run_id));
  transaction.commit();
}

void Project::set_run_config(Id run_id, const std::string& config_json) {
  Transaction transaction(*db_);
  Statement s(*db_, "UPDATE runs SET config_json = ? WHERE id = ?");
  s.bind(1, config_json).bind(2, run_id).run();
  if (db_->changes() == 0) db_->fail_plain("no run with id " + std::to_string(run_id));
  transaction.commit();
}

void Project::delete_run(Id run_id) {
  Transaction transaction(*db_);
  // Chains, blocks, ELBO points, epochs and checkpoints cascade (foreign keys are on).
  Statement s(*db_, "DELETE FROM runs WHERE id = ?");
  s.bind(1, run_id).run();
  if (db_->changes() == 0) db_->fail_plain("no run with id " + std::to_string(run_id));
  transaction.commit();
}

std::vector<RunInfo> Project::runs() const {
  Statement s(*db_, (std::string(kRunColumns) + "ORDER BY id").c_str());
  std::vector<RunInfo> runs;
  while (s.step()) runs.push_back(read_run(*db_, s));
  return runs;
}

RunInfo Project::run(Id run_id) const {
  Statement s(*db_, (std::string(kRunColumns) + "WHERE id = ?").c_str());
  s.bind(1, run_id);
  if (!s.step()) db_->fail_plain("no run with id " + std::to_string(run_id));
  return read_run(*db_, s);
}

int64_t Project::outside_changes() const { return db_->query_int("PRAGMA data_version"); }

std::vector<ChainRecord> Project::chains(Id run_id) const {
  Statement s(*db_,
              "SELECT chain, warmup_iterations, step_size, metric, inverse_metric, last_position, "
              "seconds_warmup, seconds_sampling, gradient_evaluations, ended, stopped_early, "
              "(SELECT COALESCE(MAX(first_iteration + row_count), 0) FROM draw_blocks d "
              " WHERE d.run_id = chains.run_id AND d.chain = chains.chain) "
              "FROM chains WHERE run_id = ? ORDER BY chain");
  s.bind(1, run_id);
  std::vector<ChainRecord> chains;
  while (s.step()) chains.push_back(read_chain(s));
  return chains;
}

ChainDraws Project::chain_draws(Id run_id, int chain) const {
  const RunInfo info = run(run_id);
  ChainDraws table;
  table.chain = chain;
  table.columns = info.columns;
  {
    Statement s(*db_, "SELECT warmup_iterations FROM chains WHERE run_id = ? AND chain = ?");
    s.bind(1, run_id).bind(2, chain);
    if (!s.step()) {
      db_->fail_plain("run " + std::to_string(run_id) + " has no chain " + std::to_string(chain + 1));
    }
    table.warmup_iterations = static_cast<int>(s.read_int(0));
  }
  Statement s(*db_,
              "SELECT first_iteration, row_count, column_count, draws FROM draw_blocks "
              "WHERE run_id = ? AND chain = ? ORDER BY first_iteration");
  s.bind(1, run_id).bind(2, chain);
  const size_t width = table.columns.size();
  while (s.step()) {
    if (s.read_int(0) != static_cast<int64_t>(table.rows) || s.read_int(2) != static_cast<int64_t>(width)) {
      break;
    }
    // The row count of a damaged file is checked against the values by division: its
    // product with the width may overflow (and then match), and a table without columns
    // cannot show how many rows it has.
    const int64_t rows = s.read_int(1);
    const std::vector<double> values = s.read_doubles(3);
    if (width == 0 || rows < 0 || values.size() % width != 0 || values.size() / width != static_cast<uint64_t>(rows)) {
      break;
    }
    table.values.insert(table.values.end(), values.begin(), values.end());
    table.rows += static_cast<size_t>(rows);
  }
  return table;
}

std::vector<ChainDraws> Project::draws(Id run_id) const {
  std::vector<ChainDraws> tables;
  for (const ChainRecord& chain : chains(run_id)) tables.push_back(chain_draws(run_id, chain.chain));
  return tables;
}

std::vector<ElboPoint> Project::elbo_trace(Id run_id) const {
  Statement s(*db_, "SELECT iteration, elbo, rel_change FROM elbo_trace WHERE run_id = ? ORDER BY iteration");
  s.bind(1, run_id);
  std::vector<ElboPoint> points;
  while (s.step()) points.push_back({static_cast<int>(s.read_int(0)), s.read_double(1), s.read_double(2)});
  return points;
}

std::optional<std::string> Project::diagnostics_json(Id run_id) const {
  return run_document(*db_, "diagnostics_json", run_id);
}

std::optional<std::string> Project::loo_json(Id run_id) const { return run_document(*db_, "loo_json", run_id); }

}  // namespace variate::store
