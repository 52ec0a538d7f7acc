// The ELBO trend judges a run's last evaluations against their own noise: a steady climb
// is "still improving" even when each step is tiny relative to the ELBO (Stan's rule would
// call it converged), a noisy plateau is not, and only the evaluations after the last step
// reduction count.

#include <cmath>

#include <ATen/CPUGeneratorImpl.h>
#include <QtTest/QtTest>

#include "engine/vi/elbo_trend.h"

namespace vt = variate;

namespace {

std::vector<vt::ElboEvaluation> trace(const std::vector<double>& values) {
  std::vector<vt::ElboEvaluation> t;
  for (size_t i = 0; i < values.size(); ++i) {
    vt::ElboEvaluation e;
    e.iteration = static_cast<int>(100 * (i + 1));
    e.elbo = values[i];
    t.push_back(e);
  }
  return t;
}

std::vector<double> noisy(double start, double slope, double noise, int n, uint64_t seed) {
  at::Generator g = at::make_generator<at::CPUGeneratorImpl>(seed);
  const at::Tensor z = at::randn({n}, g, at::kDouble);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(start + slope * i + noise * z[i].item<double>());
  return v;
}

}  // namespace

class TestElboTrend : public QObject {
  Q_OBJECT

 private slots:
  void aSteadyClimbIsStillImproving() {
    // -50000 rising by 5 per evaluation: a relative change of 1e-4, far below Stan's 0.01.
    const vt::ElboTrend t = vt::elbo_trend(trace(noisy(-50000, 5, 1, 12, 1)));
    QCOMPARE(t.evaluations, 10);
    QVERIFY(t.still_improving);
    QVERIFY2(std::abs(t.rise - 45) < 5, qPrintable(QString::number(t.rise)));
  }

  void aNoisyPlateauIsNot() {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const vt::ElboTrend t = vt::elbo_trend(trace(noisy(-300, 0, 2, 10, seed)));
      QVERIFY2(!t.still_improving, qPrintable(QString("seed %1: rise %2 se %3").arg(seed).arg(t.rise).arg(t.standard_error)));
    }
  }

  void onlyTheLastPhaseCounts() {
    std::vector<vt::ElboEvaluation> t = trace(noisy(-1000, 50, 1, 8, 2));
    t.back().step_reduced = true;
    const std::vector<vt::ElboEvaluation> flat = trace(noisy(-600, 0, 1, 6, 3));
    t.insert(t.end(), flat.begin(), flat.end());
    const vt::ElboTrend trend = vt::elbo_trend(t);
    QCOMPARE(trend.evaluations, 6);
    QVERIFY(!trend.still_improving);
  }

  void tooFewToJudge() {
    QCOMPARE(vt::elbo_trend(trace({-10, -5, -1})).evaluations, 0);
    QVERIFY(!vt::elbo_trend(trace({-10, -5, -1})).still_improving);
  }
};

QTEST_APPLESS_MAIN(TestElboTrend)
#include "tst_elbo_trend.moc"
