// RunRecorder as sample_nuts' observer: draws from concurrent chain threads all land in
// order; commits follow the clock (at least every commit interval, also with no new
// draws); a stopped run is recorded as stopped with its adaptation and a summary equal to
// the one computed from the sampler's own results; abandoned and failed runs say so; a
// busy file delays a commit, a file that cannot grow stops the recording.

#include <atomic>
#include <csignal>
#include <thread>

#include <sqlite3.h>
#include <sys/resource.h>

#include <QtTest/QtTest>

#include "engine/variate.h"
#include "engine/diagnostics/summary.h"
#include "engine/mcmc/sample.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/store/run_recorder.h"
#include "engine/store/stored_run_summary.h"

namespace vt = variate;
namespace store = variate::store;
using Clock = std::chrono::steady_clock;

namespace {

store::RunSpec spec_for(const std::string& path, int parameters) {
  store::Project project(path, store::Project::OpenMode::create);
  store::RunSpec spec;
  spec.model_version_id = project.save_model("m", "x ~ Normal(0, 1)\n").id;
  spec.config_json = R"({"max_depth": 10})";
  spec.columns = variate::sampler_column_names();
  for (int k = 0; k < parameters; ++k) spec.columns.push_back("x." + std::to_string(k + 1));
  return spec;
}

// Outputs 2 * position, so the stored columns are visibly computed from the positions.
std::vector<std::vector<double>> doubled(const std::vector<std::vector<double>>& positions) {
  std::vector<std::vector<double>> rows = positions;
  for (auto& row : rows) {
    for (auto& x : row) x *= 2;
  }
  return rows;
}

// A batch of `n` iterations of `chain` from `first`, whose values encode where they are.
vt::DrawBatch batch(int chain, int first, int n, int warmup) {
  vt::DrawBatch b;
  b.chain = chain;
  b.first_iteration = first;
  b.warmup_iterations = warmup;
  for (int i = 0; i < n; ++i) {
    const double id = chain * 1e6 + first + i;
    b.positions.push_back({id, -id});
    vt::NutsResult stats;
    stats.log_density = id;
    stats.tree_depth = 3;
    stats.leapfrog_steps = 7;
    b.stats.push_back(stats);
  }
  return b;
}

// A clock the test moves by hand.
struct ManualClock {
  std::atomic<int64_t> milliseconds{0};
  Clock::time_point now() const { return Clock::time_point(std::chrono::milliseconds(milliseconds.load())); }
};

// No writer thread: commits happen in on_draws() and commit_if_due() once the clock the
// test moves says one is due (every 0.5 s).
store::RunRecorderOptions commits_by_hand(const ManualClock& clock) {
  store::RunRecorderOptions options;
  options.writer_thread = false;
  options.commit_interval_seconds = 0.5;
  options.clock = [&clock] { return clock.now(); };
  return options;
}

size_t stored_rows(const std::string& path, store::Id run, int chain) {
  store::Project reader(path);
  for (const auto& record : reader.chains(run)) {
    if (record.chain == chain) return reader.chain_draws(run, chain).rows;
  }
  return 0;
}

vt::UnconstrainedTarget correlated_gaussian() {
  const at::Tensor mu = at::tensor({1.0, -2.0}, at::kDouble);
  const at::Tensor sigma = at::tensor({1.0, 0.5, 0.5, 2.0}, at::kDouble).reshape({2, 2});
  auto log_joint = vt::make_log_joint([mu, sigma] { vt::MultiNormal("x", mu, sigma); });
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

// Forwards to the recorder and raises the stop flag once both chains have `stop_after`
// iterations.
class StoppingObserver : public vt::SampleObserver {
 public:
  StoppingObserver(vt::SampleObserver& inner, int stop_after) : inner_(inner), stop_after_(stop_after) {}
  void on_draws(const vt::DrawBatch& b) override {
    inner_.on_draws(b);
    done_[b.chain] = b.first_iteration + static_cast<int>(b.positions.size());
    if (done_[0] >= stop_after_ && done_[1] >= stop_after_) stop = true;
  }
  void on_adapted(int chain, double step_size, const std::vector<double>& m) override {
    inner_.on_adapted(chain, step_size, m);
  }
  void on_chain_finished(const vt::ChainResult& result) override { inner_.on_chain_finished(result); }
  std::atomic<bool> stop{false};

 private:
  vt::SampleObserver& inner_;
  int stop_after_;
  std::atomic<int> done_[2] = {0, 0};
};

}  // namespace

class TestRunRecorder : public QObject {
  Q_OBJECT

 private slots:
  void concurrentChainsLoseNothingWhileAReaderWatches() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    store::RunRecorderOptions options;
    options.commit_interval_seconds = 0.02;  // many commits while the threads write
    options.poll_seconds = 0.005;
    store::RunRecorder recorder(path, spec_for(path, 2), doubled, options);
    const int chains = 4, iterations = 3000, warmup = 1000;
    std::atomic<bool> writing{true};
    std::atomic<int> inconsistent{0}, reads{0};
    // A second connection reads while the chains write: every table it sees is whole.
    std::thread reader([&] {
      store::Project project(path);
      while (writing) {
        ++reads;
        for (const auto& table : project.draws(recorder.run_id())) {
          for (size_t row = 0; row < table.rows; ++row) {
            if (table.at(row, 0) != table.chain * 1e6 + row || table.at(row, 8) != -2 * table.at(row, 0)) {
              ++inconsistent;
            }
          }
        }
      }
    });
    std::vector<std::thread> threads;
    for (int chain = 0; chain < chains; ++chain) {
      threads.emplace_back([&, chain] {
        int first = 0, size = 1, batches = 0;
        while (first < iterations) {
          const int n = std::min(size, iterations - first);
          recorder.on_draws(batch(chain, first, n, warmup));
          first += n;
          size = size % 37 + 1;
          if (first == warmup) recorder.on_adapted(chain, 0.1 * (chain + 1), {1.0, 2.0});
          if (++batches % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        vt::ChainResult result;
        result.chain = chain;
        result.warmup_iterations = warmup;
        result.step_size = 0.1 * (chain + 1);
        result.inverse_metric = {1.0, 2.0};
        result.gradient_evaluations = 7 * iterations;
        recorder.on_chain_finished(result);
      });
    }
    for (auto& thread : threads) thread.join();
    recorder.finish();
    writing = false;
    reader.join();
    QCOMPARE(inconsistent.load(), 0);
    QVERIFY(reads > 0);
    qInfo("%d commits, %d reads while writing; %s", recorder.commits(), reads.load(),
          recorder.last_error().value_or("no failed commit").c_str());

    store::Project project(path);
    const store::RunInfo run = project.run(recorder.run_id());
    QCOMPARE(run.status, store::RunStatus::finished);
    const auto records = project.chains(run.id);
    QCOMPARE(records.size(), size_t(chains));
    for (int chain = 0; chain < chains; ++chain) {
      const store::ChainDraws table = project.chain_draws(run.id, chain);
      QCOMPARE(table.rows, size_t(iterations));
      QCOMPARE(table.warmup_iterations, warmup);
      for (size_t row = 0; row < table.rows; ++row) {
        const double id = chain * 1e6 + row;
        QCOMPARE(table.at(row, 0), id);         // lp__
        QCOMPARE(table.at(row, 4), 7.0);        // n_leapfrog__
        QCOMPARE(table.at(row, 7), 2 * id);     // x.1
        QCOMPARE(table.at(row, 8), -2 * id);    // x.2
      }
      QCOMPARE(*records[chain].step_size, 0.1 * (chain + 1));
      QCOMPARE(records[chain].metric, std::string("diag_e"));
      QVERIFY((records[chain].last_position == std::vector<double>{chain * 1e6 + iterations - 1, -(chain * 1e6 + iterations - 1)}));
      QVERIFY(records[chain].ended && !records[chain].stopped_early);
    }
  }

  void commitsFollowTheClock() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    ManualClock clock;
    store::RunRecorder recorder(path, spec_for(path, 2), doubled, commits_by_hand(clock));
    const store::Id run = recorder.run_id();

    recorder.on_draws(batch(0, 0, 10, 0));
    QCOMPARE(stored_rows(path, run, 0), size_t{0});  // buffered: not due yet
    clock.milliseconds = 499;
    recorder.on_draws(batch(0, 10, 10, 0));
    QVERIFY(!recorder.commit_if_due());
    QCOMPARE(stored_rows(path, run, 0), size_t{0});
    clock.milliseconds = 500;
    recorder.on_draws(batch(0, 20, 10, 0));  // due: this batch commits all three
    QCOMPARE(stored_rows(path, run, 0), size_t{30});
    QCOMPARE(recorder.commits(), 1);
    clock.milliseconds = 900;
    recorder.on_draws(batch(0, 30, 5, 0));
    QCOMPARE(stored_rows(path, run, 0), size_t{30});
    // Without further draws, commit_if_due (the writer thread's poll) commits on time.
    clock.milliseconds = 1000;
    QVERIFY(recorder.commit_if_due());
    QCOMPARE(stored_rows(path, run, 0), size_t{35});
    // Nothing new: a due commit still refreshes the heartbeat.
    clock.milliseconds = 1500;
    QVERIFY(recorder.commit_if_due());
    QCOMPARE(recorder.commits(), 3);
    recorder.on_draws(batch(0, 35, 1, 0));
    recorder.finish();
    QCOMPARE(stored_rows(path, run, 0), size_t{36});
  }

  void theWriterThreadCommitsWithoutFurtherDraws() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    ManualClock clock;
    store::RunRecorderOptions options;
    options.poll_seconds = 0.01;
    options.clock = [&clock] { return clock.now(); };
    store::RunRecorder recorder(path, spec_for(path, 2), doubled, options);
    recorder.on_draws(batch(1, 0, 25, 10));
    QTest::qWait(100);
    QCOMPARE(stored_rows(path, recorder.run_id(), 1), size_t{0});  // the clock has not moved
    clock.milliseconds = 600;
    QTRY_COMPARE_WITH_TIMEOUT(stored_rows(path, recorder.run_id(), 1), size_t{25}, 10000);
    QCOMPARE(store::Project(path).run(recorder.run_id()).status, store::RunStatus::running);
  }

  void aStoppedNutsRunKeepsItsDrawsAdaptationAndSummary() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    const auto target = correlated_gaussian();
    const auto identity = [](const std::vector<std::vector<double>>& p) { return p; };
    store::RunRecorder recorder(path, spec_for(path, 2), identity);
    StoppingObserver observer(recorder, 500);
    const auto options = vt::NutsOptions().chains(2).warmup(300).draws(100000).seed(9).batch_size(50);
    const auto results = vt::sample_nuts(target, options, &observer, &observer.stop);
    recorder.finish();

    store::Project project(path);
    QCOMPARE(project.run(recorder.run_id()).status, store::RunStatus::stopped);
    const auto records = project.chains(recorder.run_id());
    for (const auto& result : results) {
      QVERIFY(result.stopped_early);
      const store::ChainDraws table = project.chain_draws(recorder.run_id(), result.chain);
      QCOMPARE(table.rows, result.positions.size());
      QCOMPARE(table.warmup_iterations, 300);
      for (size_t row = 0; row < table.rows; ++row) {
        QCOMPARE(table.at(row, 0), result.stats[row].log_density);
        QCOMPARE(table.at(row, 6), result.stats[row].energy);
        QCOMPARE(table.at(row, 7), result.positions[row][0]);
        QCOMPARE(table.at(row, 8), result.positions[row][1]);
      }
      const store::ChainRecord& record = records[result.chain];
      QCOMPARE(*record.step_size, result.step_size);
      QVERIFY(record.inverse_metric == result.inverse_metric);
      QVERIFY(record.last_position == result.positions.back());
      QCOMPARE(record.gradient_evaluations, int64_t(result.gradient_evaluations));
      QVERIFY(record.ended && record.stopped_early);
    }
    // The stored summary is the diagnostics of the sampler's own draws, chains cut to the
    // shortest as `variate sample` cuts them.
    const store::StoredRunSummary summary = store::summarize_run(project, recorder.run_id());
    size_t length = SIZE_MAX;
    for (const auto& r : results) length = std::min(length, r.positions.size() - r.warmup_iterations);
    QCOMPARE(summary.draws_per_chain, int(length));
    QVERIFY(length >= 200);
    vt::diagnostics::Draws x2;
    for (const auto& r : results) {
      std::vector<double> column;
      for (size_t i = 0; i < length; ++i) column.push_back(r.positions[r.warmup_iterations + i][1]);
      x2.push_back(column);
    }
    const auto expected = vt::diagnostics::summarize("x[2]", x2);
    QCOMPARE(summary.parameters.size(), size_t{2});
    QCOMPARE(summary.parameters[1].name, std::string("x[2]"));
    QCOMPARE(summary.parameters[1].mean, expected.mean);
    QCOMPARE(summary.parameters[1].ess_bulk, expected.ess_bulk);
    QCOMPARE(summary.parameters[1].r_hat, expected.r_hat);
    QCOMPARE(summary.sampler_rows.size(), size_t{1});
    QVERIFY(summary.totals.has_value());
    QVERIFY(summary.table().find("x[2]") != std::string::npos);
    QVERIFY(summary.json().find("\"sampler\"") != std::string::npos);
  }

  void runMoreDrawsContinuesTheStoredChains() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    const auto target = correlated_gaussian();
    const auto identity = [](const std::vector<std::vector<double>>& p) { return p; };
    store::Id run = 0;
    std::vector<vt::ChainResult> first;
    {
      store::RunRecorder recorder(path, spec_for(path, 2), identity);
      run = recorder.run_id();
      first = vt::sample_nuts(target, vt::NutsOptions().chains(2).warmup(100).draws(100).seed(2), &recorder);
      recorder.finish();
    }
    // What the studio does on "run more draws": resume each chain from its stored state.
    store::Project project(path);
    std::vector<vt::ChainStart> starts;
    for (const store::ChainRecord& chain : project.chains(run)) {
      QCOMPARE(chain.rows, int64_t{200});
      starts.push_back({chain.last_position, *chain.step_size, chain.inverse_metric});
    }
    // The LOO of the first 100 draws must not outlive them.
    project.set_loo(run, R"({"elpd_loo": -30.5, "draws": 200})");
    store::RunRecorder more(path, run, identity);
    QCOMPARE(project.run(run).status, store::RunStatus::running);
    QVERIFY(project.loo_json(run));  // still true of the draws stored
    const auto second = vt::sample_nuts(
        target, vt::NutsOptions().chains(2).warmup(0).draws(150).seed(3).resume_from(starts), &more);
    more.finish();

    QCOMPARE(project.run(run).status, store::RunStatus::finished);
    QVERIFY(!project.loo_json(run));
    const auto records = project.chains(run);
    for (int chain = 0; chain < 2; ++chain) {
      const store::ChainDraws table = project.chain_draws(run, chain);
      QCOMPARE(table.rows, size_t{350});
      QCOMPARE(table.warmup_iterations, 100);
      QCOMPARE(table.at(199, 7), first[chain].positions[199][0]);
      QCOMPARE(table.at(200, 7), second[chain].positions[0][0]);
      QCOMPARE(table.at(349, 8), second[chain].positions[149][1]);
      QCOMPARE(records[chain].gradient_evaluations,
               int64_t(first[chain].gradient_evaluations + second[chain].gradient_evaluations));
      QVERIFY(records[chain].last_position == second[chain].positions.back());
    }
    QCOMPARE(store::summarize_run(project, run).draws_per_chain, 250);
    // A running run cannot be continued twice at once.
    store::RunRecorder again(path, run, identity);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::RunRecorder(path, run, identity));
  }

  void aRecorderDroppedUnfinishedMarksItsRunInterruptedAndAFailureIsKept() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    store::Id dropped = 0, failed = 0;
    {
      store::RunRecorder recorder(path, spec_for(path, 2), doubled);
      dropped = recorder.run_id();
      recorder.on_draws(batch(0, 0, 3, 0));
    }
    {
      store::RunRecorder recorder(path, spec_for(path, 2), doubled);
      failed = recorder.run_id();
      recorder.on_draws(batch(0, 0, 4, 0));
      recorder.fail("chain 1: no initial point");
    }
    store::Project project(path);
    QCOMPARE(project.run(dropped).status, store::RunStatus::interrupted);
    QCOMPARE(project.chain_draws(dropped, 0).rows, size_t{3});
    QCOMPARE(project.run(failed).status, store::RunStatus::failed);
    QCOMPARE(project.run(failed).error_message, std::string("chain 1: no initial point"));
    QCOMPARE(project.chain_draws(failed, 0).rows, size_t{4});
  }

  // Another writer holding the file past the busy timeout delays the commit; a write
  // that cannot succeed (here the file may not grow: RLIMIT_FSIZE, SIGXFSZ ignored)
  // stops the recording, and the next batch of every chain throws it.
  void aBusyCommitIsRetriedAndOneThatFailsForGoodStopsTheRun() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    ManualClock clock;
    store::RunRecorder recorder(path, spec_for(path, 2), doubled, commits_by_hand(clock));
    const store::Id run = recorder.run_id();

    sqlite3* other = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
    QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    recorder.on_draws(batch(0, 0, 10, 0));
    clock.milliseconds = 500;
    QVERIFY(!recorder.commit_if_due());  // after the 5 s busy timeout
    QVERIFY(recorder.last_error() && recorder.last_error()->find("locked") != std::string::npos);
    QVERIFY(!recorder.failure());
    sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(other);
    recorder.on_draws(batch(0, 10, 10, 0));  // due: commits both batches
    QCOMPARE(stored_rows(path, run, 0), size_t{20});

    rlimit unlimited{};
    getrlimit(RLIMIT_FSIZE, &unlimited);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    const auto size = [](const std::string& file) { return QFileInfo(QString::fromStdString(file)).size(); };
    const rlimit tight{static_cast<rlim_t>(std::max(size(path), size(path + "-wal")) + 16 * 1024), unlimited.rlim_max};
    setrlimit(RLIMIT_FSIZE, &tight);
    recorder.on_draws(batch(0, 20, 5000, 0));
    clock.milliseconds = 1000;
    const bool committed = recorder.commit_if_due();
    setrlimit(RLIMIT_FSIZE, &unlimited);
    std::signal(SIGXFSZ, previous);
    QVERIFY(!committed);
    QVERIFY2(recorder.failure() && recorder.failure()->find("the file cannot grow") != std::string::npos,
             recorder.last_error().value_or("no error").c_str());
    try {
      recorder.on_draws(batch(1, 0, 1, 0));
      QFAIL("a batch after the failure was taken");
    } catch (const store::ProjectError& e) {
      QVERIFY2(std::string(e.what()).find("the run stopped") != std::string::npos, e.what());
    }
    clock.milliseconds = 1500;
    QVERIFY(!recorder.commit_if_due());  // no more tries
    recorder.fail("stopped: the project cannot grow");
    store::Project project(path);
    QCOMPARE(project.run(run).status, store::RunStatus::failed);
    // fail() tried the buffer once more, and the file had room again.
    QCOMPARE(project.chain_draws(run, 0).rows, size_t{5020});
  }

  void columnsMustMatchTheOutputs() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    store::RunSpec spec = spec_for(path, 2);
    spec.columns.erase(spec.columns.begin());
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::RunRecorder(path, spec, doubled));
    store::RunRecorder recorder(path, spec_for(path, 3), doubled);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, recorder.on_draws(batch(0, 0, 2, 0)));
  }
};

QTEST_APPLESS_MAIN(TestRunRecorder)
#include "tst_run_recorder.moc"
