// `variate fit` as a user runs it: CmdStan's variational CSV (header, the mean row, the
// draws), the summary and its JSON in sample's layout, reproducible files, clear errors.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/app/run_program.h"

using namespace app_test;

namespace {

const QString kSblrc = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/sblrc-blr/");

QStringList fit_arguments(const QString& output, const QString& seed, const QString& method = "meanfield") {
  return {"fit", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
          "--method", method, "--seed", seed, "--quiet", "--output", output};
}

// The rows of a variational CSV (comment lines dropped), each split into numbers.
std::vector<std::vector<double>> rows_of(const QStringList& lines) {
  std::vector<std::vector<double>> rows;
  for (const auto& line : lines) {
    if (line.startsWith('#') || line.startsWith("lp__")) continue;
    std::vector<double> row;
    for (const auto& field : line.split(',')) row.push_back(field.toDouble());
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

class TestVariateFit : public QObject {
  Q_OBJECT

 private slots:
  void writesCmdStansVariationalLayout() {
    QTemporaryDir directory;
    const Outcome outcome = run(fit_arguments(directory.path(), "5") << "--summary-json"
                                << directory.filePath("summary.json"));
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    const QStringList lines = lines_of(directory.filePath("variational.csv"));
    QVERIFY(lines.contains("# method = variational"));
    QVERIFY(lines.contains("#     algorithm = meanfield (Default)"));
    const int header = lines.indexOf(QRegularExpression("^lp__,.*"));
    QVERIFY(header > 0);
    QVERIFY(lines[header].startsWith("lp__,log_p__,log_g__,mu,tau,theta_trans.1,"));
    QVERIFY(lines[header].endsWith(",theta.8"));
    QCOMPARE(lines[header + 1], QString("# Stepsize adaptation complete."));
    QVERIFY(lines[header + 2].startsWith("# eta = "));
    const auto rows = rows_of(lines);
    QCOMPARE(static_cast<int>(rows.size()), 1001);  // the mean, then 1000 draws
    const size_t columns = lines[header].split(',').size();
    QCOMPARE(rows[0][0], 0.0);
    QCOMPARE(rows[0][1], 0.0);
    QCOMPARE(rows[0][2], 0.0);
    double mean_mu = 0;
    for (size_t i = 1; i < rows.size(); ++i) {
      QCOMPARE(rows[i].size(), columns);
      QCOMPARE(rows[i][0], 0.0);                          // lp__ is 0, as CmdStan writes it
      QVERIFY(std::isfinite(rows[i][1]) && rows[i][1] < 0);  // log_p__
      QVERIFY(std::isfinite(rows[i][2]));                 // log_g__
      QVERIFY(rows[i][4] > 0);                            // tau
      mean_mu += rows[i][3] / 1000;
    }
    // mu is real-valued, so the first row's mu (the approximation's mean) is what its
    // draws average to, within their Monte Carlo error.
    double sd = 0;
    for (size_t i = 1; i < rows.size(); ++i) sd += (rows[i][3] - mean_mu) * (rows[i][3] - mean_mu) / 999;
    QVERIFY(std::abs(rows[0][3] - mean_mu) < 5 * std::sqrt(sd / 1000));

    // The summary document has sample's "parameters" layout, with what ADVI can say.
    const QJsonObject summary = read_json(directory.filePath("summary.json"));
    const QJsonObject mu = summary["parameters"].toObject()["mu"].toObject();
    for (const auto& key : {"mean", "sd", "mcse_mean", "q5", "q50", "q95", "ess_bulk", "ess_tail"}) {
      QVERIFY2(mu[key].isDouble(), key);
    }
    QVERIFY(mu["r_hat"].isNull());  // independent draws: R-hat does not apply
    QVERIFY(std::abs(mu["mean"].toDouble() - mean_mu) < 1e-9);
    QCOMPARE(mu["ess_bulk"].toDouble(), 1000.0);
    QVERIFY(summary["parameters"].toObject().contains("theta[8]"));
    const QJsonObject variational = summary["variational"].toObject();
    QCOMPARE(variational["method"].toString(), QString("meanfield"));
    QVERIFY(variational["iterations"].toInt() > 0);
    QVERIFY(!summary.contains("sampler"));
    // The table leaves R-hat and ESS out and says why.
    QVERIFY(!outcome.output.contains("R_hat"));
    QVERIFY(outcome.output.contains("R-hat and ESS do not apply"));
  }

  void sameSeedWritesTheSameDraws() {
    QTemporaryDir a, b, c;
    const QStringList short_run = {"--iter", "400"};  // the draws need not be converged
    QCOMPARE(run(fit_arguments(a.path(), "9", "fullrank") << short_run).exit_code, 0);
    QCOMPARE(run(fit_arguments(b.path(), "9", "fullrank") << short_run).exit_code, 0);
    QCOMPARE(run(fit_arguments(c.path(), "10", "fullrank") << short_run).exit_code, 0);
    const auto draws = [](const QString& folder) { return rows_of(lines_of(folder + "/variational.csv")); };
    QVERIFY(draws(a.path()).size() == 1001);
    QVERIFY(lines_of(a.path() + "/variational.csv").contains("#     algorithm = fullrank"));
    QVERIFY(draws(a.path()) == draws(b.path()));
    QVERIFY(draws(a.path()) != draws(c.path()));
  }

  void optionsReachTheRun() {
    QTemporaryDir directory;
    const Outcome outcome = run({"fit", kSblrc + "model.vmod", "--data", kSblrc + "data.json", "--seed", "1",
                                 "--eta", "0.1", "--iter", "300", "--tol-rel-obj", "0.001",
                                 "--grad-samples", "2", "--output-draws", "50", "--output", directory.path(),
                                 "--precondition", "none", "--summary-json", directory.filePath("s.json")});
    QVERIFY2(outcome.exit_code == 0, qPrintable(outcome.output));
    // The ELBO trace, CmdStan's layout, on stderr; no adaptation with a given eta.
    QVERIFY(outcome.output.contains("iter             ELBO   delta_ELBO_mean   delta_ELBO_med"));
    QVERIFY(!outcome.output.contains("Begin eta adaptation"));
    const QStringList lines = lines_of(directory.filePath("variational.csv"));
    QVERIFY(lines.contains("#     iter = 300"));
    QVERIFY(lines.contains("#     grad_samples = 2"));
    QVERIFY(lines.contains("#     eta = 0.1"));
    QVERIFY(lines.contains("#       engaged = 0"));
    QVERIFY(lines.contains("#     output_samples = 50"));
    QVERIFY(!lines.contains("# Stepsize adaptation complete."));
    QCOMPARE(static_cast<int>(rows_of(lines).size()), 51);
    const QJsonObject variational = read_json(directory.filePath("s.json"))["variational"].toObject();
    QCOMPARE(variational["iterations"].toInt(), 300);
    QCOMPARE(variational["status"].toString(), QString("max_iterations"));
    QCOMPARE(variational["start"].toString(), QString("random"));
    QVERIFY(outcome.output.contains("maximum number of iterations (300)"));
  }

  void badInputFailsClearly() {
    const Outcome method = run({"fit", kEightSchools + "eight_schools.vmod", "--data",
                                kEightSchools + "data.json", "--method", "laplace"});
    QVERIFY(method.exit_code != 0);
    QVERIFY2(method.output.contains("laplace"), qPrintable(method.output));
    const Outcome no_data = run({"fit", kEightSchools + "eight_schools.vmod"});
    QCOMPARE(no_data.exit_code, 1);
    QVERIFY2(no_data.output.contains("give it with --data"), qPrintable(no_data.output));
    const Outcome draws = run({"fit", kEightSchools + "eight_schools.vmod", "--data",
                               kEightSchools + "data.json", "--output-draws", "0"});
    QVERIFY(draws.exit_code != 0);
  }

  // A mean-field Gaussian on a 10-dimensional Gaussian with correlations 0.95 is a known
  // bad approximation: PSIS k-hat of p/q flags it; a full-rank one fits and is not flagged.
  void aBadApproximationIsFlaggedByKHat() {
    QTemporaryDir folder;
    QFile model(folder.filePath("correlated.vmod"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write("data mu: real[10]\ndata Sigma: real[10, 10]\nx ~ MultiNormal(mu, Sigma)\n");
    model.close();
    QJsonArray sigma;
    for (int i = 0; i < 10; ++i) {
      QJsonArray row;
      for (int j = 0; j < 10; ++j) row.append(i == j ? 1.0 : 0.95);
      sigma.append(row);
    }
    QFile data(folder.filePath("data.json"));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(QJsonDocument(QJsonObject{{"mu", QJsonArray{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, {"Sigma", sigma}}).toJson());
    data.close();
    const auto fit = [&](const QString& method) {
      return run({"fit", model.fileName(), "--data", data.fileName(), "--method", method, "--seed", "1", "--iter",
                  "2000", "--quiet", "--summary-json", folder.filePath(method + ".json")});
    };
    const Outcome meanfield = fit("meanfield");
    QCOMPARE(meanfield.exit_code, 0);
    QVERIFY2(meanfield.output.contains("Warning: k-hat is above 0.7: the approximation misses much of the "
                                       "posterior's mass"),
             qPrintable(meanfield.output));
    const QJsonObject bad = read_json(folder.filePath("meanfield.json"))["variational"].toObject();
    QVERIFY2(bad["pareto_k"].toDouble() > 0.7, qPrintable(QString::number(bad["pareto_k"].toDouble())));
    QCOMPARE(bad["pareto_k_ok"].toBool(), false);
    const Outcome fullrank = fit("fullrank");
    QCOMPARE(fullrank.exit_code, 0);
    QVERIFY2(fullrank.output.contains("Pareto k-hat of the importance ratios p/q: ") &&
                 !fullrank.output.contains("Warning: k-hat"),
             qPrintable(fullrank.output));
    const QJsonObject good = read_json(folder.filePath("fullrank.json"))["variational"].toObject();
    QVERIFY(good["pareto_k"].toDouble() < 0.7);
    QCOMPARE(good["pareto_k_ok"].toBool(), true);
  }

  // Stan's random start on earnings in dollars: sigma ends in the tens of thousands of
  // sds from the truth while Stan's rule says converged. Both checks speak up; the default
  // (preconditioned) fit gets the means right and says where it started.
  void anAbsurdFitIsNotSilent() {
    QTemporaryDir folder;
    const QString posterior = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/earnings-earn_height/");
    const auto fit = [&](const QStringList& extra) {
      return run(QStringList{"fit", posterior + "model.vmod", "--data", posterior + "data.json", "--seed", "1", "--quiet",
                             "--summary-json", folder.filePath("s.json")} + extra);
    };
    const Outcome plain = fit({"--precondition", "none"});
    QCOMPARE(plain.exit_code, 0);
    QVERIFY2(plain.output.contains("Started at random") && plain.output.contains("Warning: k-hat is above 0.7") &&
                 plain.output.contains("Warning: the ELBO was still rising when the run stopped"),
             qPrintable(plain.output));
    QCOMPARE(read_json(folder.filePath("s.json"))["variational"].toObject()["elbo_still_improving"].toBool(), true);
    const Outcome preconditioned = fit({});
    QCOMPARE(preconditioned.exit_code, 0);
    QVERIFY2(preconditioned.output.contains("optimized in coordinates whitened by its covariance") &&
                 !preconditioned.output.contains("still rising"),
             qPrintable(preconditioned.output));
    const QJsonObject summary = read_json(folder.filePath("s.json"));
    const QJsonObject reference = read_json(posterior + "reference.json")["parameters"].toObject();
    for (const auto& name : {"beta[1]", "beta[2]", "sigma"}) {
      const double z = std::abs(summary["parameters"].toObject()[name].toObject()["mean"].toDouble() -
                                reference[name].toObject()["mean"].toDouble()) /
                       reference[name].toObject()["sd"].toDouble();
      QVERIFY2(z < 0.5, qPrintable(QString("%1: z = %2").arg(name).arg(z)));
    }
    QVERIFY(summary["variational"].toObject()["start"].toString() != "random");
  }

  void helpListsFit() {
    const Outcome help = run({"--help"});
    QVERIFY(help.output.contains("fit"));
    const Outcome fit_help = run({"fit", "--help"});
    QCOMPARE(fit_help.exit_code, 0);
    for (const auto& option : {"--method", "--iter", "--tol-rel-obj", "--eta", "--grad-samples", "--output-draws",
                               "--precondition"}) {
      QVERIFY2(fit_help.output.contains(option), option);
    }
  }
};

QTEST_GUILESS_MAIN(TestVariateFit)
#include "tst_variate_fit.moc"
