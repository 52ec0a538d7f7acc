// A training run's records read back as written: the per-step ELBO, one record per epoch
// (a rewritten epoch replaces the old), checkpoints byte for byte (NUL bytes, ~8 MB),
// only the two highest-step checkpoints kept; rewind_training drops what a checkpoint
// does not cover; delete_run takes them all.

#include <cmath>
#include <limits>
#include <random>

#include <sqlite3.h>

#include <QtTest/QtTest>

#include "engine/store/project.h"
#include "engine/store/run_owner.h"

namespace store = variate::store;

namespace {

std::string project_path(const QTemporaryDir& directory) {
  return directory.filePath("p.variate").toStdString();
}

// A training named "vae" (a project's first), "vae 2", ...: run names are unique.
store::Id training_run(store::Project& project) {
  store::RunSpec spec;
  const size_t before = project.runs().size();
  spec.name = before == 0 ? "vae" : "vae " + std::to_string(before + 1);
  spec.method = store::RunMethod::amortized;
  spec.config_json = R"({"epochs": 3, "batch": 128})";
  spec.model_version_id = project.save_model("vae", "network encoder: mlp(784, 256, 20)\n").id;
  return project.create_run(spec);
}

// Counted through a connection of its own, so rows the store would not return still count.
int64_t count_rows(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
  const int64_t value = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1;
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

store::EpochRecord epoch_record(int epoch, int64_t step, double train_elbo) {
  store::EpochRecord record;
  record.epoch = epoch;
  record.step = step;
  record.train_elbo = train_elbo;
  record.seconds = 10.0 * epoch;
  record.rows_per_second = 6000.0 + epoch;
  return record;
}

store::CheckpointRecord checkpoint(int64_t step, int epoch, int64_t epoch_step, std::string weights = "w",
                                   std::string optimizer = "o") {
  store::CheckpointRecord record;
  record.step = step;
  record.epoch = epoch;
  record.epoch_step = epoch_step;
  record.weights = std::move(weights);
  record.optimizer = std::move(optimizer);
  return record;
}

store::RunUpdate training_update(std::vector<store::ElboPoint> elbo, std::vector<store::EpochRecord> epochs,
                                 std::optional<store::CheckpointRecord> saved = std::nullopt) {
  store::RunUpdate update;
  update.elbo = std::move(elbo);
  update.epochs = std::move(epochs);
  update.checkpoint = std::move(saved);
  return update;
}

// Steps first..last, each with ELBO -step.
std::vector<store::ElboPoint> steps(int first, int last) {
  std::vector<store::ElboPoint> points;
  for (int step = first; step <= last; ++step) {
    points.push_back({step, -double(step), std::numeric_limits<double>::quiet_NaN()});
  }
  return points;
}

std::vector<int> iterations(const std::vector<store::ElboPoint>& points) {
  std::vector<int> result;
  for (const auto& point : points) result.push_back(point.iteration);
  return result;
}

std::vector<int> epoch_numbers(const std::vector<store::EpochRecord>& epochs) {
  std::vector<int> result;
  for (const auto& epoch : epochs) result.push_back(epoch.epoch);
  return result;
}

}  // namespace

class TestTrainingRecords : public QObject {
  Q_OBJECT

 private slots:
  void theAmortizedMethodRoundTrips() {
    QCOMPARE(std::string(store::to_string(store::RunMethod::amortized)), std::string("amortized"));
    QCOMPARE(store::run_method_from_string("amortized"), store::RunMethod::amortized);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::run_method_from_string("vae"));
    QTemporaryDir directory;
    store::Id run = 0;
    {
      store::Project project(project_path(directory), store::Project::OpenMode::create);
      run = training_run(project);
    }
    store::Project reopened(project_path(directory));
    QCOMPARE(reopened.run(run).method, store::RunMethod::amortized);
    QCOMPARE(count_rows(project_path(directory), "SELECT COUNT(*) FROM runs WHERE method = 'amortized'"), int64_t{1});
  }

  void epochRecordsRoundTripAndAreReplaced() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    QVERIFY(project.training_epochs(run).empty());
    store::EpochRecord second = epoch_record(2, 938, -101.5);
    second.heldout_elbo = -104.25;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Written out of order, read back by epoch; a diverged epoch's NaN reads back NaN.
    project.write(run, training_update(steps(1, 3), {second, epoch_record(1, 469, nan)}));
    auto epochs = project.training_epochs(run);
    QCOMPARE(epoch_numbers(epochs), (std::vector<int>{1, 2}));
    QCOMPARE(epochs[0].step, int64_t{469});
    QVERIFY(std::isnan(epochs[0].train_elbo));
    QVERIFY(!epochs[0].heldout_elbo);
    QCOMPARE(epochs[0].seconds, 10.0);
    QCOMPARE(epochs[0].rows_per_second, 6001.0);
    QCOMPARE(epochs[1].step, int64_t{938});
    QCOMPARE(epochs[1].train_elbo, -101.5);
    QCOMPARE(epochs[1].heldout_elbo.value_or(0), -104.25);
    QCOMPARE(epochs[1].seconds, 20.0);
    QCOMPARE(epochs[1].rows_per_second, 6002.0);
    // The same epoch again (a training that redid it) replaces the record.
    project.write(run, training_update({}, {epoch_record(1, 470, -120.0)}));
    epochs = project.training_epochs(run);
    QCOMPARE(epoch_numbers(epochs), (std::vector<int>{1, 2}));
    QCOMPARE(epochs[0].step, int64_t{470});
    QCOMPARE(epochs[0].train_elbo, -120.0);
    // Per-step ELBO goes to the run's ELBO trace.
    QCOMPARE(iterations(project.elbo_trace(run)), (std::vector<int>{1, 2, 3}));
    QCOMPARE(project.elbo_trace(run)[2].elbo, -3.0);
    QVERIFY(std::isnan(project.elbo_trace(run)[2].rel_change));
    // Another run's epochs are its own.
    QVERIFY(project.training_epochs(training_run(project)).empty());
  }

  void aCheckpointRoundTripsByteForByte() {
    QTemporaryDir directory;
    std::string weights;
    for (int repeat = 0; repeat < 4; ++repeat) {
      for (int byte = 0; byte < 256; ++byte) weights.push_back(static_cast<char>(byte));
    }
    // ~8 MB, the size of the VAE's optimizer state, with NULs throughout.
    std::string optimizer(8 * 1024 * 1024 + 17, '\0');
    std::mt19937 random(7);
    for (size_t i = 0; i < optimizer.size(); i += 3) optimizer[i] = static_cast<char>(random() & 0xff);
    store::Id run = 0;
    const double before = store::unix_seconds_now();
    {
      store::Project project(project_path(directory), store::Project::OpenMode::create);
      run = training_run(project);
      QVERIFY(!project.latest_checkpoint(run));
      store::CheckpointRecord saved = checkpoint(1407, 4, 0, weights, optimizer);
      saved.saved_at = 5.0;  // the store sets it
      project.write(run, training_update(steps(1, 5), {}, saved));
    }
    const double after = store::unix_seconds_now();
    store::Project project(project_path(directory));
    const auto loaded = project.latest_checkpoint(run);
    QVERIFY(loaded);
    QCOMPARE(loaded->step, int64_t{1407});
    QCOMPARE(loaded->epoch, 4);
    QCOMPARE(loaded->epoch_step, int64_t{0});
    QCOMPARE(loaded->weights.size(), size_t{1024});
    QVERIFY(loaded->weights == weights);
    QCOMPARE(loaded->optimizer.size(), optimizer.size());
    QVERIFY(loaded->optimizer == optimizer);
    QVERIFY2(loaded->saved_at >= before && loaded->saved_at <= after, qPrintable(QString::number(loaded->saved_at, 'f')));
    // Empty archives stay empty, not NULL.
    project.write(run, training_update({}, {}, checkpoint(1500, 4, 93, "", "")));
    QCOMPARE(project.latest_checkpoint(run)->weights, std::string());
    QCOMPARE(project.latest_checkpoint(run)->epoch_step, int64_t{93});
  }

  void onlyTheTwoHighestStepCheckpointsAreKept() {
    QTemporaryDir directory;
    const std::string path = project_path(directory);
    store::Project project(path, store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    const store::Id other = training_run(project);
    project.write(other, training_update({}, {}, checkpoint(50, 1, 50, "other")));
    for (int64_t step : {100, 200, 300}) {
      project.write(run, training_update({}, {}, checkpoint(step, 1, step, "w" + std::to_string(step))));
    }
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM checkpoints WHERE run_id = " + std::to_string(run)), int64_t{2});
    QCOMPARE(count_rows(path, "SELECT MIN(step) FROM checkpoints WHERE run_id = " + std::to_string(run)), int64_t{200});
    // Another run's checkpoint is not one of this run's two.
    QCOMPARE(project.latest_checkpoint(other)->weights, std::string("other"));
    // The same step again replaces it.
    project.write(run, training_update({}, {}, checkpoint(300, 2, 0, "again")));
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM checkpoints WHERE run_id = " + std::to_string(run)), int64_t{2});
    QCOMPARE(project.latest_checkpoint(run)->weights, std::string("again"));
  }

  void theLatestCheckpointIsTheHighestStep() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    project.write(run, training_update({}, {}, checkpoint(300, 2, 10, "w300")));
    project.write(run, training_update({}, {}, checkpoint(200, 1, 200, "w200")));  // written last, lower
    QCOMPARE(project.latest_checkpoint(run)->step, int64_t{300});
    QCOMPARE(project.latest_checkpoint(run)->weights, std::string("w300"));
  }

  void aRefusedCheckpointWritesNothingOfItsUpdate() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    project.write(run, training_update(steps(1, 2), {}, checkpoint(2, 1, 2)));
    // Epoch 0, a step below the epoch's steps, a negative step: each refused with the
    // ELBO points and epoch record of the same update.
    for (const auto& bad : {checkpoint(4, 0, 4), checkpoint(4, 1, 5), checkpoint(-1, 1, 0)}) {
      try {
        project.write(run, training_update(steps(3, 4), {epoch_record(1, 4, -1.0)}, bad));
        QFAIL("a bad checkpoint was written");
      } catch (const store::ProjectError& e) {
        QVERIFY2(QString(e.what()).startsWith("project '") && QString(e.what()).contains("checkpoint"), e.what());
      }
      QCOMPARE(iterations(project.elbo_trace(run)), (std::vector<int>{1, 2}));
      QVERIFY(project.training_epochs(run).empty());
      QCOMPARE(project.latest_checkpoint(run)->step, int64_t{2});
    }
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write(run, training_update({}, {epoch_record(0, 4, -1.0)})));
    QVERIFY(project.training_epochs(run).empty());
  }

  void rewindingDropsWhatTheCheckpointDoesNotCover() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    const store::Id other = training_run(project);
    project.write(other, training_update(steps(1, 10), {epoch_record(1, 10, -1.0)}));
    // Epochs of 4 steps, a checkpoint at step 6; the process then ran on to step 10
    // (ending epoch 2 at step 8) and was killed before its next checkpoint.
    project.write(run, training_update(steps(1, 4), {epoch_record(1, 4, -1.0)}));
    project.write(run, training_update(steps(5, 6), {}, checkpoint(6, 2, 2)));
    project.write(run, training_update(steps(7, 8), {epoch_record(2, 8, -2.0)}));
    project.write(run, training_update(steps(9, 10), {}));
    project.rewind_training(run, 6);
    QCOMPARE(iterations(project.elbo_trace(run)), (std::vector<int>{1, 2, 3, 4, 5, 6}));
    QCOMPARE(epoch_numbers(project.training_epochs(run)), std::vector<int>{1});
    QCOMPARE(project.latest_checkpoint(run)->step, int64_t{6});
    // The continuation writes its steps again where they were.
    project.write(run, training_update(steps(7, 8), {epoch_record(2, 8, -2.5)}, checkpoint(8, 3, 0)));
    QCOMPARE(project.training_epochs(run)[1].train_elbo, -2.5);
    // An epoch ending exactly at the checkpoint is covered and stays; checkpoints after
    // the step go with the continuation they belonged to.
    project.rewind_training(run, 4);
    QCOMPARE(iterations(project.elbo_trace(run)), (std::vector<int>{1, 2, 3, 4}));
    QCOMPARE(epoch_numbers(project.training_epochs(run)), std::vector<int>{1});
    QVERIFY(!project.latest_checkpoint(run));
    // Another run is untouched.
    QCOMPARE(project.elbo_trace(other).size(), size_t{10});
    QCOMPARE(project.training_epochs(other).size(), size_t{1});
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.rewind_training(9999, 0));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.rewind_training(run, -1));
  }

  void deletingARunDeletesItsEpochsAndCheckpoints() {
    QTemporaryDir directory;
    const std::string path = project_path(directory);
    store::Project project(path, store::Project::OpenMode::create);
    const store::Id run = training_run(project);
    const store::Id kept = training_run(project);
    for (store::Id id : {run, kept}) {
      project.write(id, training_update(steps(1, 4), {epoch_record(1, 4, -1.0)}, checkpoint(4, 2, 0)));
    }
    project.delete_run(run);
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM training_epochs WHERE run_id = " + std::to_string(run)), int64_t{0});
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM checkpoints WHERE run_id = " + std::to_string(run)), int64_t{0});
    QCOMPARE(count_rows(path, "SELECT COUNT(*) FROM elbo_trace WHERE run_id = " + std::to_string(run)), int64_t{0});
    QCOMPARE(project.training_epochs(kept).size(), size_t{1});
    QCOMPARE(project.latest_checkpoint(kept)->step, int64_t{4});
    QCOMPARE(project.elbo_trace(kept).size(), size_t{4});
  }
};

QTEST_APPLESS_MAIN(TestTrainingRecords)
#include "tst_training_records.moc"
