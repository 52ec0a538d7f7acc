// The Draws helpers: validation, constancy as posterior defines it, pooling.

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "engine/core/checks.h"
#include "engine/diagnostics/draws.h"

namespace vd = variate::diagnostics;

class TestDraws : public QObject {
  Q_OBJECT

 private slots:
  void constancyUsesMachineEpsilon() {
    QVERIFY(vd::is_constant({{1.5, 1.5}, {1.5, 1.5}}));
    // Relative to the draws' magnitude: constancy does not depend on the units.
    QVERIFY(!vd::is_constant({{1e-20, 2e-20}}));
    QVERIFY(vd::is_constant({{3e200, 3e200}, {3e200, 3e200}}));
    QVERIFY(!vd::is_constant({{3e200, 3.0000000000001e200}}));
    QVERIFY(vd::is_constant({{0.0, 0.0}}));
    QVERIFY(!vd::is_constant({{1.0, 1.0 + 1e-15}}));
    QVERIFY(!vd::is_constant({{1.0}, {2.0}}));
  }

  void finiteness() {
    QVERIFY(vd::all_finite({{1, 2}, {3, 4}}));
    QVERIFY(!vd::all_finite({{1, 2}, {3, std::nan("")}}));
    QVERIFY(!vd::all_finite({{-std::numeric_limits<double>::infinity(), 2}}));
  }

  void pooledIsChainAfterChain() {
    QCOMPARE(vd::pooled({{1, 2}, {3, 4}, {5, 6}}), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    QCOMPARE(vd::draws_per_chain({{1, 2}, {3, 4}, {5, 6}}), std::size_t{2});
    QCOMPARE(vd::draws_per_chain({}), std::size_t{0});
  }

  void checkDraws() {
    vd::check_draws("f", {{1, 2}, {3, 4}});
    vd::check_draws("f", {{}, {}});
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::check_draws("f", {}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::check_draws("f", {{1}, {}}));
    variate::ValidationGuard off(false);  // guards indexing: never switched off
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::check_draws("f", {{1}, {}}));
  }
};

QTEST_APPLESS_MAIN(TestDraws)
#include "tst_draws.moc"
