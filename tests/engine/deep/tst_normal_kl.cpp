// KL(N(m, s) || N(m0, s0)) in closed form (engine/deep/normal_kl.h), the amortized ELBO's
// term for a Normal prior and a Normal guide: against the integral of q (log q - log p)
// by the trapezoid rule over m +- 12 s, zero for a Normal against itself, broadcasting
// as the ELBO's rows do, and its gradient against finite differences.

#include <cmath>

#include <ATen/ATen.h>
#include <QtTest/QtTest>

#include "engine/deep/normal_kl.h"
#include "tests/support/gradient_check.h"

using variate::deep::normal_kl;

namespace {

double normal_log_density(double z, double m, double s) {
  const double u = (z - m) / s;
  return -0.5 * u * u - std::log(s) - 0.5 * std::log(2 * M_PI);
}

// The integral of q (log q - log p) with q = N(m, s), p = N(m0, s0).
double integrated_kl(double m, double s, double m0, double s0) {
  constexpr int kPoints = 200001;
  const double lo = m - 12 * s;
  const double step = 24 * s / (kPoints - 1);
  double sum = 0;
  for (int i = 0; i < kPoints; ++i) {
    const double z = lo + i * step;
    const double log_q = normal_log_density(z, m, s);
    const double term = std::exp(log_q) * (log_q - normal_log_density(z, m0, s0));
    sum += (i == 0 || i == kPoints - 1) ? 0.5 * term : term;
  }
  return sum * step;
}

double kl_at(double m, double s, double m0, double s0) {
  return normal_kl(at::scalar_tensor(m, at::kDouble), at::scalar_tensor(s, at::kDouble),
                   at::scalar_tensor(m0, at::kDouble), at::scalar_tensor(s0, at::kDouble))
      .item<double>();
}

}  // namespace

class TestNormalKl : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheIntegral_data() {
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("s");
    QTest::addColumn<double>("m0");
    QTest::addColumn<double>("s0");
    QTest::newRow("standard prior") << 0.5 << 0.8 << 0.0 << 1.0;
    QTest::newRow("wider guide") << -1.0 << 3.0 << 2.0 << 1.5;
    QTest::newRow("narrow guide far out") << 4.0 << 0.05 << 0.0 << 1.0;
    QTest::newRow("wide prior") << 0.0 << 1.0 << 10.0 << 20.0;
  }

  void matchesTheIntegral() {
    QFETCH(double, m);
    QFETCH(double, s);
    QFETCH(double, m0);
    QFETCH(double, s0);
    const double expected = integrated_kl(m, s, m0, s0);
    const double got = kl_at(m, s, m0, s0);
    QVERIFY2(std::abs(got - expected) <= 1e-8 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("closed form %1, integral %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void vanishesForANormalAgainstItself() {
    QCOMPARE(kl_at(1.3, 0.7, 1.3, 0.7), 0.0);
    QVERIFY(kl_at(1.3, 0.7, 1.3, 0.71) > 0);
  }

  // A guide's [rows, d] against a prior of one value, as the ELBO's latent rows have it.
  void broadcastsRowsAgainstOnePrior() {
    const at::Tensor loc = at::tensor({0.1, -0.4, 2.0, 0.0, 1.0, -3.0}, at::kDouble).reshape({3, 2});
    const at::Tensor scale = at::tensor({0.5, 1.0, 2.0, 0.3, 1.5, 0.9}, at::kDouble).reshape({3, 2});
    const at::Tensor kl =
        normal_kl(loc, scale, at::scalar_tensor(0.5, at::kDouble), at::scalar_tensor(1.2, at::kDouble));
    QCOMPARE(kl.sizes().vec(), (std::vector<int64_t>{3, 2}));
    for (int64_t i = 0; i < 6; ++i) {
      const double m = loc.view(-1)[i].item<double>();
      const double s = scale.view(-1)[i].item<double>();
      QCOMPARE(kl.view(-1)[i].item<double>(), kl_at(m, s, 0.5, 1.2));
    }
  }

  void gradientMatchesFiniteDifferences() {
    // x = (m, log s, m0, log s0).
    const auto f = [](const at::Tensor& x) { return normal_kl(x[0], at::exp(x[1]), x[2], at::exp(x[3])); };
    const at::Tensor x = at::tensor({0.3, -0.2, -1.0, 0.4}, at::kDouble);
    const std::string mismatch = variate::testing::compare_gradients(f, x, 1e-6);
    QVERIFY2(mismatch.empty(), mismatch.c_str());
  }
};

QTEST_GUILESS_MAIN(TestNormalKl)
#include "tst_normal_kl.moc"
