// `variate sample` and `variate summary` as a user runs them: reproducible files, thread
// counts that do not change draws, warnings instead of failures, clear errors.

#include <csignal>
#include <cmath>

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include "engine/io/stan_csv_reader.h"

#include "tests/app/run_program.h"

using namespace app_test;

namespace {


QStringList sample_arguments(const QString& output, const QString& seed, const QString& threads) {
  return {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
          "--warmup", "200", "--draws", "100", "--seed", seed, "--threads", threads, "--quiet",
          "--output", output};
}

// m.vmod and d.json in `directory`; false when either cannot be written.
bool write_model_and_data(const QTemporaryDir& directory, const QByteArray& model, const QByteArray& data) {
  for (const auto& [name, bytes] : {std::pair{"m.vmod", model}, std::pair{"d.json", data}}) {
    QFile file(directory.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) return false;
  }
  return true;
}

}  // namespace

class TestVariateSample : public QObject {
  Q_OBJECT

 private slots:
  void sameSeedWritesIdenticalFilesAndThreadsDoNotMatter() {
    QTemporaryDir a, b, c, d;
    QCOMPARE(run(sample_arguments(a.path(), "7", "1")).exit_code, 0);
    QCOMPARE(run(sample_arguments(b.path(), "7", "1")).exit_code, 0);
    QCOMPARE(run(sample_arguments(c.path(), "7", "4")).exit_code, 0);
    QCOMPARE(run(sample_arguments(d.path(), "8", "4")).exit_code, 0);
    for (int chain = 1; chain <= 4; ++chain) {
      const QString file = QString("/chain_%1.csv").arg(chain);
      const QStringList first = draws_of(a.path() + file);
      QVERIFY(first.size() > 100);
      QCOMPARE(draws_of(b.path() + file), first);
      QCOMPARE(draws_of(c.path() + file), first);
      QVERIFY(draws_of(d.path() + file) != first);
    }
  }

  // --metric lowrank: each chain's file records the metric it adapted (its rank, the
  // diagonal, each eigenvalue with its eigenvector), which reads back whole.
  void aLowRankMetricIsRecordedInTheFiles() {
    QTemporaryDir directory;
    const Outcome sampled = run(sample_arguments(directory.path(), "3", "0") << "--metric"
                                                                             << "lowrank");
    QVERIFY2(sampled.exit_code == 0, qPrintable(sampled.output));
    for (int chain = 1; chain <= 4; ++chain) {
      const auto csv = variate::io::read_stan_csv(directory.filePath(QString("chain_%1.csv").arg(chain)).toStdString());
      QCOMPARE(csv.config.at("sample.hmc.metric"), std::string("lowrank_e"));
      QCOMPARE(csv.config.at("sample.adapt.method"), std::string("fisher"));
      QVERIFY(csv.adaptation.has_value());
      QCOMPARE(csv.adaptation->metric, std::string("lowrank_e"));
      const auto& entries = csv.adaptation->inverse_metric;
      const size_t rank = size_t(entries.at(0));
      QCOMPARE(entries.size(), 1 + 10 + rank * 11);  // eight schools: 10 unconstrained parameters
      QCOMPARE(csv.draws.size(), size_t{100});
    }
  }

  void summaryOfTheFilesMatchesTheRun() {
    QTemporaryDir directory;
    const Outcome sampled = run(sample_arguments(directory.path(), "3", "0") << "--summary-json"
                                << directory.filePath("run.json"));
    QCOMPARE(sampled.exit_code, 0);
    QStringList files;
    for (int chain = 1; chain <= 4; ++chain) files << directory.filePath(QString("chain_%1.csv").arg(chain));
    const Outcome summarized = run(QStringList{"summary"} << files << "--summary-json"
                                   << directory.filePath("files.json"));
    QCOMPARE(summarized.exit_code, 0);
    QVERIFY2(summarized.output.contains("theta[8]"), qPrintable(summarized.output));
    QFile run_json(directory.filePath("run.json")), files_json(directory.filePath("files.json"));
    QVERIFY(run_json.open(QIODevice::ReadOnly) && files_json.open(QIODevice::ReadOnly));
    const auto parameters_of = [](QFile& f) {
      return QJsonDocument::fromJson(f.readAll()).object()["parameters"].toObject();
    };
    QCOMPARE(parameters_of(files_json), parameters_of(run_json));  // every digit survives the CSV
  }

  // --prior: independent draws of the prior by simulation, each with its prior predictive
  // y_rep; the same seed gives the same files; what cannot run from the prior is refused.
  void priorDrawsAreThePriors() {
    QTemporaryDir directory;
    const Outcome r =
        run({"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json", "--prior", "--seed",
             "4", "--quiet", "--output", directory.filePath("a"), "--summary-json", directory.filePath("a.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    QVERIFY2(r.output.contains("eight_schools.vmod: 4 chains of 1000 independent draws (simulated, no MCMC)"),
             qPrintable(r.output));
    const QJsonObject document = read_json(directory.filePath("a.json"));
    QVERIFY(document["prior"].toBool());
    // mu ~ Normal(0, 5) and theta_trans[1] ~ Normal(0, 1): 4000 independent draws.
    const QJsonObject parameters = document["parameters"].toObject();
    const QJsonObject mu = parameters["mu"].toObject(), z = parameters["theta_trans[1]"].toObject();
    QVERIFY2(std::abs(mu["mean"].toDouble()) < 4 * 5 / std::sqrt(4000.0), qPrintable(r.output));
    QVERIFY2(std::abs(mu["sd"].toDouble() - 5) < 0.25, qPrintable(r.output));
    QVERIFY2(std::abs(z["sd"].toDouble() - 1) < 0.05, qPrintable(r.output));
    QVERIFY2(mu["ess_bulk"].toDouble() > 3000, qPrintable(r.output));  // independent draws
    const QStringList chain = draws_of(directory.filePath("a/chain_1.csv"));
    QVERIFY(chain.filter(QRegularExpression("^lp__,")).first().contains(",y_rep.1,"));
    QCOMPARE(draw_lines(directory.filePath("a/chain_1.csv")), 1000);
    const Outcome again = run({"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
                               "--prior", "--seed", "4", "--quiet", "--output", directory.filePath("b")});
    QCOMPARE(again.exit_code, 0);
    QCOMPARE(draws_of(directory.filePath("b/chain_3.csv")), draws_of(directory.filePath("a/chain_3.csv")));

    const Outcome several = run({"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
                                 "--prior", "--nproc", "2"});
    QCOMPARE(several.exit_code, 1);
    QVERIFY2(several.output.contains("--prior draws from the prior on this process's CPU"), qPrintable(several.output));
    QFile flat(directory.filePath("flat.vmod"));
    QVERIFY(flat.open(QIODevice::WriteOnly));
    flat.write("mu ~ Flat()\nnu ~ Normal(mu, 1)\n");
    flat.close();
    const Outcome improper = run({"sample", directory.filePath("flat.vmod"), "--prior"});
    QCOMPARE(improper.exit_code, 1);
    QVERIFY2(improper.output.contains("--prior: cannot draw 'mu' from its prior"), qPrintable(improper.output));
  }

  void centeredEightSchoolsWarnsAboutDivergences() {
    QTemporaryDir directory;
    QFile model(directory.filePath("centered.vmod"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write("data J: int\ndata y: real[J]\ndata sigma: real[J]\nmu ~ Normal(0, 5)\n"
                "tau ~ HalfCauchy(5)\ntheta[J] ~ Normal(mu, tau)\ny ~ Normal(theta, sigma)\n");
    model.close();
    const Outcome outcome = run({"sample", model.fileName(), "--data", kEightSchools + "data.json",
                                 "--seed", "1", "--quiet"});
    QCOMPARE(outcome.exit_code, 0);
    QVERIFY2(outcome.output.contains("transitions ended with a divergence"), qPrintable(outcome.output));
  }

  // No free parameters (none declared, a vector of length 0, a simplex of one entry):
  // `sample` draws the derived quantities and predictions per iteration, as Stan's
  // fixed_param; the other methods say the model has no parameters.
  void modelsWithoutParameters_data() {
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QString>("column");  // a derived or predicted column of each draw
    QTest::newRow("none declared") << QByteArray("data N: int\ndata y: real[N]\ny ~ Normal(0, 1)\n")
                                   << QByteArray(R"({"N": 3, "y": [1, 2, 3]})") << "y_rep.3";
    QTest::newRow("length 0") << QByteArray("data N: int\ndata y: real[3]\ntheta[N] ~ Normal(0, 1)\ny ~ Normal(0, 1)\ns = sum(theta) + 2\n")
                              << QByteArray(R"({"N": 0, "y": [1, 2, 3]})") << "s";
    QTest::newRow("simplex of one") << QByteArray("data y: real[3]\ntheta: simplex[1] ~ Dirichlet([1])\ny ~ Normal(theta[1], 1)\n")
                                    << QByteArray(R"({"y": [1, 2, 3]})") << "theta.1";
  }
  void modelsWithoutParameters() {
    QFETCH(QByteArray, model);
    QFETCH(QByteArray, data);
    QFETCH(QString, column);
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, model, data));
    const QString m = directory.filePath("m.vmod"), d = directory.filePath("d.json"), out = directory.filePath("out");
    const Outcome sampled = run({"sample", m, "--data", d, "--seed", "2", "--chains", "2", "--draws", "50", "--predict",
                                 "--output", out});
    QVERIFY2(sampled.exit_code == 0, qPrintable(sampled.output));
    QVERIFY2(sampled.output.contains("the model has no parameters: each draw computes its derived quantities and "
                                     "predictions (as Stan's fixed_param)"),
             qPrintable(sampled.output));
    QVERIFY2(sampled.output.contains("2 chains, each with 0 warmup and 50 draws"), qPrintable(sampled.output));
    QCOMPARE(draw_lines(out + "/chain_2.csv"), 50);
    const QStringList header = lines_of(out + "/chain_1.csv").filter(QRegularExpression("^lp__,"));
    QCOMPARE(header.size(), 1);
    QVERIFY2(header[0].split(',').contains(column), qPrintable(header[0]));
    for (const QString method : {"optimize", "pathfinder", "fit"}) {
      const Outcome refused = run({method, m, "--data", d, "--seed", "2"});
      QVERIFY(refused.exit_code != 0);
      QVERIFY2(refused.output.contains("error: the model has no parameters, so"), qPrintable(refused.output));
      QVERIFY2(!refused.output.contains("reshape") && !refused.output.contains("every path"), qPrintable(refused.output));
    }
  }

  // An argument computed from a parameter leaves its domain at some points (Beta's shape
  // b < 0, where the density's formula is still finite): those points are rejected, the
  // posterior keeps b > 0, and the run says how many and where, with the first value.
  void argumentsOutsideTheirDomainAreRejectedAndReported_data() {
    QTest::addColumn<QString>("backend");
    QTest::newRow("tape") << "tape";
    QTest::newRow("torch") << "torch";
  }
  void argumentsOutsideTheirDomainAreRejectedAndReported() {
    QFETCH(QString, backend);
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "data u: real[3]\nb ~ Normal(0, 1)\nu ~ Beta(b, 2)\n", R"({"u": [0.2, 0.5, 0.7]})"));
    const QString summary = directory.filePath("s.json");
    const Outcome outcome = run({"sample", directory.filePath("m.vmod"), "--data", directory.filePath("d.json"), "--seed",
                                 "3", "--backend", backend, "--summary-json", summary, "--quiet"});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    const QRegularExpression warning(
        "Rejected [0-9,]+ points where the density could not be evaluated: an argument of a "
        "distribution outside its domain, or an ODE solver at its step limit \\(their "
        "density is taken as 0, as Stan rejects such proposals\\); the first: "
        ".*m\\.vmod:3:5: Beta: argument 'a' must be positive, got -[0-9.e-]+");
    QVERIFY2(outcome.output.contains(warning), qPrintable(outcome.output));
    const QJsonObject b = read_json(summary)["parameters"].toObject()["b"].toObject();
    QVERIFY2(b["q5"].toDouble() > 0, qPrintable(QString::number(b["q5"].toDouble())));
  }

  // Bounds computed from parameters are taken at each point, with their Jacobian: a
  // Uniform's, a truncation's and a declared `real<lower=L, upper=U>`'s. With
  // a ~ Uniform(0, 1), b ~ Uniform(0, 1 - a) and c flat on (0, 1 - a), p(a) is
  // proportional to 1 - a, so E[a] = E[b] = E[c] = 1/3; with d ~ Normal(b, 1) T[b, ],
  // d - b is half-normal, of mean sqrt(2 / pi). Batched chains evaluate all chains in one
  // tensor computation, where a scalar's bounds and arguments are [chains, 1].
  void supportsThatDependOnParameters_data() {
    QTest::addColumn<QStringList>("options");
    QTest::newRow("tape") << QStringList{"--backend", "tape"};
    QTest::newRow("torch") << QStringList{"--backend", "torch"};
    QTest::newRow("batched chains") << QStringList{"--batched-chains"};
  }
  void supportsThatDependOnParameters() {
    QFETCH(QStringList, options);
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "a ~ Uniform(0, 1)\nb ~ Uniform(0, 1 - a)\nc: real<lower=0, upper=1 - a>\n"
                                            "d ~ Normal(b, 1) T[b, ]\ne = d - b\n", "{}"));
    const QString summary = directory.filePath("s.json");
    const Outcome outcome = run(QStringList{"sample", directory.filePath("m.vmod"), "--seed", "5", "--summary-json", summary,
                                            "--quiet"} << options);
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    const QJsonObject document = read_json(summary);
    const QJsonObject parameters = document["parameters"].toObject();
    const double half_normal_mean = std::sqrt(2 / M_PI);
    for (const auto& [name, mean] : {std::pair{"a", 1.0 / 3}, {"b", 1.0 / 3}, {"c", 1.0 / 3}, {"e", half_normal_mean}}) {
      const QJsonObject row = parameters[name].toObject();
      const double error = std::abs(row["mean"].toDouble() - mean);
      QVERIFY2(error < 5 * row["mcse_mean"].toDouble() + 1e-3,
               qPrintable(QString("%1: mean %2, expected %3 (mcse %4)").arg(name).arg(row["mean"].toDouble()).arg(mean)
                              .arg(row["mcse_mean"].toDouble())));
    }
    // The geometry is smooth once transformed at each point: no divergences.
    QCOMPARE(document["sampler"].toObject()["divergences"].toInt(), 0);
    // `check` shows the bounds as the text computes them.
    const Outcome check = run({"check", directory.filePath("m.vmod"), "--data", directory.filePath("d.json")});
    QVERIFY2(check.output.contains("parameters (4 unconstrained): a (interval(0, 1)) b (interval(0, 1 - a), at each point) "
                                   "c (interval(0, 1 - a), at each point) d (lower_bounded(b), at each point)\n"),
             qPrintable(check.output));
  }

  // CmdStan's names of the same settings are accepted as they are spelt there, and the
  // files record the settings under Stan's names.
  void cmdStanOptionNamesAreAccepted() {
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "mu ~ Normal(0, 1)\n", "{}"));
    const Outcome outcome = run({"sample", directory.filePath("m.vmod"), "--num_samples", "30", "--num_warmup", "20",
                                 "--num_chains", "2", "--max_treedepth", "7", "--adapt_delta", "0.95", "--save_warmup",
                                 "--seed", "4", "--quiet", "--output", directory.filePath("out")});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    QVERIFY2(outcome.output.contains("2 chains, each with 20 warmup and 30 draws"), qPrintable(outcome.output));
    QFile csv(directory.filePath("out/chain_1.csv"));
    QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(QDir(directory.filePath("out")).entryList().join(' ')));
    const QString header = QString::fromUtf8(csv.read(4000));
    for (const char* line : {"num_samples = 30", "num_warmup = 20", "save_warmup = 1", "delta = 0.95", "max_depth = 7"}) {
      QVERIFY2(header.contains(line), qPrintable(header));
    }
  }

  // Warmup rows, when saved, carry their derived values like every other row; unsaved,
  // they are not computed at all (nothing reads them), and the draws are the same.
  void savedWarmupRowsHaveTheirDerivedValues() {
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "mu ~ Normal(0, 1)\ntwice = 2 * mu\n", "{}"));
    const auto sample = [&](const QString& output, QStringList more) {
      return run(QStringList{"sample", directory.filePath("m.vmod"), "--chains", "1", "--warmup", "30", "--draws", "20",
                             "--seed", "5", "--quiet", "--output", output} + more);
    };
    const Outcome saved = sample(directory.filePath("saved"), {"--save-warmup"});
    QVERIFY2(saved.exit_code == 0, qPrintable(saved.output));
    const Outcome unsaved = sample(directory.filePath("unsaved"), {});
    QVERIFY2(unsaved.exit_code == 0, qPrintable(unsaved.output));
    const auto with_warmup = variate::io::read_stan_csv(directory.filePath("saved/chain_1.csv").toStdString());
    const auto without = variate::io::read_stan_csv(directory.filePath("unsaved/chain_1.csv").toStdString());
    QCOMPARE(with_warmup.warmup_draws.size(), size_t{30});
    const size_t mu = *with_warmup.column_index("mu"), twice = *with_warmup.column_index("twice");
    for (const auto& row : with_warmup.warmup_draws) QCOMPARE(row[twice], 2 * row[mu]);
    QVERIFY(with_warmup.draws == without.draws);
  }

  // `--init` as CmdStan's: parameter values in JSON, one file for every chain or one per
  // chain. Two modes 40 sds apart: each chain stays in the mode its file starts it in.
  void initFilesStartTheChains() {
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "mu ~ Mixture([0.5, 0.5], Normal([-10, 10], 0.5))\ns ~ HalfNormal(1)\n",
                                 "{}"));
    for (const auto& [name, text] : {std::pair{"low.json", R"({"mu": -10.2, "s": 0.5})"},
                                     std::pair{"high.json", R"({"mu": 9.9, "s": 1.5, "unknown_to_it": 1})"},
                                     std::pair{"partial.json", R"({"mu": 1})"}}) {
      QFile file(directory.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(text);
    }
    const auto sample = [&](const QString& init, const QString& output) {
      return run({"sample", directory.filePath("m.vmod"), "--init", init, "--chains", "2", "--warmup", "100", "--draws",
                  "100", "--seed", "2", "--quiet", "--output", output});
    };
    Outcome outcome = sample(directory.filePath("low.json") + "," + directory.filePath("high.json"), directory.filePath("out"));
    QVERIFY2(outcome.exit_code != 0, qPrintable(outcome.output));  // high.json names what the model does not have
    QVERIFY2(outcome.output.contains("high.json: 'unknown_to_it' is not a parameter of the model"), qPrintable(outcome.output));
    QFile high(directory.filePath("high.json"));
    QVERIFY(high.open(QIODevice::WriteOnly));
    high.write(R"({"mu": 9.9, "s": 1.5})");
    high.close();
    outcome = sample(directory.filePath("low.json") + "," + directory.filePath("high.json"), directory.filePath("out"));
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    for (const auto& [chain, mode] : {std::pair{1, -10.0}, std::pair{2, 10.0}}) {
      QFile csv(directory.filePath("out/chain_" + QString::number(chain) + ".csv"));
      QVERIFY(csv.open(QIODevice::ReadOnly));
      double total = 0;
      int rows = 0;
      int column = -1;
      for (const QByteArray& line : csv.readAll().split('\n')) {
        if (line.isEmpty() || line.startsWith('#')) continue;
        const QList<QByteArray> fields = line.split(',');
        if (column < 0) {
          column = static_cast<int>(fields.indexOf("mu"));
          continue;
        }
        total += fields[column].toDouble();
        ++rows;
      }
      QCOMPARE(rows, 100);
      QVERIFY2(std::abs(total / rows - mode) < 1, qPrintable(QString("chain %1: mean %2").arg(chain).arg(total / rows)));
    }
    outcome = sample(directory.filePath("partial.json"), directory.filePath("out2"));
    QVERIFY2(outcome.output.contains("partial.json: no value for parameter 's'"), qPrintable(outcome.output));
    outcome = sample(directory.filePath("low.json") + "," + directory.filePath("low.json") + "," +
                         directory.filePath("high.json"), directory.filePath("out3"));
    QVERIFY2(outcome.output.contains("--init: 3 files for 2 chains; give one file for every chain, or one per chain"),
             qPrintable(outcome.output));
  }

  // Without --output the draws go to a new folder per run under ./output, and the run
  // says where, as CmdStan writes output.csv.
  void drawsGoToAFolderPerRunByDefault() {
    QTemporaryDir directory;
    QVERIFY(write_model_and_data(directory, "mu ~ Normal(0, 1)\n", "{}"));
    QStringList folders;
    for (int run = 0; run < 2; ++run) {
      QProcess process;
      process.setWorkingDirectory(directory.path());
      process.start(VARIATE_EXECUTABLE, {"sample", "m.vmod", "--warmup", "50", "--draws", "50", "--seed", "1", "--quiet"});
      QVERIFY(process.waitForFinished(120000));
      QCOMPARE(process.exitCode(), 0);
      const QString out = QString::fromUtf8(process.readAllStandardOutput());
      const QRegularExpressionMatch match =
          QRegularExpression("\nDraws: (output/m-[0-9]{8}-[0-9]{6}(-[0-9]+)?)/chain_1.csv to chain_4.csv\n").match(out);
      QVERIFY2(match.hasMatch(), qPrintable(out));
      folders << match.captured(1);
      QCOMPARE(draw_lines(directory.filePath(folders.last() + "/chain_4.csv")), 50);
    }
    QVERIFY2(folders[0] != folders[1], "a second run overwrote the first's draws");
  }

  // Ctrl-C stops the chains at their next iteration: the summary of the draws kept, what
  // was kept per chain, the files, and exit code 130.
  void ctrlCKeepsTheDrawsAndSaysSo() {
    QTemporaryDir directory;
    std::string y;
    for (int i = 0; i < 200000; ++i) y += (i ? ", " : "") + std::to_string((i % 17) * 0.1);
    QVERIFY(write_model_and_data(directory, "data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\ns ~ Normal(0, 1)\n"
                                            "y ~ Normal(mu, exp(s))\n",
                                 QByteArray::fromStdString("{\"N\": 200000, \"y\": [" + y + "]}")));
    QProcess process;
    process.setWorkingDirectory(directory.path());
    process.start(VARIATE_EXECUTABLE, {"sample", "m.vmod", "--data", "d.json", "--chains", "1", "--warmup", "100",
                                       "--draws", "20000", "--seed", "1", "--output", "out"});
    QVERIFY(process.waitForStarted());
    QString progress;
    while (!progress.contains("(Sampling)") && process.state() == QProcess::Running) {
      process.waitForReadyRead(1000);
      progress += QString::fromUtf8(process.readAllStandardError());
    }
    QVERIFY2(process.state() == QProcess::Running, qPrintable(progress));
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    if (!process.waitForFinished(60000)) {
      process.kill();
      QFAIL("Ctrl-C did not stop the run");
    }
    QCOMPARE(process.exitCode(), 130);
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    const QRegularExpressionMatch kept = QRegularExpression("Stopped by Ctrl-C: kept ([0-9]+) draws").match(out);
    QVERIFY2(kept.hasMatch(), qPrintable(out));
    QVERIFY2(kept.captured(1).toInt() > 0 && kept.captured(1).toInt() < 20000, qPrintable(out));
    QVERIFY2(out.contains("Draws: out/chain_1.csv\n"), qPrintable(out));
    QCOMPARE(draw_lines(directory.filePath("out/chain_1.csv")), kept.captured(1).toInt());
  }

  void densityThatIsNanEverywhereFailsClearly() {
    QTemporaryDir directory;
    QFile model(directory.filePath("nan.vmod"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write("mu ~ Normal(0, 1)\nx ~ Normal(log(-1 - exp(mu)), 1)\n");
    model.close();
    const Outcome outcome = run({"sample", model.fileName(), "--seed", "1", "--quiet"});
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("chain 1: no initial point with a finite log density"),
             qPrintable(outcome.output));
  }

  // The tape by default; LibTorch when asked, or (with a note saying why) when the tape
  // cannot run the model; the summary says which ran.
  void backendIsChosenAndRecorded() {
    QTemporaryDir directory;
    const auto backend_of = [&](const QStringList& extra, Outcome* outcome) {
      const QString summary = directory.filePath("summary.json");
      QFile::remove(summary);
      *outcome = run(QStringList{"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
                                 "--warmup", "50", "--draws", "50", "--seed", "1", "--quiet", "--summary-json",
                                 summary} << extra);
      QFile file(summary);
      if (!file.open(QIODevice::ReadOnly)) return QString("no summary");
      return QJsonDocument::fromJson(file.readAll()).object()["backend"].toString();
    };
    Outcome outcome;
    QCOMPARE(backend_of({}, &outcome), QStringLiteral("tape"));
    QVERIFY2(!outcome.output.contains("note:"), qPrintable(outcome.output));
    QCOMPARE(backend_of({"--backend", "torch"}, &outcome), QStringLiteral("torch"));
    QCOMPARE(backend_of({"--backend", "tape"}, &outcome), QStringLiteral("tape"));
    QCOMPARE(backend_of({"--dtype", "float32"}, &outcome), QStringLiteral("torch"));
    QVERIFY2(outcome.output.contains("note: the density runs on LibTorch: the tape computes in float64 only"),
             qPrintable(outcome.output));
    QCOMPARE(backend_of({"--batched-chains"}, &outcome), QStringLiteral("torch"));
    QCOMPARE(backend_of({"--backend", "tape", "--dtype", "float32"}, &outcome), QStringLiteral("no summary"));
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: --backend tape: the tape computes in float64 only"),
             qPrintable(outcome.output));
  }

  // `check` says which backend `sample` would take.
  void checkNamesTheBackend() {
    const Outcome outcome = run({"check", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json"});
    QCOMPARE(outcome.exit_code, 0);
    QVERIFY2(outcome.output.contains("backend: tape\n"), qPrintable(outcome.output));
  }

  void unavailableDeviceIsAnError() {
    const Outcome outcome = run({"sample", kEightSchools + "eight_schools.vmod", "--data",
                                 kEightSchools + "data.json", "--device", "cuda"});
    QCOMPARE(outcome.exit_code, 1);
    QVERIFY2(outcome.output.contains("error: --device cuda"), qPrintable(outcome.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateSample)
#include "tst_variate_sample.moc"
