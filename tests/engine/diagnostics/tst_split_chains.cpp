// Splitting chains in halves: order of the halves, the dropped middle draw.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/diagnostics/split_chains.h"

namespace vd = variate::diagnostics;

class TestSplitChains : public QObject {
  Q_OBJECT

 private slots:
  void splits_data() {
    QTest::addColumn<vd::Draws>("draws");
    QTest::addColumn<vd::Draws>("expected");
    QTest::newRow("even") << vd::Draws{{1, 2, 3, 4}, {5, 6, 7, 8}}
                          << vd::Draws{{1, 2}, {5, 6}, {3, 4}, {7, 8}};
    QTest::newRow("odd drops the middle draw")
        << vd::Draws{{1, 2, 3, 4, 5}} << vd::Draws{{1, 2}, {4, 5}};
    QTest::newRow("three draws") << vd::Draws{{1, 2, 3}} << vd::Draws{{1}, {3}};
    QTest::newRow("one draw stays") << vd::Draws{{1}, {2}} << vd::Draws{{1}, {2}};
    QTest::newRow("no draws") << vd::Draws{{}} << vd::Draws{{}, {}};
  }
  void splits() {
    QFETCH(vd::Draws, draws);
    QFETCH(vd::Draws, expected);
    QCOMPARE(vd::split_chains(draws), expected);
  }

  void invalidDrawsThrow() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::split_chains({}));
    try {
      vd::split_chains({{1, 2}, {1, 2}, {3}});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("split_chains: argument 'draws' must be chains of equal length, got 1 "
                       "(at index [2])"));
    }
    try {
      vd::split_chains({});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("split_chains: argument 'draws' must be at least one chain, got 0"));
    }
  }
};

QTEST_APPLESS_MAIN(TestSplitChains)
#include "tst_split_chains.moc"
