// `variate export` round trip: a model is exported, its program built against this build
// tree (find_package(Variate) with Variate_DIR, through ccache), and run beside `variate`:
// `logp` of model.h's C++ at three points equals `variate logp --backend torch` (to 1e-10
// relative; in practice to the bit), `sample` with one seed draws what `variate sample`
// draws on either backend, and `fit` agrees with `variate fit`. The program is `variate`'s
// command line (Variate::cli) on the model of its model.h: the same commands and options,
// less those that need the .vmod file; a model.h edited by hand runs as written. Two models
// run in CI (eight schools and a model of the features the reference models lack); every
// reference model runs with VARIATE_EXPORT_ALL=1, as `cmake --build BUILD --target
// export_roundtrip_all`. A program also builds against an installed Variate.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

#include "engine/diagnostics/summary.h"
#include "engine/io/data_file.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/model/compile.h"

namespace vt = variate;

namespace {

const QString kTests = QStringLiteral(QT_TESTCASE_SOURCEDIR "/");

using app_test::Outcome;
using app_test::read_json;

Outcome run(const QString& program, const QStringList& arguments) {
  return app_test::run_program(program, arguments, 20 * 60 * 1000);
}

// Where the programs are built: one stable folder per model, so ccache finds its objects.
QString work_folder(const QString& name) {
  return QStringLiteral(VARIATE_EXPORT_WORK_DIR "/") + name;
}

// A tensor as nested JSON arrays, numbers written to read back exactly.
std::string to_json(const at::Tensor& t) {
  if (t.dim() == 0) return QString::number(t.item<double>(), 'g', 17).toStdString();
  std::string text = "[";
  for (int64_t i = 0; i < t.size(0); ++i) text += (i ? ", " : "") + to_json(t[i]);
  return text + "]";
}

// Three points inside the support: the images of seeded uniform(-1.5, 1.5) unconstrained
// vectors, as params files for `logp`.
QStringList write_points(const QString& model, const QString& data, const QString& folder) {
  const vt::Data given = vt::io::read_data_file(data.toStdString());
  const auto result = vt::model::compile_model(
      vt::model::Source(model.toStdString(), vt::io::read_text_file(model.toStdString())), &given);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  const auto& layout = result.model->layout();
  at::Generator generator = at::detail::createCPUGenerator(2024);
  QStringList files;
  for (int k = 0; k < 3; ++k) {
    const at::Tensor theta = at::rand({layout.dimension()}, generator, at::kDouble) * 3 - 1.5;
    const auto values = layout.constrain(theta).values;
    std::string json = "{";
    for (const auto& [name, value] : values) {
      json += (json.size() > 1 ? ", \"" : "\"") + name + "\": " + to_json(value);
    }
    const QString file = folder + "/point_" + QString::number(k) + ".json";
    QFile out(file);
    out.open(QIODevice::WriteOnly);
    out.write((json + "}\n").c_str());
    files << file;
  }
  return files;
}

std::vector<double> flattened(const QJsonValue& value) {
  if (!value.isArray()) return {value.isNull() ? NAN : value.toDouble()};
  std::vector<double> all;
  for (const auto& item : value.toArray()) {
    const auto inner = flattened(item);
    all.insert(all.end(), inner.begin(), inner.end());
  }
  return all;
}

double relative(double a, double b) {
  if (a == b) return 0;
  return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

// The CSV files of one run, chain by chain.
std::vector<vt::io::StanCsv> read_chains(const QString& folder, int chains) {
  std::vector<vt::io::StanCsv> result;
  for (int c = 1; c <= chains; ++c) {
    result.push_back(vt::io::read_stan_csv(
        (folder + "/chain_" + QString::number(c) + ".csv").toStdString()));
  }
  return result;
}

vt::diagnostics::ParameterSummary summary(const std::vector<vt::io::StanCsv>& chains, size_t column) {
  vt::diagnostics::Draws draws;
  for (const auto& chain : chains) {
    std::vector<double> values;
    for (const auto& row : chain.draws) values.push_back(row[column]);
    draws.push_back(values);
  }
  return vt::diagnostics::summarize(chains[0].columns[column], draws);
}

// Two runs' draws: the same trajectories and values to 1e-12 (the last bits of values
// computed for a batch of draws at once may differ); where `identical` is false, alike in
// distribution (a fused likelihood rounds otherwise and trajectories part after a while).
void compare_draws(const std::vector<vt::io::StanCsv>& a, const std::vector<vt::io::StanCsv>& b, bool identical,
                   const QString& name) {
  QCOMPARE(a[0].columns, b[0].columns);
  bool same_trajectories = true;
  size_t values = 0, equal_values = 0;
  double largest = 0;
  for (size_t c = 0; c < a.size(); ++c) {
    QCOMPARE(a[c].draws.size(), b[c].draws.size());
    same_trajectories = same_trajectories && a[c].adaptation->step_size == b[c].adaptation->step_size &&
                        a[c].adaptation->inverse_metric == b[c].adaptation->inverse_metric;
    for (size_t i = 0; i < a[c].draws.size(); ++i) {
      for (size_t j = 0; j < a[c].columns.size(); ++j) {
        const double x = a[c].draws[i][j], y = b[c].draws[i][j];
        if (j < 7) {  // lp__ ... energy__: what NUTS did
          same_trajectories = same_trajectories && x == y;
          continue;
        }
        ++values;
        equal_values += x == y;
        largest = std::max(largest, relative(x, y));
      }
    }
  }
  if (same_trajectories) {
    qInfo("%s: same draws: %zu of %zu values identical to the bit, the others within %.1e", qPrintable(name),
          equal_values, values, largest);
    QVERIFY2(largest <= 1e-12, qPrintable(QString::number(largest)));
    return;
  }
  QVERIFY2(!identical, "the trajectories of NUTS differ");
  // Equal means within Monte Carlo error, column by column (4 standard errors).
  for (size_t j = 7; j < a[0].columns.size(); ++j) {
    const auto x = summary(a, j), y = summary(b, j);
    const double error = std::hypot(x.mcse_mean, y.mcse_mean);
    if (!std::isfinite(error)) continue;  // a constant column has no Monte Carlo error
    QVERIFY2(std::abs(x.mean - y.mean) <= 4 * error, qPrintable(QString("%1: %2 vs %3 (MCSE %4, %5)")
                                                                    .arg(QString::fromStdString(x.name))
                                                                    .arg(x.mean)
                                                                    .arg(y.mean)
                                                                    .arg(x.mcse_mean)
                                                                    .arg(y.mcse_mean)));
  }
  qInfo("%s: draws part (a fused likelihood, or gradient terms summed in another order); every mean within 4 MCSE",
        qPrintable(name));
}

// Builds the exported program in `source` (its folder) as `name` with `prefix`
// (-DVariate_DIR=... or -DCMAKE_PREFIX_PATH=...); returns the program, or an empty string
// after a failed QVERIFY.
QString build(const QString& source, const QString& name, const QString& prefix) {
  QStringList configure = {"-S",
                           source,
                           "-B",
                           source + "/build",
                           "-G",
                           VARIATE_CMAKE_GENERATOR,
                           "-DCMAKE_BUILD_TYPE=Release",
                           "-DCMAKE_CXX_COMPILER=" VARIATE_CXX_COMPILER,
                           prefix};
  if (QFileInfo::exists(VARIATE_CCACHE)) configure << "-DCMAKE_CXX_COMPILER_LAUNCHER=" VARIATE_CCACHE;
  Outcome outcome = run(VARIATE_CMAKE_COMMAND, configure);
  if (outcome.exit_code != 0) {
    QTest::qVerify(false, "configure", qPrintable(outcome.output), __FILE__, __LINE__);
    return {};
  }
  QElapsedTimer timer;
  timer.start();
  outcome = run(VARIATE_CMAKE_COMMAND, {"--build", source + "/build"});
  if (outcome.exit_code != 0) {
    QTest::qVerify(false, "build", qPrintable(outcome.output), __FILE__, __LINE__);
    return {};
  }
  qInfo("%s: built in %.1f s", qPrintable(name), timer.elapsed() / 1000.0);
  return source + "/build/" + name;
}

// Exports `model_file` as the program `name` into folder/program and builds it.
QString export_and_build(const QString& model_file, const QString& name, const QString& folder, const QString& prefix) {
  const Outcome outcome = run(VARIATE_EXECUTABLE, {"export", model_file, "--cpp", folder + "/program", "--name", name});
  if (outcome.exit_code != 0) {
    QTest::qVerify(false, "export", qPrintable(outcome.output), __FILE__, __LINE__);
    return {};
  }
  return build(folder + "/program", name, prefix);
}

}  // namespace

// `fit` (ADVI) with one seed: the draws of the approximation agree with `variate fit`'s to
// the last bits where the optimization took the same path, else in distribution.
void compare_fits(const QString& program, const QString& model_file, const QString& data_file,
                  const QString& folder, const QString& name) {
  const QStringList options = {"--seed", "20240", "--output-draws", "400"};
  Outcome outcome = run(program, QStringList{"fit", "--data", data_file, "--output", folder + "/exported_fit",
                                             "--summary-json", folder + "/exported_fit.json"} + options);
  QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
  // `variate fit`'s report: the ELBO trace, and the fit in the summary JSON.
  QVERIFY2(outcome.output.contains("iter             ELBO   delta_ELBO_mean"), qPrintable(outcome.output));
  QFile summary_file(folder + "/exported_fit.json");
  QVERIFY(summary_file.open(QIODevice::ReadOnly));
  const QJsonObject fit = QJsonDocument::fromJson(summary_file.readAll()).object()["variational"].toObject();
  QCOMPARE(fit["draws"].toInt(), 400);
  QVERIFY2(fit["status"].toString() == "converged" || fit["status"].toString() == "max_iterations",
           qPrintable(fit["status"].toString()));
  outcome = run(
      VARIATE_EXECUTABLE,
      QStringList{"fit", model_file, "--data", data_file, "--quiet", "--output", folder + "/variate_fit"} + options);
  QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
  const auto a = vt::io::read_stan_csv((folder + "/exported_fit/variational.csv").toStdString());
  const auto b = vt::io::read_stan_csv((folder + "/variate_fit/variational.csv").toStdString());
  QCOMPARE(a.columns, b.columns);
  QCOMPARE(a.draws.size(), b.draws.size());
  double largest = 0;
  for (size_t i = 0; i < a.draws.size(); ++i) {
    for (size_t j = 3; j < a.columns.size(); ++j) largest = std::max(largest, relative(a.draws[i][j], b.draws[i][j]));
  }
  if (largest <= 1e-12) {
    qInfo("%s: fit draws the same, within %.1e", qPrintable(name), largest);
    return;
  }
  // Another path (an ELBO that rounds differently decided eta or convergence): the
  // approximations agree within their Monte Carlo error and a tenth of a posterior sd.
  for (size_t j = 3; j < a.columns.size(); ++j) {
    double mean_a = 0, mean_b = 0, sd = 0;
    const double n = static_cast<double>(a.draws.size());
    for (size_t i = 0; i < a.draws.size(); ++i) {
      mean_a += a.draws[i][j] / n;
      mean_b += b.draws[i][j] / n;
    }
    for (size_t i = 0; i < a.draws.size(); ++i) sd += std::pow(a.draws[i][j] - mean_a, 2) / (n - 1);
    sd = std::sqrt(sd);
    QVERIFY2(std::abs(mean_a - mean_b) <= 4 * std::sqrt(2 / n) * sd + 0.1 * sd,
             qPrintable(QString::fromStdString(a.columns[j])));
  }
  qInfo("%s: fit draws differ (max %.1e); the approximations agree", qPrintable(name), largest);
}

class TestExportRoundTrip : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip_data() {
    QTest::addColumn<QString>("model");   // folder under tests/data
    QTest::addColumn<QString>("name");    // of the program
    QTest::addColumn<bool>("identical");  // the draws must be the same, not just alike
    QTest::addColumn<QStringList>("sampling");
    const QStringList quick = {"--chains", "2", "--warmup", "150", "--draws", "100"};
    const QStringList longer = {"--chains", "2", "--warmup", "300", "--draws", "300"};
    // The C++ API's example (docs/CPP_API.md); every constraint, a Mixture, multivariate families,
    // reductions, powers and integer-array indices; each addition to the language (vector
    // literals, logic, '? :', recurrences, truncation, `target +=`, bounds on data). On LibTorch
    // the last parts from `variate sample --backend torch` after a while: C++ leaves the order
    // of evaluating `a + b`'s operands open, and autograd sums a parameter's gradient terms in
    // the order they were made, so an expression that reads two parameters may round its
    // gradient otherwise in the last bit.
    QTest::newRow("eight_schools") << "reference/eight_schools-eight_schools_noncentered"
                                   << "eight_schools" << true << quick;
    QTest::newRow("mixture") << "export/mixture" << "mixture" << true
                             << QStringList{"--chains", "2", "--warmup", "100", "--draws", "50"};
    QTest::newRow("language") << "export/language"
                              << "language" << false << longer;
    if (qEnvironmentVariableIsEmpty("VARIATE_EXPORT_ALL")) return;
    // Every reference model and shipped project (a minute or two each). Where `variate
    // sample --backend torch` evaluates a likelihood with a fused GLM kernel, or an expression
    // reads two parameters, the draws on LibTorch agree in distribution only: equal means
    // within Monte Carlo error. On the tape they are identical for every one.
    QTest::newRow("gp_pois_regr") << "reference/gp_pois_regr-gp_pois_regr" << "gp_pois_regr" << true
                                  << QStringList{"--chains", "1", "--warmup", "100", "--draws", "50"};
    for (const char* model :
         {"arK-arK", "arma-arma11", "diamonds-diamonds", "earnings-earn_height", "earnings-logearn_interaction",
          "hmm_example-hmm_example", "kidiq-kidscore_interaction", "kidiq-kidscore_momhsiq",
          "kilpisjarvi_mod-kilpisjarvi", "mesquite-logmesquite_logvas", "mesquite-mesquite", "sblrc-blr"}) {
      const QString folder = QString("reference/") + model;
      QTest::newRow(model) << folder << QString(model).section('-', 1) << false << longer;
    }
    for (const char* project : {"eight_schools", "radon", "arsenic_wells"}) {
      QTest::newRow(project) << QString("../../projects/") + project << QString(project) << false << longer;
    }
  }

  // The exported program's command line is `variate`'s, without what needs the model text;
  // it builds against an installed Variate as well as against the build tree.
  void programFromAnInstall() {
    const QString folder = work_folder("installed");
    QDir(folder).removeRecursively();
    QVERIFY(QDir().mkpath(folder));
    // What the two packages install: libvariate.so is the runtime's, the rest the
    // development package's.
    Outcome outcome;
    for (const char* component : {"Runtime", "Development"}) {
      outcome = run(VARIATE_CMAKE_COMMAND, {"--install", VARIATE_BUILD_DIR, "--prefix", folder + "/prefix",
                                            "--component", component});
      QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    }
    QVERIFY(QFileInfo::exists(folder + "/prefix/include/variate/engine/cli/exported_program.h"));
    const QString model_file = kTests + "data/reference/eight_schools-eight_schools_noncentered/model.vmod";
    const QString program =
        export_and_build(model_file, "eight_schools", folder, "-DCMAKE_PREFIX_PATH=" + folder + "/prefix");
    if (program.isEmpty()) return;

    outcome = run(program, {"--version"});
    QCOMPARE(outcome.exit_code, 0);
    QVERIFY2(outcome.output.startsWith("eight_schools (exported from model.vmod), on Variate " VARIATE_VERSION_STRING),
             qPrintable(outcome.output));
    outcome = run(program, {"--help"});
    QCOMPARE(outcome.exit_code, 0);
    for (const char* command : {"sample", "fit", "logp"}) QVERIFY2(outcome.output.contains(command), command);
    for (const char* command : {"\n  check", "\n  summary", "\n  export"}) {  // `variate`'s, on .vmod files
      QVERIFY2(!outcome.output.contains(command), qPrintable(outcome.output));
    }
    outcome = run(program, {"sample", "--help"});
    QCOMPARE(outcome.exit_code, 0);
    for (const char* option : {"--data", "--chains", "--seed", "--output", "--summary-json", "--batched-chains", "--quiet"}) {
      QVERIFY2(outcome.output.contains(option), option);
    }
    // --backend chooses between the tape, from model.h's text, and model.h's C++.
    QVERIFY2(outcome.output.contains("\n  --backend "), qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("not offered: --dtype and --device"), qPrintable(outcome.output));
    for (const char* option : {"--dtype", "--device", "--project", "--nproc", "--rendezvous", "--shard", "--worker"}) {
      QVERIFY2(!outcome.output.contains(QString("\n  ") + option + " "), option);
    }
    outcome = run(program, {"sample", "--dtype", "float32"});
    QVERIFY(outcome.exit_code != 0);
    QVERIFY2(outcome.output.contains("--dtype"), qPrintable(outcome.output));
    // Data the model needs and was not given: its data function says which.
    outcome = run(program, {"sample", "--quiet"});
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: data 'J' is declared but missing from the data"), qPrintable(outcome.output));
  }

  void roundTrip() {
    QFETCH(QString, model);
    QFETCH(QString, name);
    QFETCH(bool, identical);
    QFETCH(QStringList, sampling);
    // model.vmod, or a shipped project's one .vmod file.
    const QDir source(kTests + "data/" + model);
    const QString model_file = source.filePath(source.entryList({"*.vmod"}).value(0));
    const QString data_file = source.filePath("data.json");
    const QString folder = work_folder(name);
    QDir(folder).removeRecursively();
    QVERIFY(QDir().mkpath(folder));

    const QString program = export_and_build(model_file, name, folder, "-DVariate_DIR=" VARIATE_BUILD_DIR);
    if (program.isEmpty()) return;
    Outcome outcome;

    // The log density and its gradient, without and with the Jacobian.
    int identical_points = 0;
    for (const QString& point : write_points(model_file, data_file, folder)) {
      for (const QStringList& extra : {QStringList{}, QStringList{"--jacobian"}}) {
        // model.h's C++ (--backend torch) against the text on LibTorch.
        const Outcome ours =
            run(program, QStringList{"logp", "--data", data_file, "--params", point, "--backend", "torch"} + extra);
        const Outcome theirs = run(VARIATE_EXECUTABLE, QStringList{"logp", model_file, "--data", data_file, "--params",
                                                                   point, "--backend", "torch"} + extra);
        QVERIFY2(ours.exit_code == 0, qPrintable(ours.output));
        QVERIFY2(theirs.exit_code == 0, qPrintable(theirs.output));
        const QJsonObject a = QJsonDocument::fromJson(ours.output.toUtf8()).object();
        const QJsonObject b = QJsonDocument::fromJson(theirs.output.toUtf8()).object();
        const double lp_a = a["log_density"].toDouble(), lp_b = b["log_density"].toDouble();
        QVERIFY2(std::isfinite(lp_b), qPrintable(theirs.output));
        QVERIFY2(relative(lp_a, lp_b) <= 1e-10, qPrintable(QString("%1 vs %2").arg(lp_a, 0, 'g', 17).arg(lp_b, 0, 'g', 17)));
        const QJsonObject ga = a["gradient"].toObject(), gb = b["gradient"].toObject();
        QCOMPARE(ga.keys(), gb.keys());
        bool same = lp_a == lp_b;
        for (const QString& parameter : gb.keys()) {
          const auto x = flattened(ga[parameter]), y = flattened(gb[parameter]);
          QCOMPARE(x.size(), y.size());
          double scale = 1;
          for (double g : y) scale = std::max(scale, std::abs(g));
          for (size_t i = 0; i < x.size(); ++i) {
            QVERIFY2(std::abs(x[i] - y[i]) <= 1e-8 * scale, qPrintable(parameter));
            same = same && x[i] == y[i];
          }
        }
        identical_points += same;
      }
    }
    qInfo("%s: logp identical to the bit at %d of 6 evaluations", qPrintable(name), identical_points);

    // Sampling with one seed: on the tape (from model.h's text, which agrees with its C++),
    // the draws `variate sample` makes, to the bit; with --backend torch, model.h's C++ on
    // LibTorch against the text on LibTorch.
    const QStringList options = sampling + QStringList{"--seed", "20240", "--quiet"};
    for (const QString& backend : {QString("auto"), QString("torch")}) {
      const QStringList chosen = options + QStringList{"--backend", backend};
      const QString exported = folder + "/exported_" + backend, ours = folder + "/variate_" + backend;
      outcome = run(program, QStringList{"sample", "--data", data_file, "--output", exported, "--summary-json",
                                         exported + ".json"} +
                                 chosen);
      QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
      outcome = run(VARIATE_EXECUTABLE, QStringList{"sample", model_file, "--data", data_file, "--output", ours,
                                                    "--summary-json", ours + ".json"} +
                                            chosen);
      QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
      QCOMPARE(read_json(exported + ".json")["backend"], read_json(ours + ".json")["backend"]);
      const int chains = sampling[sampling.indexOf("--chains") + 1].toInt();
      // The tape sums in another order than LibTorch: only the same backend gives the same draws.
      compare_draws(read_chains(exported, chains), read_chains(ours, chains), backend == "auto" || identical,
                    name + " (" + backend + ")");
      if (QTest::currentTestFailed()) return;
    }
    compare_fits(program, model_file, data_file, folder, name);
  }

  // model.h edited by hand: its C++ no longer agrees with the text kept beside it, so the
  // program runs what was written, on LibTorch, and says why.
  void anEditedModelRunsAsWritten() {
    const QString model_file = kTests + "data/reference/eight_schools-eight_schools_noncentered/model.vmod";
    const QString data_file = kTests + "data/reference/eight_schools-eight_schools_noncentered/data.json";
    const QString folder = work_folder("edited");
    QDir(folder).removeRecursively();
    QVERIFY(QDir().mkpath(folder));
    Outcome outcome = run(VARIATE_EXECUTABLE, {"export", model_file, "--cpp", folder + "/program", "--name", "edited"});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QFile header(folder + "/program/model.h");
    QVERIFY(header.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(header.readAll());
    header.close();
    QVERIFY(text.contains("vt::Normal(\"mu\", 0, 5)"));
    text.replace("vt::Normal(\"mu\", 0, 5)", "vt::Normal(\"mu\", 0, 6)");
    QVERIFY(header.open(QIODevice::WriteOnly | QIODevice::Truncate));
    header.write(text.toUtf8());
    header.close();
    const QString program = build(folder + "/program", "edited", "-DVariate_DIR=" VARIATE_BUILD_DIR);
    if (program.isEmpty()) return;
    const QStringList sampling = {"sample",
                                  "--data",
                                  data_file,
                                  "--chains",
                                  "1",
                                  "--warmup",
                                  "100",
                                  "--draws",
                                  "100",
                                  "--seed",
                                  "3",
                                  "--output",
                                  folder + "/out",
                                  "--summary-json",
                                  folder + "/out.json"};
    outcome = run(program, sampling);
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("note: the density runs on LibTorch: model.h's C++ and the text it was exported "
                                     "from differ (the log density at point 1: "),
             qPrintable(outcome.output));
    QCOMPARE(read_json(folder + "/out.json")["backend"].toString(), QString("torch"));
    outcome = run(program, sampling + QStringList{"--backend", "tape"});
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: --backend tape: model.h's C++ and the text it was exported from differ"),
             qPrintable(outcome.output));
  }
};

QTEST_GUILESS_MAIN(TestExportRoundTrip)
#include "tst_export_roundtrip.moc"
