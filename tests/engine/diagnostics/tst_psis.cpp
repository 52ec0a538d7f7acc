// Pareto smoothed importance sampling (diagnostics/psis.h) against R's loo::psis
// (r-cran-loo, r_eff = 1) on twelve fixed vectors of log ratios, from light to very heavy
// tails, a mean-field approximation of a correlated Gaussian (a known bad q), and a tail
// too short to fit: k-hat and every smoothed log weight agree to 1e-6
// (tests/data/psis/make_reference.R wrote the reference).

#include <cmath>

#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/psis.h"

namespace vdiag = variate::diagnostics;

namespace {

std::vector<double> numbers(const QJsonArray& array) {
  std::vector<double> out;
  for (const auto& v : array) out.push_back(v.toDouble());
  return out;
}

// Agreement to 1e-6, relative where the values are large.
bool close(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

}  // namespace

class TestPsis : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void agreesWithLoo_data() {
    QTest::addColumn<QJsonObject>("reference");
    QFile file(QT_TESTCASE_SOURCEDIR "/data/psis/reference.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray cases = document["cases"].toArray();
    QVERIFY(cases.size() >= 10);
    for (const auto& c : cases) QTest::newRow(qPrintable(c.toObject()["name"].toString())) << c.toObject();
  }

  void agreesWithLoo() {
    QFETCH(QJsonObject, reference);
    const std::vector<double> log_ratios = numbers(reference["log_ratios"].toArray());
    const std::vector<double> expected = numbers(reference["log_weights"].toArray());
    // jsonlite writes Inf as a string.
    const double expected_k = reference["pareto_k"].isString() ? INFINITY : reference["pareto_k"].toDouble();
    const vdiag::PsisResult psis = vdiag::pareto_smooth(log_ratios);
    QVERIFY2(close(psis.k_hat, expected_k), qPrintable(QString("k-hat %1, loo %2").arg(psis.k_hat, 0, 'g', 12).arg(expected_k, 0, 'g', 12)));
    QCOMPARE(psis.log_weights.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(close(psis.log_weights[i], expected[i]),
               qPrintable(QString("log weight %1: %2, loo %3").arg(i).arg(psis.log_weights[i], 0, 'g', 12).arg(expected[i], 0, 'g', 12)));
    }
  }

  void aBadApproximationIsFlagged() {
    QFile file(QT_TESTCASE_SOURCEDIR "/data/psis/reference.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    for (const auto& c : QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray()) {
      const QJsonObject reference = c.toObject();
      const double k = vdiag::pareto_smooth(numbers(reference["log_ratios"].toArray())).k_hat;
      if (reference["name"].toString() == "meanfield_correlated" || reference["name"].toString() == "pareto_1.2") {
        QVERIFY2(k > vdiag::kPsisKHatThreshold, qPrintable(reference["name"].toString() + QString(": %1").arg(k)));
      }
      if (reference["name"].toString() == "normal_1") QVERIFY(k < vdiag::kPsisKHatThreshold);
    }
  }

  void badInputIsRefused() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vdiag::pareto_smooth({1.0}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vdiag::pareto_smooth({1.0, NAN, 2.0}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vdiag::pareto_smooth({1.0, INFINITY, 2.0}));
    // -inf (a draw q gives where p has no mass) is a weight of zero.
    const auto psis = vdiag::pareto_smooth({-INFINITY, 0.0, 1.0});
    QCOMPARE(psis.log_weights[0], -INFINITY);
  }
};

QTEST_GUILESS_MAIN(TestPsis)
#include "tst_psis.moc"
