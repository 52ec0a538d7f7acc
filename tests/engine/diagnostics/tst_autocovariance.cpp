// The FFT autocovariance against the O(n^2) sum it replaces.

#include <QtTest/QtTest>
#include <cmath>

#include "engine/core/checks.h"
#include "engine/diagnostics/autocovariance.h"

namespace vd = variate::diagnostics;

namespace {

std::vector<double> naive_autocovariance(const std::vector<double>& x) {
  const std::size_t n = x.size();
  double mean = 0;
  for (double v : x) mean += v / n;
  std::vector<double> gamma(n, 0.0);
  for (std::size_t t = 0; t < n; ++t) {
    for (std::size_t i = 0; i + t < n; ++i) gamma[t] += (x[i] - mean) * (x[i + t] - mean);
    gamma[t] /= n;
  }
  return gamma;
}

std::vector<double> random_chain(int n, uint64_t seed, double offset) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor z = at::randn({n}, generator, at::kDouble).cumsum(0).contiguous();
  std::vector<double> x(z.data_ptr<double>(), z.data_ptr<double>() + n);
  for (double& v : x) v += offset;
  return x;
}

}  // namespace

class TestAutocovariance : public QObject {
  Q_OBJECT

 private slots:
  void matchesDirectSum_data() {
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("offset");
    QTest::newRow("1 draw") << 1 << 0.0;
    QTest::newRow("2 draws") << 2 << 0.0;
    QTest::newRow("7 draws") << 7 << 1.0;
    QTest::newRow("97 draws (prime)") << 97 << -3.0;
    QTest::newRow("1000 draws") << 1000 << 0.0;
    QTest::newRow("1001 draws, far from 0") << 1001 << 1e4;
  }
  void matchesDirectSum() {
    QFETCH(int, n);
    QFETCH(double, offset);
    const std::vector<double> x = random_chain(n, 40 + n, offset);
    const std::vector<double> got = vd::autocovariance(x);
    const std::vector<double> expected = naive_autocovariance(x);
    QCOMPARE(got.size(), expected.size());
    for (std::size_t t = 0; t < got.size(); ++t) {
      QVERIFY2(std::abs(got[t] - expected[t]) <= 1e-10 * std::max(1.0, expected[0]),
               qPrintable(QString("lag %1: %2 vs %3").arg(t).arg(got[t]).arg(expected[t])));
    }
  }

  void meanOverChainsIsLagwiseMean() {
    const vd::Draws chains{random_chain(300, 1, 0), random_chain(300, 2, 5),
                           random_chain(300, 3, -2)};
    const std::vector<double> mean = vd::mean_autocovariance(chains);
    std::vector<double> expected(300, 0.0);
    for (const auto& chain : chains) {
      const auto gamma = naive_autocovariance(chain);
      for (std::size_t t = 0; t < 300; ++t) expected[t] += gamma[t] / 3;
    }
    for (std::size_t t = 0; t < 300; ++t) {
      QVERIFY(std::abs(mean[t] - expected[t]) <= 1e-10 * expected[0]);
    }
  }

  void edgeCases() {
    QVERIFY(vd::autocovariance({}).empty());
    const std::vector<double> constant = vd::autocovariance({2, 2, 2, 2});
    for (double g : constant) QCOMPARE(g, 0.0);
    const std::vector<double> with_nan = vd::autocovariance({1, std::nan(""), 3});
    QVERIFY(std::isnan(with_nan[0]));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::mean_autocovariance({{1, 2}, {3}}));
  }
};

QTEST_APPLESS_MAIN(TestAutocovariance)
#include "tst_autocovariance.moc"
