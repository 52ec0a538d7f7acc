// `variate fit` (ADVI: --method meanfield and fullrank) on the posteriordb reference
// posteriors of tests/data/reference, against their NUTS reference draws: every
// parameter's mean (the summary JSON's, the mean of the approximation's 1000 draws) within
// half a reference sd of the reference mean, z = |mean - reference mean| / reference sd <= 0.5.
//
// Held to that: the linear regressions with a Gaussian likelihood (kHeld). Their posteriors
// are nearly Gaussian, and the best Gaussian approximation of a Gaussian in KL(q || p) has
// its means exactly, mean-field or full-rank alike (mean-field only shrinks the sds), so
// a fit that misses by half an sd has not found ADVI's optimum. The Monte Carlo error of
// the means (1000 draws: ~0.03 sd) and of the reference (10,000 draws) is far smaller.
// Several are correlated (|corr| up to 0.99999 in kilpisjarvi) or scaled over four orders
// of magnitude, which is where plain ADVI's stochastic gradient steps stall.
//
// Reported, not held (kReported): eight schools (non-centered; tau's posterior is skewed
// against zero) and gp_pois_regr (rho and alpha far from Gaussian): there the optimum of
// a Gaussian approximation need not have the posterior's means. Their rows fail only when
// the fit fails or a reference parameter is missing or not finite.
//
// Seeds: seed 1 by default (CI); seeds 1..5 with VARIATE_RUN_SLOW=1. Each row logs
// (qInfo) its worst z, the parameter and the fit's Pareto k-hat; a failure names the worst
// parameter and its z. bench/vi_accuracy.sh prints the same grid as a table.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "tests/app/run_program.h"

using json = nlohmann::json;
using namespace app_test;

namespace {

const QString kReference = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/");

// arK is a regression too: an AR(5) is y[t] ~ Normal(alpha + lags @ beta, sigma).
const QStringList kHeld = {"arK-arK",
                           "diamonds-diamonds",
                           "earnings-earn_height",
                           "earnings-logearn_interaction",
                           "kidiq-kidscore_interaction",
                           "kidiq-kidscore_momhsiq",
                           "kilpisjarvi_mod-kilpisjarvi",
                           "mesquite-logmesquite_logvas",
                           "mesquite-mesquite",
                           "sblrc-blr"};
// arma11 and hmm_example (recurrences) are reported until ADVI's accuracy on
// them has been measured and a tolerance can be held; so are the ODE models, Lotka-
// Volterra (local modes) and one_comp_mm_elim_abs (tails too heavy for a variance, whose
// reference means a Gaussian approximation cannot be held to).
const QStringList kReported = {"eight_schools-eight_schools_noncentered",
                               "gp_pois_regr-gp_pois_regr",
                               "arma-arma11",
                               "hmm_example-hmm_example",
                               "hudson_lynx_hare-lotka_volterra",
                               "one_comp_mm_elim_abs-one_comp_mm_elim_abs"};
const QStringList kMethods = {"meanfield", "fullrank"};
const double kMaxZ = 0.5;
const int kFitTimeoutMs = 10 * 60 * 1000;

QList<int> seeds() {
  if (qEnvironmentVariable("VARIATE_RUN_SLOW") == "1") return {1, 2, 3, 4, 5};
  return {1};
}

json read_nlohmann_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return json::parse(file.readAll().toStdString(), nullptr, false);
}

void add_rows(const QStringList& posteriors) {
  QTest::addColumn<QString>("name");
  QTest::addColumn<QString>("method");
  QTest::addColumn<int>("seed");
  for (const auto& name : posteriors) {
    for (const auto& method : kMethods) {
      for (int seed : seeds()) {
        QTest::newRow(qPrintable(QString("%1 %2 seed %3").arg(name, method).arg(seed))) << name << method << seed;
      }
    }
  }
}

// One fit's parameters against the reference.
struct Comparison {
  QString error;        // the fit failed or its summary lacks a parameter: the row fails
  QString worst = "-";  // the parameter with the largest z
  double worst_z = -1;
  double pareto_k = NAN;
  QStringList beyond;  // "name: z" for every parameter with z > kMaxZ
};

Comparison fit_and_compare(const QString& name, const QString& method, int seed) {
  Comparison c;
  const QString folder = kReference + name;
  QTemporaryDir output;
  const QString summary_path = output.filePath("summary.json");
  const Outcome outcome =
      run({"fit", folder + "/model.vmod", "--data", folder + "/data.json", "--method", method, "--seed",
           QString::number(seed), "--quiet", "--summary-json", summary_path},
          kFitTimeoutMs);
  if (outcome.exit_code != 0) {
    c.error = QString("variate fit exited with %1:\n%2").arg(outcome.exit_code).arg(outcome.output);
    return c;
  }
  const json summary = read_nlohmann_json(summary_path);
  if (!summary.is_object() || !summary.contains("parameters")) {
    c.error = "no summary JSON with \"parameters\" in " + summary_path;
    return c;
  }
  const json& ours = summary["parameters"];
  const json k = summary.value("variational", json::object()).value("pareto_k", json());
  if (k.is_number()) c.pareto_k = k.get<double>();
  if (k.is_string()) c.pareto_k = INFINITY;  // written "Inf"; null (NaN) stays NaN
  const json reference = read_nlohmann_json(folder + "/reference.json");
  QStringList missing;
  for (const auto& [parameter, r] : reference["parameters"].items()) {
    const QString p = QString::fromStdString(parameter);
    const json mean = ours.contains(parameter) ? ours[parameter].value("mean", json()) : json();
    if (!mean.is_number() || !std::isfinite(mean.get<double>())) {
      missing << p;
      continue;
    }
    const double z = std::abs(mean.get<double>() - r["mean"].get<double>()) / r["sd"].get<double>();
    if (z > c.worst_z) {
      c.worst_z = z;
      c.worst = p;
    }
    if (!(z <= kMaxZ)) c.beyond << QString("%1: z %2").arg(p).arg(z, 0, 'g', 3);
  }
  if (!missing.isEmpty()) c.error = "missing or not finite in the summary: " + missing.join(", ");
  return c;
}

void log_row(const QString& name, const QString& method, int seed, const Comparison& c) {
  qInfo("%s %s seed %d: worst z %.3g (%s), k-hat %.2f", qPrintable(name), qPrintable(method), seed, c.worst_z,
        qPrintable(c.worst), c.pareto_k);
}

}  // namespace

class TestViReference : public QObject {
  Q_OBJECT

 private slots:
  // A posterior added to tests/data/reference must be placed in one of the two lists.
  void everyReferencePosteriorIsListed() {
    const auto folders = QDir(kReference).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(folders.size() >= kHeld.size() + kReported.size());
    for (const auto& folder : folders) {
      QVERIFY2(kHeld.contains(folder) || kReported.contains(folder),
               qPrintable(folder + ": list it in kHeld or kReported"));
    }
    for (const auto& name : kHeld + kReported) QVERIFY2(folders.contains(name), qPrintable(name + ": no such folder"));
  }

  void meansMatchReference_data() { add_rows(kHeld); }
  void meansMatchReference() {
    QFETCH(QString, name);
    QFETCH(QString, method);
    QFETCH(int, seed);
    const Comparison c = fit_and_compare(name, method, seed);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    log_row(name, method, seed, c);
    QVERIFY2(c.beyond.isEmpty(),
             qPrintable(QString("worst: %1 with z = |mean - reference mean| / reference sd = %2 > %3 "
                                "(k-hat %4); %5 of the parameters beyond: %6")
                            .arg(c.worst)
                            .arg(c.worst_z, 0, 'g', 3)
                            .arg(kMaxZ)
                            .arg(c.pareto_k, 0, 'f', 2)
                            .arg(c.beyond.size())
                            .arg(c.beyond.join("; "))));
  }

  void reportsNonGaussianPosteriors_data() { add_rows(kReported); }
  void reportsNonGaussianPosteriors() {
    QFETCH(QString, name);
    QFETCH(QString, method);
    QFETCH(int, seed);
    const Comparison c = fit_and_compare(name, method, seed);
    QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
    log_row(name, method, seed, c);
  }
};

QTEST_GUILESS_MAIN(TestViReference)
#include "tst_vi_reference.moc"
