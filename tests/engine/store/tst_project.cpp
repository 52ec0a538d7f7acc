// A project file's records read back as written: models and their versions, data sets,
// runs with their chains, draw blocks, ELBO traces and diagnostics; writes that would
// break a run's table are refused and change nothing.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "engine/store/data_set_shapes.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/store/project.h"
#include "engine/store/stored_run_summary.h"

namespace store = variate::store;

namespace {

const char* const kModel = "data J: int\nmu ~ Normal(0, 5)\n";

std::string project_path(const QTemporaryDir& directory) {
  return directory.filePath("p.variate").toStdString();
}

// A NUTS run over one model version with columns lp__..energy__, mu, theta.1.
store::RunSpec nuts_spec(store::Project& project) {
  store::RunSpec spec;
  spec.name = "first";
  spec.config_json = R"({"chains": 2, "max_depth": 10})";
  spec.model_version_id = project.save_model("m", kModel).id;
  spec.data_set_id = project.save_data_set("d", R"({"J": 2})").id;
  spec.seed = 18446744073709551557ull;  // above INT64_MAX: stored as its bit pattern
  spec.columns = variate::sampler_column_names();
  spec.columns.push_back("mu");
  spec.columns.push_back("theta.1");
  return spec;
}

// Rows whose values encode (chain, iteration, column), so any misplacement shows.
store::DrawBlock block(int chain, int first, int rows, int columns) {
  store::DrawBlock b{chain, first, rows, columns, {}};
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) b.values.push_back(chain * 1e6 + (first + r) * 100.0 + c);
  }
  return b;
}

store::ChainRecord chain_record(int chain, int warmup) {
  store::ChainRecord record;
  record.chain = chain;
  record.warmup_iterations = warmup;
  return record;
}

}  // namespace

class TestProject : public QObject {
  Q_OBJECT

 private slots:
  void modelVersionsAreKeptAndIdenticalTextIsNotDuplicated() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    QVERIFY(!project.latest_model_version());
    const auto v1 = project.save_model("eight", "a ~ Normal(0, 1)\n");
    const auto again = project.save_model("eight", "a ~ Normal(0, 1)\n");
    QCOMPARE(again.id, v1.id);
    const auto v2 = project.save_model("eight", "a ~ Normal(0, 2)\n");
    const auto other = project.save_model("other", "b ~ Normal(0, 1)\n");
    QCOMPARE(v1.version, 1);
    QCOMPARE(v2.version, 2);
    QCOMPARE(other.version, 1);
    QCOMPARE(project.model_versions("eight").size(), size_t{2});
    QCOMPARE(project.latest_model_version("eight")->text, std::string("a ~ Normal(0, 2)\n"));
    QCOMPARE(project.latest_model_version()->model_name, std::string("other"));
    QCOMPARE(project.model_version(v1.id).text, std::string("a ~ Normal(0, 1)\n"));
    const auto models = project.models();
    QCOMPARE(models.size(), size_t{2});
    QCOMPARE(models[0].name, std::string("eight"));
    QCOMPARE(models[0].latest_version, 2);
    QCOMPARE(models[0].latest_version_id, v2.id);

    project.set_canvas_layout(v2.id, R"({"nodes": [{"name": "a", "x": 10}]})");
    QCOMPARE(project.model_version(v2.id).canvas_layout_json, std::string(R"({"nodes": [{"name": "a", "x": 10}]})"));
    QCOMPARE(project.model_version(v1.id).canvas_layout_json, std::string());
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.set_canvas_layout(9999, "{}"));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.model_version(9999));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.save_model("", "x"));
  }

  void dataSetsAreImmutableAndTheNewestShadowsOlderOnes() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const auto first = project.save_data_set("schools", R"({"J": 2, "y": [1.5, 2]})");
    QCOMPARE(project.save_data_set("schools", R"({"J": 2, "y": [1.5, 2]})").id, first.id);
    const auto second = project.save_data_set("schools", R"({"J": 1, "y": [3]})");
    QVERIFY(second.id != first.id);
    project.save_data_set("other", R"({"N": 0})");
    const auto sets = project.data_sets();
    QCOMPARE(sets.size(), size_t{2});
    QCOMPARE(sets[1].name, std::string("schools"));
    QCOMPARE(sets[1].id, second.id);
    QCOMPARE(project.data_set(first.id).json_text, std::string(R"({"J": 2, "y": [1.5, 2]})"));
    try {
      project.save_data_set("bad", "[1, 2]");
      QFAIL("a JSON array was accepted as a data set");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("data set 'bad'") && QString(e.what()).contains("JSON object"), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.save_data_set("bad", "{\"J\": "));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.data_set(9999));
  }

  void dataSetShapesComeFromTheJson() {
    const auto shapes = store::data_set_shapes("d", R"({"N": 3, "y": [1.5, 2, 3], "X": [[1, 2], [3, 4], [5, 6]]})");
    QCOMPARE(shapes.size(), size_t{3});
    QCOMPARE(shapes[0].name, std::string("N"));
    QVERIFY(shapes[0].shape.empty() && shapes[0].integer);
    QCOMPARE(shapes[1].name, std::string("X"));
    QVERIFY((shapes[1].shape == std::vector<int64_t>{3, 2}) && shapes[1].integer);
    QVERIFY((shapes[2].shape == std::vector<int64_t>{3}) && !shapes[2].integer);
    try {
      store::data_set_shapes("ragged", R"({"X": [[1, 2], [3]]})");
      QFAIL("a ragged array was accepted");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("ragged"), e.what());
    }
  }

  void runRecordsRoundTripAcrossReopening() {
    QTemporaryDir directory;
    const std::string path = project_path(directory);
    store::Id run = 0;
    std::vector<double> inverse_metric = {0.5, 2.0};
    {
      store::Project project(path, store::Project::OpenMode::create);
      const store::RunSpec spec = nuts_spec(project);
      run = project.create_run(spec);
      store::RunUpdate update;
      update.chains = {chain_record(0, 3), chain_record(1, 3)};
      update.blocks = {block(0, 0, 2, 9), block(1, 0, 4, 9)};
      project.write(run, update);
      store::ChainRecord adapted = chain_record(0, 3);
      adapted.step_size = 0.25;
      adapted.metric = "diag_e";
      adapted.inverse_metric = inverse_metric;
      adapted.last_position = {0.1, -0.2};
      store::DrawBlock with_nan = block(0, 2, 3, 9);
      with_nan.values[9 + 8] = std::numeric_limits<double>::quiet_NaN();
      with_nan.values[9 + 6] = -std::numeric_limits<double>::infinity();
      project.write(run, {{with_nan}, {adapted}, {}});
      project.set_diagnostics(run, R"({"parameters": {}})");
      project.finish_run(run, store::RunStatus::finished);
    }
    store::Project project(path);
    const auto runs = project.runs();
    QCOMPARE(runs.size(), size_t{1});
    const store::RunInfo& info = runs[0];
    QCOMPARE(info.id, run);
    QCOMPARE(info.name, std::string("first"));
    QCOMPARE(info.method, store::RunMethod::nuts);
    QCOMPARE(info.seed, uint64_t{18446744073709551557ull});
    QCOMPARE(info.status, store::RunStatus::finished);
    QCOMPARE(info.chains, 2);
    QVERIFY(info.has_diagnostics);
    QVERIFY(info.started_at && info.finished_at && *info.finished_at >= *info.started_at);
    QCOMPARE(info.columns.size(), size_t{9});
    QCOMPARE(info.columns[8], std::string("theta.1"));
    QCOMPARE(project.model_version(info.model_version_id).text, std::string(kModel));
    QCOMPARE(project.data_set(*info.data_set_id).json_text, std::string(R"({"J": 2})"));
    QCOMPARE(*project.diagnostics_json(run), std::string(R"({"parameters": {}})"));

    const auto chains = project.chains(run);
    QCOMPARE(chains.size(), size_t{2});
    QCOMPARE(*chains[0].step_size, 0.25);
    QCOMPARE(chains[0].metric, std::string("diag_e"));
    QVERIFY(chains[0].inverse_metric == inverse_metric);
    QVERIFY((chains[0].last_position == std::vector<double>{0.1, -0.2}));
    QVERIFY(!chains[1].step_size);

    const store::ChainDraws first = project.chain_draws(run, 0);
    QCOMPARE(first.rows, size_t{5});
    QCOMPARE(first.warmup_iterations, 3);
    QCOMPARE(first.sampling_rows(), size_t{2});
    QCOMPARE(first.at(4, 3), 0 * 1e6 + 4 * 100.0 + 3);
    QVERIFY(std::isnan(first.at(3, 8)));
    QCOMPARE(first.at(3, 6), -std::numeric_limits<double>::infinity());
    QVERIFY((first.column("mu") == std::vector<double>{307, 407}));
    QCOMPARE(first.column("mu", true).size(), size_t{5});
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, first.column("nope"));
    const auto all = project.draws(run);
    QCOMPARE(all.size(), size_t{2});
    QCOMPARE(all[1].rows, size_t{4});
    QCOMPARE(all[1].at(3, 0), 1e6 + 300.0);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.chain_draws(run, 5));
  }

  void elboTraceRoundTrips() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    store::RunSpec spec = nuts_spec(project);
    spec.method = store::RunMethod::advi;
    spec.columns = {"lp__", "log_p__", "log_g__", "mu"};
    const store::Id run = project.create_run(spec);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    project.write(run, {{}, {}, {{100, -50.5, nan}, {200, -40.25, 0.2}}});
    project.write(run, {{}, {}, {{300, -39.0, 0.03}}});
    const auto trace = project.elbo_trace(run);
    QCOMPARE(trace.size(), size_t{3});
    QCOMPARE(trace[0].iteration, 100);
    QVERIFY(std::isnan(trace[0].rel_change));
    QCOMPARE(trace[1].elbo, -40.25);
    QCOMPARE(trace[2].rel_change, 0.03);
    QCOMPARE(project.run(run).method, store::RunMethod::advi);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write(run, {{}, {}, {{300, -1.0, 0.0}}}));
  }

  // Independent draws from an approximation (here Pathfinder's): no R-hat, ESS the number
  // of draws, the exact MCSE; a NUTS run of the same rows keeps its R-hat.
  void approximationRunsAreSummarizedAsIndependentDraws() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    store::RunSpec spec = nuts_spec(project);
    spec.method = store::RunMethod::pathfinder;
    spec.columns = {"lp__", "log_p__", "log_g__", "mu"};
    const store::Id run = project.create_run(spec);
    std::vector<double> values;
    for (int i = 0; i < 40; ++i) values.insert(values.end(), {0, -1.0 - i, -1.5, double(i % 7)});
    project.write(run, {{{0, 0, 40, 4, values}}, {chain_record(0, 0)}, {}});
    project.finish_run(run, store::RunStatus::finished);
    const store::StoredRunSummary summary = store::summarize_run(project, run);
    QCOMPARE(summary.parameters.size(), size_t{1});
    const auto& mu = summary.parameters[0];
    QCOMPARE(mu.name, std::string("mu"));
    QVERIFY(std::isnan(mu.r_hat));
    QCOMPARE(mu.ess_bulk, 40.0);
    QCOMPARE(mu.ess_tail, 40.0);
    QCOMPARE(mu.mcse_mean, mu.sd / std::sqrt(40.0));
    QVERIFY(summary.json().find("\"r_hat\": null") != std::string::npos ||
            summary.json().find("\"r_hat\":null") != std::string::npos);
    QVERIFY(store::draws_are_independent(store::RunMethod::optimize));
    QVERIFY(store::draws_are_independent(store::RunMethod::advi));
    QVERIFY(!store::draws_are_independent(store::RunMethod::nuts));
  }

  // A damaged NUTS run is summarized without reading past its rows: one with fewer
  // columns than the sampler's has no totals, and an n_leapfrog__ that is no count (its
  // int64 conversion was undefined) is named.
  void damagedNutsRunsAreSummarizedSafely() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    store::RunSpec spec = nuts_spec(project);
    spec.columns = {"lp__", "mu"};
    const store::Id narrow = project.create_run(spec);
    project.write(narrow, {{block(0, 0, 3, 2)}, {chain_record(0, 0)}, {}});
    QVERIFY(!store::summarize_run(project, narrow).totals);

    store::RunSpec wide = nuts_spec(project);
    wide.name = "wide";
    const store::Id run = project.create_run(wide);
    store::DrawBlock rows = block(0, 0, 3, 9);
    rows.values[9 + 4] = std::nan("");  // row 2's n_leapfrog__
    project.write(run, {{rows}, {chain_record(0, 0)}, {}});
    try {
      store::summarize_run(project, run);
      QFAIL("no exception");
    } catch (const store::ProjectError& e) {
      QVERIFY2(QString(e.what()).endsWith(": run 2: n_leapfrog__ holds nan, not a count of steps (the file is damaged)"),
               e.what());
    }
  }

  // Gradient evaluations are summed from the chains' records: a damaged count that is
  // negative, or whose sum is beyond int64 (a signed overflow), is named.
  void damagedGradientCountsAreNamed() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    for (const int64_t count : {int64_t{-5}, std::numeric_limits<int64_t>::max()}) {
      store::RunSpec spec = nuts_spec(project);
      spec.name = "gradients " + std::to_string(count);
      const store::Id run = project.create_run(spec);
      store::ChainRecord first = chain_record(0, 0), second = chain_record(1, 0);
      first.gradient_evaluations = 10;
      second.gradient_evaluations = count;
      project.write(run, {{block(0, 0, 3, 9), block(1, 0, 3, 9)}, {first, second}, {}});
      try {
        store::summarize_run(project, run);
        QFAIL("no exception");
      } catch (const store::ProjectError& e) {
        QVERIFY2(QString(e.what()).endsWith(": run " + QString::number(run) + ": chain 2 holds " + QString::number(count) +
                                            " gradient evaluations, not a count the run can have made (the file is damaged)"),
                 e.what());
      }
    }
  }

  void writesThatBreakATableAreRefusedWhole() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = project.create_run(nuts_spec(project));
    project.write(run, {{block(0, 0, 2, 9)}, {chain_record(0, 0)}, {}});
    // A gap, an overlap, a wrong width, a short block: each refused with nothing written,
    // not even the valid block or chain record of the same update.
    const std::vector<store::DrawBlock> bad = {block(0, 3, 1, 9), block(0, 1, 1, 9), block(0, 2, 1, 8),
                                               {0, 2, 2, 9, std::vector<double>(9)}};
    for (const auto& b : bad) {
      try {
        project.write(run, {{block(1, 0, 1, 9), b}, {chain_record(1, 0)}, {}});
        QFAIL("a bad block was written");
      } catch (const store::ProjectError& e) {
        QVERIFY2(QString(e.what()).startsWith("project '") && QString(e.what()).contains("chain 1"), e.what());
      }
      QCOMPARE(project.chains(run).size(), size_t{1});
      QCOMPARE(project.chain_draws(run, 0).rows, size_t{2});
    }
    // A chain's blocks need the chain's record (foreign key).
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.write(run, {{block(3, 0, 1, 9)}, {}, {}}));
    store::RunSpec missing = nuts_spec(project);
    missing.model_version_id = 9999;
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.create_run(missing));
  }

  void runsAreRenamedAndDeletedWithEverythingTheyOwn() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    store::RunSpec spec = nuts_spec(project);
    spec.name = "";
    const store::Id first = project.create_run(spec);
    const store::Id second = project.create_run(spec);
    QCOMPARE(project.run(first).name, "run " + std::to_string(first));
    project.rename_run(first, "baseline");
    QCOMPARE(project.run(first).name, std::string("baseline"));
    project.set_run_config(first, R"({"worker": {"job": "0123456789abcdef"}})");
    QCOMPARE(project.run(first).config_json, std::string(R"({"worker": {"job": "0123456789abcdef"}})"));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.set_run_config(9999, "{}"));
    project.write(first, {{block(0, 0, 5, 9)}, {chain_record(0, 1)}, {{1, -2.0, 0.5}}});
    project.write(second, {{block(0, 0, 1, 9)}, {chain_record(0, 0)}, {}});
    project.delete_run(first);
    QCOMPARE(project.runs().size(), size_t{1});
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.run(first));
    QVERIFY(project.chains(first).empty());
    QVERIFY(project.elbo_trace(first).empty());
    QCOMPARE(project.chain_draws(second, 0).rows, size_t{1});
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.delete_run(first));
    project.finish_run(second, store::RunStatus::failed, "the model threw");
    QCOMPARE(project.run(second).status, store::RunStatus::failed);
    QCOMPARE(project.run(second).error_message, std::string("the model threw"));
  }

  // Front ends name runs (`--run`, `compare`, the studio), so a name is unique and never a
  // number alone (that names a run by id): refused at creation and at a rename. A default
  // name ("run ID") steps aside from a run a user named so before.
  void runNamesAreUnique() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    store::RunSpec spec = nuts_spec(project);
    const store::Id first = project.create_run(spec);
    try {
      project.create_run(spec);
      QFAIL("a second run named 'first' was created");
    } catch (const store::ProjectError& e) {
      QVERIFY2(std::string(e.what()).find("already has a run named 'first' (run 1): run names are unique") !=
                   std::string::npos,
               e.what());
    }
    QCOMPARE(project.runs().size(), size_t{1});
    spec.name = "12";
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.create_run(spec));
    spec.name = "run 2";  // the id the next run takes
    const store::Id named = project.create_run(spec);
    spec.name = "";
    const store::Id unnamed = project.create_run(spec);
    QCOMPARE(named, store::Id{2});
    QCOMPARE(project.run(unnamed).name, std::string("run 3"));
    spec.name = "";
    const store::Id fourth = project.create_run(spec);
    project.rename_run(fourth, "run 5");
    const store::Id fifth = project.create_run(spec);
    QCOMPARE(project.run(fifth).name, std::string("run 5 (2)"));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.rename_run(unnamed, "first"));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.rename_run(unnamed, "7"));
    project.rename_run(first, "first");  // its own name
    QCOMPARE(project.run(unnamed).name, std::string("run 3"));
  }

  // A run's record counts the draws after warmup it stored, the shortest chain's.
  void aRunCountsItsStoredDraws() {
    QTemporaryDir directory;
    store::Project project(project_path(directory), store::Project::OpenMode::create);
    const store::Id run = project.create_run(nuts_spec(project));
    QCOMPARE(project.run(run).sampling_draws, int64_t{0});
    project.write(run, {{block(0, 0, 5, 9), block(1, 0, 7, 9)}, {chain_record(0, 2), chain_record(1, 2)}, {}});
    QCOMPARE(project.run(run).sampling_draws, int64_t{3});
    project.write(run, {{block(0, 5, 4, 9)}, {}, {}});
    QCOMPARE(project.runs().front().sampling_draws, int64_t{5});
  }

  void theLogIsCheckpointedWhileARunIsWritten() {
    QTemporaryDir directory;
    const std::string path = project_path(directory);
    store::Project project(path, store::Project::OpenMode::create);
    const store::Id run = project.create_run(nuts_spec(project));
    project.write(run, {{}, {chain_record(0, 0)}, {}});
    for (int commit = 0; commit < 400; ++commit) project.write(run, {{block(0, commit * 500, 500, 9)}, {}, {}});
    // 14 MB of draws: SQLite checkpoints the log every 1000 pages (4 MB) unless a
    // statement left open holds a read transaction, as a careless reader would.
    const QFileInfo log(QString::fromStdString(path + "-wal")), file(QString::fromStdString(path));
    QVERIFY2(log.size() < 6'000'000, qPrintable(QString::number(log.size())));
    QVERIFY2(file.size() > 8'000'000, qPrintable(QString::number(file.size())));
    QCOMPARE(project.chain_draws(run, 0).rows, size_t{200000});
  }

  void settingsRoundTripAcrossReopening() {
    QTemporaryDir directory;
    const std::string path = directory.filePath("p.variate").toStdString();
    {
      store::Project project(path, store::Project::OpenMode::create);
      QVERIFY(!project.setting("studio.run_config"));
      project.set_setting("studio.run_config", R"({"chains": 2})");
      project.set_setting("studio.run_config", R"({"chains": 3})");  // replaced, not added
      project.set_setting("other", "");
      QVERIFY_THROWS_EXCEPTION(store::ProjectError, project.set_setting("", "x"));
    }
    store::Project project(path);
    QCOMPARE(project.setting("studio.run_config").value_or("<none>"), std::string(R"({"chains": 3})"));
    QCOMPARE(project.setting("other").value_or("<none>"), std::string());
    QVERIFY(!project.setting("missing"));
  }

  void statusAndMethodNamesRoundTrip() {
    for (auto status : {store::RunStatus::running, store::RunStatus::finished, store::RunStatus::stopped,
                        store::RunStatus::interrupted, store::RunStatus::failed}) {
      QCOMPARE(store::run_status_from_string(store::to_string(status)), status);
    }
    for (auto method : {store::RunMethod::nuts, store::RunMethod::advi, store::RunMethod::amortized,
                        store::RunMethod::optimize, store::RunMethod::pathfinder}) {
      QCOMPARE(store::run_method_from_string(store::to_string(method)), method);
    }
    QCOMPARE(std::string(store::to_string(store::RunMethod::optimize)), std::string("optimize"));
    QCOMPARE(std::string(store::to_string(store::RunMethod::pathfinder)), std::string("pathfinder"));
    QCOMPARE(store::run_method_from_string("advi"), store::RunMethod::advi);
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::run_method_from_string("laplace"));
    QVERIFY_THROWS_EXCEPTION(store::ProjectError, store::run_status_from_string("paused"));
  }
};

QTEST_APPLESS_MAIN(TestProject)
#include "tst_project.moc"
