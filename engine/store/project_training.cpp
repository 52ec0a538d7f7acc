// Project: a training run's epoch records and checkpoints, and the rewind before a
// training continues from a checkpoint.

#include <cmath>

#include "engine/store/database.h"
#include "engine/store/project.h"
#include "engine/store/run_owner.h"

namespace variate::store {

void Project::write_training_records(Id run_id, const RunUpdate& update) {
  const std::string where = "run " + std::to_string(run_id) + ": ";
  Statement epoch(*db_,
                  "INSERT OR REPLACE INTO training_epochs (run_id, epoch, step, train_elbo, heldout_elbo, "
                  "seconds, rows_per_second) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const EpochRecord& e : update.epochs) {
    if (e.epoch < 1 || e.step < 0 || std::isnan(e.seconds) || std::isnan(e.rows_per_second)) {
      db_->fail_plain(where + "an epoch record with epoch " + std::to_string(e.epoch) + ", step " +
                      std::to_string(e.step) + ", seconds " + std::to_string(e.seconds) + ", rows per second " +
                      std::to_string(e.rows_per_second) + " (epochs count from 1, steps from 0; times are numbers)");
    }
    epoch.reset();
    epoch.bind(1, run_id).bind(2, e.epoch).bind(3, e.step).bind(4, e.train_elbo);
    if (e.heldout_elbo) epoch.bind(5, *e.heldout_elbo); else epoch.bind_null(5);
    epoch.bind(6, e.seconds).bind(7, e.rows_per_second).run();
  }
  if (!update.checkpoint) return;
  const CheckpointRecord& c = *update.checkpoint;
  if (c.step < 0 || c.epoch < 1 || c.epoch_step < 0 || c.epoch_step > c.step) {
    db_->fail_plain(where + "a checkpoint at step " + std::to_string(c.step) + ", epoch " + std::to_string(c.epoch) +
                    ", epoch step " + std::to_string(c.epoch_step) +
                    " (epochs count from 1; steps from 0, those of the epoch no more than all)");
  }
  Statement insert(*db_,
                   "INSERT OR REPLACE INTO checkpoints (run_id, step, epoch, epoch_step, saved_at, weights, optimizer) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)");
  insert.bind(1, run_id).bind(2, c.step).bind(3, c.epoch).bind(4, c.epoch_step).bind(5, unix_seconds_now())
      .bind_blob(6, c.weights).bind_blob(7, c.optimizer).run();
  // Two, not one: should the newest turn out unreadable, the one before it still resumes.
  Statement prune(*db_,
                  "DELETE FROM checkpoints WHERE run_id = ?1 AND step NOT IN "
                  "(SELECT step FROM checkpoints WHERE run_id = ?1 ORDER BY step DESC LIMIT 2)");
  prune.bind(1, run_id).run();
}

std::vector<EpochRecord> Project::training_epochs(Id run_id) const {
  Statement s(*db_,
              "SELECT epoch, step, train_elbo, heldout_elbo, seconds, rows_per_second FROM training_epochs "
              "WHERE run_id = ? ORDER BY epoch");
  s.bind(1, run_id);
  std::vector<EpochRecord> epochs;
  while (s.step()) {
    epochs.push_back({static_cast<int>(s.read_int(0)), s.read_int(1), s.read_double(2),
                      s.read_optional_double(3), s.read_double(4), s.read_double(5)});
  }
  return epochs;
}

std::optional<CheckpointRecord> Project::latest_checkpoint(Id run_id) const {
  Statement s(*db_,
              "SELECT step, epoch, epoch_step, weights, optimizer, saved_at FROM checkpoints "
              "WHERE run_id = ? ORDER BY step DESC LIMIT 1");
  s.bind(1, run_id);
  if (!s.step()) return std::nullopt;
  return CheckpointRecord{s.read_int(0), static_cast<int>(s.read_int(1)), s.read_int(2),
                          s.read_blob(3), s.read_blob(4), s.read_double(5)};
}

void Project::rewind_training(Id run_id, int64_t checkpoint_step) {
  if (checkpoint_step < 0) {
    db_->fail_plain("run " + std::to_string(run_id) + ": cannot rewind to step " + std::to_string(checkpoint_step));
  }
  Transaction transaction(*db_);
  run(run_id);  // throws when there is no such run
  // Checkpoints after the step go too: they belong to the abandoned continuation, and
  // left in place they would outrank the new ones (only the two highest steps are kept).
  for (const char* sql : {"DELETE FROM elbo_trace WHERE run_id = ? AND iteration > ?",
                          "DELETE FROM training_epochs WHERE run_id = ? AND step > ?",
                          "DELETE FROM checkpoints WHERE run_id = ? AND step > ?"}) {
    Statement s(*db_, sql);
    s.bind(1, run_id).bind(2, checkpoint_step).run();
  }
  transaction.commit();
}

}  // namespace variate::store
