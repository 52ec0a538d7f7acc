// E-BFMI against Betancourt's (2016) formula written out directly.

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "engine/diagnostics/ebfmi.h"

namespace vd = variate::diagnostics;

namespace {

double naive_ebfmi(const std::vector<double>& e) {
  double mean = 0;
  for (double x : e) mean += x / e.size();
  double numerator = 0, denominator = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (i > 0) numerator += std::pow(e[i] - e[i - 1], 2);
    denominator += std::pow(e[i] - mean, 2);
  }
  return numerator / denominator;
}

std::vector<double> ar1_energy(int n, double phi, uint64_t seed) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor z = at::randn({n}, generator, at::kDouble);
  std::vector<double> e(n);
  for (int i = 0; i < n; ++i) {
    e[i] = (i > 0 ? phi * e[i - 1] : 0.0) + z[i].item<double>();
  }
  for (double& x : e) x += 50;  // energies sit far from 0
  return e;
}

}  // namespace

class TestEbfmi : public QObject {
  Q_OBJECT

 private slots:
  void matchesFormula_data() {
    QTest::addColumn<std::vector<double>>("energy");
    QTest::newRow("two draws") << std::vector<double>{1.0, 3.0};
    QTest::newRow("hand example") << std::vector<double>{10, 12, 11, 15, 9, 10.5};
    QTest::newRow("iid") << ar1_energy(2000, 0.0, 31);
    QTest::newRow("sticky") << ar1_energy(2000, 0.95, 32);
  }
  void matchesFormula() {
    QFETCH(std::vector<double>, energy);
    const double expected = naive_ebfmi(energy);
    const double got = vd::ebfmi(energy);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * expected,
             qPrintable(QString("got %1, expected %2").arg(got).arg(expected)));
  }

  void handExampleValue() {
    // mean 2.5; squared differences 1 + 4 + 1 = 6; squared deviations
    // 2.25 + 0.25 + 2.25 + 0.25 = 5.
    QCOMPARE(vd::ebfmi({1, 2, 4, 3}), 1.2);
  }

  void iidNearTwoStickyNearZero() {
    // For a stationary AR(1), E-BFMI -> 2 (1 - phi).
    QVERIFY(std::abs(vd::ebfmi(ar1_energy(20000, 0.0, 33)) - 2) < 0.05);
    QVERIFY(std::abs(vd::ebfmi(ar1_energy(20000, 0.95, 34)) - 0.1) < 0.02);
  }

  void undefinedCasesGiveNaN() {
    QVERIFY(std::isnan(vd::ebfmi({})));
    QVERIFY(std::isnan(vd::ebfmi({4.0})));
    QVERIFY(std::isnan(vd::ebfmi({2.0, 2.0, 2.0})));
    QVERIFY(std::isnan(vd::ebfmi({1.0, std::nan(""), 2.0})));
    QVERIFY(std::isnan(vd::ebfmi({1.0, std::numeric_limits<double>::infinity(), 2.0})));
  }
};

QTEST_APPLESS_MAIN(TestEbfmi)
#include "tst_ebfmi.moc"
