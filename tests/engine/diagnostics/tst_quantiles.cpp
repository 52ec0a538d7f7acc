// Quantiles against R's quantile(type = 7) and the reference sets' q5/q50/q95.

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "tests/engine/diagnostics/reference_draws.h"
#include "engine/core/checks.h"
#include "engine/diagnostics/quantiles.h"

namespace vd = variate::diagnostics;
namespace vtest = variate::testing;

class TestQuantiles : public QObject {
  Q_OBJECT

 private slots:
  void matchesRType7_data() {
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<double>("prob");
    QTest::addColumn<double>("expected");  // R 4.2: quantile(values, prob, names = FALSE)
    const std::vector<double> x{3.5, -1, 2, 2, 10, 0.25, 7};
    QTest::newRow("minimum") << x << 0.0 << -1.0;
    QTest::newRow("5%") << x << 0.05 << -0.625;
    QTest::newRow("10%") << x << 0.1 << -0.24999999999999989;
    QTest::newRow("33% (tie)") << x << 0.33 << 1.96499999999999986;
    QTest::newRow("median") << x << 0.5 << 2.0;
    QTest::newRow("95%") << x << 0.95 << 9.09999999999999787;
    QTest::newRow("maximum") << x << 1.0 << 10.0;
    QTest::newRow("one value") << std::vector<double>{4.2} << 0.05 << 4.2;
    QTest::newRow("two values") << std::vector<double>{2, 1} << 0.37 << 1.37;
    QTest::newRow("infinite order statistics")
        << std::vector<double>{1, std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::infinity()}
        << 0.9 << std::numeric_limits<double>::infinity();
  }
  void matchesRType7() {
    QFETCH(std::vector<double>, values);
    QFETCH(double, prob);
    QFETCH(double, expected);
    const double got = vd::quantile(values, prob);
    QVERIFY2(
        got == expected || std::abs(got - expected) <= 1e-15 * std::abs(expected),
        qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void manyProbsInAnyOrder() {
    const std::vector<double> x{3.5, -1, 2, 2, 10, 0.25, 7};
    const std::vector<double> probs{0.95, 0.05, 0.5, 0.33, 0.5};
    const std::vector<double> got = vd::quantiles(x, probs);
    QCOMPARE(got.size(), probs.size());
    for (std::size_t k = 0; k < probs.size(); ++k) QCOMPARE(got[k], vd::quantile(x, probs[k]));
  }

  void matchesReferenceSets_data() {
    QTest::addColumn<QString>("set");
    const QStringList names = vtest::reference_set_names();
    if (names.isEmpty()) QTest::newRow("reference data missing") << QString("missing");
    for (const QString& name : names) QTest::newRow(qPrintable(name)) << name;
  }
  void matchesReferenceSets() {
    QFETCH(QString, set);
    const vd::Draws draws = vtest::read_reference_draws(set);
    QVERIFY2(!draws.empty(), "reference draws missing");
    auto expected = vtest::read_reference_expected()[set];
    QVERIFY(!expected.empty());
    const std::vector<double> q = vd::quantiles(vd::pooled(draws), {0.05, 0.5, 0.95});
    std::string error = vtest::compare_to_reference("q5", q[0], expected.at("q5"), 1e-14);
    if (error.empty()) error = vtest::compare_to_reference("q50", q[1], expected.at("q50"), 1e-14);
    if (error.empty()) error = vtest::compare_to_reference("q95", q[2], expected.at("q95"), 1e-14);
    if (error.empty()) {
      error = vtest::compare_to_reference("median", vd::median(draws), expected.at("q50"), 1e-14);
    }
    QVERIFY2(error.empty(), error.c_str());
  }

  void nanOrEmptyGivesNaN() {
    QVERIFY(std::isnan(vd::quantile(std::vector<double>{1, std::nan(""), 3}, 0.5)));
    QVERIFY(std::isnan(vd::quantile(std::vector<double>{}, 0.5)));
    QVERIFY(std::isnan(vd::median(vd::Draws{{}, {}})));
  }

  void invalidProbThrows() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::quantile(std::vector<double>{1, 2}, -0.1));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::quantile(std::vector<double>{1, 2}, 1.5));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vd::quantiles(std::vector<double>{1, 2}, {0.5, std::nan("")}));
    variate::ValidationGuard off(false);  // indexing depends on it: checked regardless
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::quantile(std::vector<double>{1, 2}, 2.0));
  }
};

QTEST_APPLESS_MAIN(TestQuantiles)
#include "tst_quantiles.moc"
