// Phi^-1 against R's qnorm (Wichura's AS 241) and against the normal CDF.

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "tests/support/statistics.h"
#include "engine/diagnostics/inverse_normal_cdf.h"

namespace vd = variate::diagnostics;

class TestInverseNormalCdf : public QObject {
  Q_OBJECT

 private slots:
  void matchesRQnorm_data() {
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");  // R 4.2 qnorm(p), 17 digits
    QTest::newRow("1e-300") << 1e-300 << -37.04709629936120052;
    QTest::newRow("1e-10") << 1e-10 << -6.36134090240405570;
    QTest::newRow("1e-5") << 1e-5 << -4.26489079392282555;
    QTest::newRow("0.001") << 0.001 << -3.09023230616781319;
    QTest::newRow("region boundary") << 0.02425 << -1.97296105131188448;
    QTest::newRow("0.03") << 0.03 << -1.88079360815125085;
    QTest::newRow("0.2") << 0.2 << -0.84162123357291418;
    QTest::newRow("0.5") << 0.5 << 0.0;
    QTest::newRow("0.6") << 0.6 << 0.25334710313579978;
    QTest::newRow("0.975") << 0.975 << 1.95996398454005361;
    QTest::newRow("0.99999") << 0.99999 << 4.26489079392383985;
    QTest::newRow("1 - 1e-12") << 1 - 1e-12 << 7.03448691004783555;
  }
  void matchesRQnorm() {
    QFETCH(double, p);
    QFETCH(double, expected);
    const double got = vd::inverse_normal_cdf(p);
    QVERIFY2(
        std::abs(got - expected) <= 1e-14 * std::max(1.0, std::abs(expected)),
        qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void invertsTheCdf() {
    for (double p = 0.0005; p < 1; p += 0.001) {
      const double x = vd::inverse_normal_cdf(p);
      QVERIFY2(std::abs(variate::testing::normal_cdf(x) - p) <= 1e-14,
               qPrintable(QString::number(p)));
    }
  }

  void symmetric() {
    for (double p : {std::ldexp(1.0, -30), 0.0078125, 0.125, 0.375, 0.4375}) {  // 1 - p exact
      QCOMPARE(vd::inverse_normal_cdf(1 - p), -vd::inverse_normal_cdf(p));
    }
  }

  void endpointsAndOutside() {
    QCOMPARE(vd::inverse_normal_cdf(0), -std::numeric_limits<double>::infinity());
    QCOMPARE(vd::inverse_normal_cdf(1), std::numeric_limits<double>::infinity());
    QVERIFY(std::isnan(vd::inverse_normal_cdf(-0.1)));
    QVERIFY(std::isnan(vd::inverse_normal_cdf(1.5)));
    QVERIFY(std::isnan(vd::inverse_normal_cdf(std::nan(""))));
  }
};

QTEST_APPLESS_MAIN(TestInverseNormalCdf)
#include "tst_inverse_normal_cdf.moc"
