// `variate sample --predict`, `variate predict` and `variate loo|compare --project`: the
// y_rep and log_lik columns of eight schools' chains (log_lik against each school's normal
// density computed here from the chain's theta), predict on a run equal to sample
// --predict's columns for the same seed (from files and from a project), a stored run's
// LOO equal to `variate loo` on the same log likelihood and kept in the project, and
// clear errors.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"
#include "engine/store/project.h"

using namespace app_test;

namespace {

const QString kModel = kEightSchools + "eight_schools.vmod";
const QString kData = kEightSchools + "data.json";
const std::vector<double> kY = {28, 8, -3, 7, -1, 1, 18, 12};
const std::vector<double> kSigma = {15, 10, 16, 11, 9, 11, 10, 18};

Outcome run_variate(const QStringList& arguments) { return run_program(VARIATE_EXECUTABLE, arguments, 300000); }

Outcome sample(const QString& output, const QStringList& extra = {}) {
  return run_variate(QStringList{"sample", kModel, "--data", kData, "--chains", "2", "--warmup", "200", "--draws", "200",
                             "--seed", "7", "--quiet", "--output", output} +
                 extra);
}

QStringList chain_files(const QString& folder) { return {folder + "/chain_1.csv", folder + "/chain_2.csv"}; }

// A Stan CSV file's header and rows.
struct Table {
  QStringList header;
  std::vector<std::vector<double>> rows;
  int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
};

Table read_table(const QString& path) {
  Table table;
  for (const QString& line : lines_of(path)) {
    if (line.startsWith('#')) continue;
    if (table.header.isEmpty()) {
      table.header = line.split(',');
      continue;
    }
    std::vector<double> row;
    for (const QString& field : line.split(',')) row.push_back(field.toDouble());
    table.rows.push_back(row);
  }
  return table;
}

// The rows of a chain file without its comments (the lines two equal runs share).
QStringList rows_of(const QString& path) {
  QStringList rows;
  for (const QString& line : lines_of(path)) {
    if (!line.startsWith('#')) rows << line;
  }
  return rows;
}

double normal_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -0.5 * std::log(2.0 * M_PI) - std::log(sigma) - 0.5 * z * z;
}

}  // namespace

class TestVariatePredict : public QObject {
  Q_OBJECT

 private slots:
  void samplePredictAddsReplicatedAndLogLikColumns() {
    QTemporaryDir out;
    const Outcome r = sample(out.path(), {"--predict"});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    // The printed summary shows parameters and derived quantities (ArviZ's var_names) and
    // names what it left out; --summary-variables chooses, for `summary` too.
    const QRegularExpression predictiveRow("\\n(y_rep|log_lik)\\[");
    QVERIFY2(!r.output.contains(predictiveRow), qPrintable(r.output));
    QVERIFY2(r.output.contains("\ntheta[8] ") &&
                 r.output.contains("Not shown: y_rep (8 values), log_lik (8 values); --summary-variables all shows them."),
             qPrintable(r.output));
    const QStringList files = chain_files(out.path());
    const Outcome all = run_variate(QStringList{"summary"} + files + QStringList{"--summary-variables", "all"});
    QVERIFY2(all.output.contains("\ny_rep[8] ") && all.output.contains("\nlog_lik[1] ") && !all.output.contains("Not shown"),
             qPrintable(all.output));
    const Outcome chosen = run_variate(QStringList{"summary"} + files + QStringList{"--summary-variables", "mu, theta[2], y_rep"});
    QVERIFY2(chosen.exit_code == 0, qPrintable(chosen.output));
    QVERIFY2(chosen.output.contains("\nmu ") && chosen.output.contains("\ntheta[2] ") && chosen.output.contains("\ny_rep[8] ") &&
                 !chosen.output.contains("\ntau ") && !chosen.output.contains("\ntheta[1] ") &&
                 !chosen.output.contains("\nlog_lik[") && chosen.output.contains("\nlp__ "),
             qPrintable(chosen.output));
    const Outcome dropped = run_variate(QStringList{"summary"} + files + QStringList{"--summary-variables", "~theta_trans"});
    QVERIFY2(dropped.output.contains("\nmu ") && !dropped.output.contains("\ntheta_trans[") && !dropped.output.contains(predictiveRow),
             qPrintable(dropped.output));
    const Outcome unknown = run_variate(QStringList{"summary"} + files + QStringList{"--summary-variables", "sigma"});
    QVERIFY2(unknown.exit_code == 0 && unknown.output.contains("Every quantity is shown: --summary-variables: the summary has no "
                                                               "variable 'sigma'"),
             qPrintable(unknown.output));
    const Table chain = read_table(out.filePath("chain_1.csv"));
    QCOMPARE(chain.rows.size(), size_t{200});
    // After the parameters and theta, as CmdStan writes generated quantities.
    QCOMPARE(chain.column("y_rep.1"), chain.column("theta.8") + 1);
    QCOMPARE(chain.column("log_lik.1"), chain.column("y_rep.8") + 1);
    QCOMPARE(chain.header.last(), QString("log_lik.8"));
    for (const auto& row : chain.rows) {
      for (int j = 0; j < 8; ++j) {
        const double theta = row[chain.column(QString("theta.%1").arg(j + 1))];
        const double log_lik = row[chain.column(QString("log_lik.%1").arg(j + 1))];
        QVERIFY(std::abs(log_lik - normal_log_density(kY[j], theta, kSigma[j])) < 1e-9);
      }
    }
    // The replications spread around theta by each school's sigma: a wrong scale shows.
    double sum_squares = 0;
    for (const auto& row : chain.rows) {
      for (int j = 0; j < 8; ++j) {
        const double residual = row[chain.column(QString("y_rep.%1").arg(j + 1))] - row[chain.column(QString("theta.%1").arg(j + 1))];
        sum_squares += std::pow(residual / kSigma[j], 2);
      }
    }
    const double variance = sum_squares / (8.0 * static_cast<double>(chain.rows.size()));
    QVERIFY2(std::abs(variance - 1.0) < 0.15, qPrintable(QString::number(variance)));
  }

  void predictOnFilesEqualsSamplePredict() {
    QTemporaryDir out;
    QVERIFY(sample(out.filePath("predicted"), {"--predict"}).exit_code == 0);
    QVERIFY(sample(out.filePath("plain")).exit_code == 0);
    const Outcome r = run_variate(QStringList{"predict", kModel, "--data", kData} + chain_files(out.filePath("plain")) +
                              QStringList{"--output", out.filePath("after")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    QVERIFY2(r.output.contains("8 replicated values (y_rep) and 8 log_lik columns; seed 7"), qPrintable(r.output));
    for (int c = 1; c <= 2; ++c) {
      const QString name = QString("/chain_%1.csv").arg(c);
      QCOMPARE(rows_of(out.filePath("after") + name), rows_of(out.filePath("predicted") + name));
    }
    // Another seed draws other replications with the same log likelihood.
    QVERIFY(run_variate(QStringList{"predict", kModel, "--data", kData, "--seed", "8"} + chain_files(out.filePath("plain")) +
                    QStringList{"--output", out.filePath("other")})
                .exit_code == 0);
    const Table same = read_table(out.filePath("after/chain_1.csv")), other = read_table(out.filePath("other/chain_1.csv"));
    QVERIFY(same.rows[0][same.column("y_rep.1")] != other.rows[0][other.column("y_rep.1")]);
    QCOMPARE(same.rows[0][same.column("log_lik.1")], other.rows[0][other.column("log_lik.1")]);
  }

  void predictAndLooOnAProjectRun() {
    QTemporaryDir out;
    const QString project = out.filePath("p.variate");
    QVERIFY(sample(out.filePath("predicted"), {"--predict", "--project", project, "--run-name", "first"}).exit_code == 0);
    const Outcome r = run_variate({"predict", "--project", project, "--run", "first", "--output", out.filePath("after")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    QCOMPARE(rows_of(out.filePath("after/chain_2.csv")), rows_of(out.filePath("predicted/chain_2.csv")));

    const Outcome stored = run_variate({"loo", "--project", project, "--run", "first", "--summary-json", out.filePath("s.json")});
    QVERIFY2(stored.exit_code == 0, qPrintable(stored.output));
    QVERIFY2(stored.output.contains("Computed from 400 by 8 log-likelihood matrix"), qPrintable(stored.output));
    QVERIFY2(stored.output.contains("Stored with run 'first'"), qPrintable(stored.output));
    const Outcome files = run_variate(QStringList{"loo"} + chain_files(out.filePath("predicted")) +
                                  QStringList{"--summary-json", out.filePath("f.json")});
    QVERIFY2(files.exit_code == 0, qPrintable(files.output));
    const QJsonObject ours = read_json(out.filePath("s.json")), theirs = read_json(out.filePath("f.json"));
    for (const auto& key : {"elpd_loo", "se_elpd_loo", "p_loo", "se_p_loo", "looic", "se_looic"}) {
      QVERIFY2(std::abs(ours[key].toDouble() - theirs[key].toDouble()) < 1e-9, key);
    }
    QCOMPARE(ours["pareto_k"].toArray().size(), 8);

    // Stored with the run: a fresh open of the file reads it back.
    const variate::store::Project reopened(project.toStdString());
    const auto document = reopened.loo_json(reopened.runs()[0].id);
    QVERIFY(document.has_value());
    const QJsonObject kept = QJsonDocument::fromJson(QByteArray::fromStdString(*document)).object();
    QCOMPARE(kept["elpd_loo"].toDouble(), ours["elpd_loo"].toDouble());
    QCOMPARE(kept["looic"].toDouble(), ours["looic"].toDouble());
    QCOMPARE(kept["pareto_k"].toArray(), ours["pareto_k"].toArray());
  }

  void compareRanksStoredRuns() {
    QTemporaryDir out;
    const QString project = out.filePath("p.variate");
    QVERIFY(sample(out.filePath("a"), {"--project", project, "--run-name", "a"}).exit_code == 0);
    QVERIFY(run_variate({"sample", kModel, "--data", kData, "--chains", "2", "--warmup", "200", "--draws", "200", "--seed",
                     "8", "--quiet", "--project", project, "--run-name", "b"})
                .exit_code == 0);
    QVERIFY(run_variate({"loo", "--project", project, "--run", "a"}).exit_code == 0);  // b's is computed by compare
    const Outcome r = run_variate({"compare", "--project", project, "a", "2", "--summary-json", out.filePath("c.json")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.output));
    const QJsonArray models = read_json(out.filePath("c.json"))["models"].toArray();
    QCOMPARE(models.size(), 2);
    QCOMPARE(models[0].toObject()["elpd_diff"].toDouble(), 0.0);
    // Two runs of one model on one data set: within a fraction of an elpd point.
    QVERIFY(std::abs(models[1].toObject()["elpd_diff"].toDouble()) < 1.0);
    const variate::store::Project reopened(project.toStdString());
    QVERIFY(reopened.loo_json(2).has_value());
    // Runs are named by their names, however they were given; a glob names several.
    QStringList names;
    for (const auto& m : models) names << m.toObject()["name"].toString();
    names.sort();
    QCOMPARE(names, QStringList({"a", "b"}));
    const Outcome globbed = run_variate({"compare", "--project", project, "*"});
    QVERIFY2(globbed.exit_code == 0, qPrintable(globbed.output));
    QVERIFY2(globbed.output.contains(QRegularExpression("\\na +")) && globbed.output.contains(QRegularExpression("\\nb +")),
             qPrintable(globbed.output));
    const Outcome unmatched = run_variate({"compare", "--project", project, "a", "c*"});
    QCOMPARE(unmatched.exit_code, 1);
    QVERIFY2(unmatched.output.contains("has no run 'c*' (its runs: 1 'a', 2 'b')"), qPrintable(unmatched.output));
    // A run's name is unique in its project, refused when the run is created.
    const Outcome taken = sample(out.filePath("c"), {"--project", project, "--run-name", "a"});
    QCOMPARE(taken.exit_code, 1);
    QVERIFY2(taken.output.contains("already has a run named 'a' (run 1): run names are unique"), qPrintable(taken.output));
    QCOMPARE(variate::store::Project(project.toStdString()).runs().size(), size_t(2));
  }

  void errorsAreClear() {
    QTemporaryDir out;
    QVERIFY(sample(out.filePath("predicted"), {"--predict", "--project", out.filePath("p.variate")}).exit_code == 0);
    Outcome r = run_variate(QStringList{"predict", kModel, "--data", kData} + chain_files(out.filePath("predicted")) +
                        QStringList{"--output", out.filePath("again")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains("already has a column 'y_rep.1'"), qPrintable(r.output));
    r = run_variate({"loo", "--project", out.filePath("p.variate"), "--run", "missing"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains("has no run 'missing' (its runs: 1 'run 1')"), qPrintable(r.output));
    r = run_variate({"predict", "--project", out.filePath("p.variate"), "--output", out.path()});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains("predict takes --project P --run R"), qPrintable(r.output));
    r = sample(out.filePath("warm"), {"--predict", "--save-warmup"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains("--save-warmup"), qPrintable(r.output));
    // The parameters come from the chain files by name.
    QFile bad(out.filePath("bad.csv"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("lp__,mu,tau\n-1,0.5,1.5\n");
    bad.close();
    r = run_variate({"predict", kModel, "--data", kData, out.filePath("bad.csv"), "--seed", "1", "--output", out.path()});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.output.contains("has no column 'theta_trans.1', a parameter of the model"), qPrintable(r.output));
  }
};

QTEST_GUILESS_MAIN(TestVariatePredict)
#include "tst_variate_predict.moc"
