// Stan's relative-tolerance rule for ADVI: relative changes, the circular buffer's mean
// and (upper) median, and the window size.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/vi/advi_convergence.h"
#include "engine/core/checks.h"

namespace vt = variate;

class TestAdviConvergence : public QObject {
  Q_OBJECT

 private slots:
  void windowIsStans() {
    QCOMPARE(vt::ElboConvergence::stan_window(10000, 100), size_t{10});
    QCOMPARE(vt::ElboConvergence::stan_window(1000, 100), size_t{2});
    QCOMPARE(vt::ElboConvergence::stan_window(100000, 100), size_t{100});
  }

  void firstChangeIsOneAsInStan() {
    vt::ElboConvergence rule(0.01, 10);
    const auto e = rule.add(100, -250.0);
    QCOMPARE(e.iteration, 100);
    QCOMPARE(e.elbo, -250.0);
    QCOMPARE(e.relative_change, 1.0);
    QCOMPARE(e.mean_relative_change, 1.0);
    QVERIFY(!e.converged());
  }

  void meanAndUpperMedianOverTheBuffer() {
    vt::ElboConvergence rule(0.05, 3);
    rule.add(100, -100.0);                   // change 1
    auto e = rule.add(200, -80.0);           // |(-100 + 80) / -80| = 0.25
    QCOMPARE(e.relative_change, 0.25);
    QCOMPARE(e.median_relative_change, 1.0);  // {1, 0.25}: the upper median, as Stan's
    e = rule.add(300, -79.2);                // 0.8 / 79.2
    const double third = 0.8 / 79.2;
    QVERIFY(std::abs(e.mean_relative_change - (1 + 0.25 + third) / 3) < 1e-15);
    QCOMPARE(e.median_relative_change, 0.25);
    QVERIFY(!e.converged());
    e = rule.add(400, -79.2);                // 0; the buffer drops the 1
    QCOMPARE(e.relative_change, 0.0);
    QCOMPARE(e.median_relative_change, third);
    QVERIFY(e.median_converged);
    QVERIFY(!e.mean_converged);              // (0.25 + third + 0) / 3 > 0.05
    e = rule.add(500, -79.2);
    QVERIFY(e.mean_converged && e.converged());
  }

  void nonFiniteElboNeverConverges() {
    vt::ElboConvergence rule(0.5, 2);
    rule.add(100, -10.0);
    const auto e = rule.add(200, NAN);
    QVERIFY(std::isinf(e.relative_change));
    QVERIFY(!e.converged());
  }

  void rejectsBadArguments() {
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::ElboConvergence(0, 10));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::ElboConvergence(0.01, 0));
  }
};

QTEST_APPLESS_MAIN(TestAdviConvergence)
#include "tst_advi_convergence.moc"
