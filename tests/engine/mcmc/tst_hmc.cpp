// Fixed-length HMC: it leaves a Gaussian target invariant, and reports divergences.

#include <cmath>

#include <QtTest/QtTest>

#include "variate/core/checks.h"
#include "variate/mcmc/hmc.h"

namespace vt = variate;

namespace {

// log N(q; 0, diag(1, 9)) up to a constant.
double gaussian(const std::vector<double>& q, std::vector<double>& gradient) {
  gradient = {-q[0], -q[1] / 9.0};
  return -0.5 * (q[0] * q[0] + q[1] * q[1] / 9.0);
}

}  // namespace

class TestHmc : public QObject {
  Q_OBJECT

 private slots:
  void samplesAGaussian() {
    vt::EuclideanMetric metric(vt::MetricKind::diagonal, 2);
    metric.set_inverse_metric({1.0, 9.0});
    const vt::Hamiltonian hamiltonian(gaussian, metric);
    const vt::Hmc hmc(hamiltonian, 7);
    vt::RandomStream random(42);
    vt::PhasePoint point;
    point.q = {3.0, -3.0};
    point.p = {0.0, 0.0};
    hamiltonian.evaluate(point);
    double n = 0, m0 = 0, m1 = 0, s0 = 0, s1 = 0, accepted = 0;
    for (int i = 0; i < 20000; ++i) {
      const vt::HmcResult r = hmc.one_step(point, 0.3, random);
      accepted += r.is_accepted;
      if (i < 500) continue;
      ++n;
      m0 += point.q[0];
      m1 += point.q[1];
      s0 += point.q[0] * point.q[0];
      s1 += point.q[1] * point.q[1];
    }
    m0 /= n;
    m1 /= n;
    QVERIFY2(std::abs(m0) < 0.05 && std::abs(m1) < 0.15, qPrintable(QString("means %1 %2").arg(m0).arg(m1)));
    QVERIFY2(std::abs(s0 / n - m0 * m0 - 1) < 0.08, qPrintable(QString("variance 0: %1").arg(s0 / n)));
    QVERIFY2(std::abs(s1 / n - m1 * m1 - 9) < 0.7, qPrintable(QString("variance 1: %1").arg(s1 / n)));
    QVERIFY(accepted / 20000 > 0.8);
  }

  void hugeStepsDiverge() {
    vt::EuclideanMetric metric(vt::MetricKind::diagonal, 2);
    const vt::Hamiltonian hamiltonian(gaussian, metric);
    const vt::Hmc hmc(hamiltonian, 20);
    vt::RandomStream random(1);
    vt::PhasePoint point;
    point.q = {0.5, 0.5};
    point.p = {0.0, 0.0};
    hamiltonian.evaluate(point);
    const std::vector<double> start = point.q;
    const vt::HmcResult r = hmc.one_step(point, 50.0, random);
    QVERIFY(r.has_divergence);
    QVERIFY(!r.is_accepted);
    QVERIFY(point.q == start);
  }

  void rejectsAZeroLength() {
    vt::EuclideanMetric metric(vt::MetricKind::diagonal, 1);
    const vt::Hamiltonian hamiltonian(gaussian, metric);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vt::Hmc(hamiltonian, 0));
  }
};

QTEST_APPLESS_MAIN(TestHmc)
#include "tst_hmc.moc"
