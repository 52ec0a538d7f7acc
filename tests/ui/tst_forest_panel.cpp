// The Forest panel: per parameter the median and the central 50% and 90% intervals of its
// post-warmup draws, over all chains and, with "Each chain", for each chain; the plotted
// endpoints are R's type-7 quantiles of the draws, computed here from the definition.

#include <algorithm>
#include <cmath>
#include <random>

#include <QCheckBox>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/forest_panel.h"

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 20;

/// R's type 7: with h = (n - 1) p, x_(floor h) + (h - floor h)(x_(floor h + 1) - x_(floor h)).
double type7(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = (double(x.size()) - 1) * p;
  const size_t lo = size_t(std::floor(h));
  const size_t hi = std::min(lo + 1, x.size() - 1);
  return x[lo] + (h - double(lo)) * (x[hi] - x[lo]);
}

/// Chain c: a ~ Normal(c, 1), b ~ Exponential(1) (skewed: its intervals are not symmetric).
std::vector<Iterations> chains(int count) {
  std::vector<Iterations> out(3);
  std::mt19937 generator(21);
  for (int c = 0; c < 3; ++c) {
    std::normal_distribution<double> normal(c, 1);
    std::exponential_distribution<double> exponential(1);
    for (int i = 0; i < count; ++i) out[c].add({normal(generator), exponential(generator)});
  }
  return out;
}

std::vector<double> drawsOf(const std::vector<Iterations>& chains, int column, int chain) {
  std::vector<double> values;
  for (int c = 0; c < int(chains.size()); ++c) {
    if (chain >= 0 && c != chain) continue;
    for (int i = kWarmup; i < int(chains[c].values.size()); ++i) values.push_back(chains[c].values[i][column]);
  }
  return values;
}

/// The plotted (row, median, 50% and 90% endpoints) of graph `name` at parameter `index`.
void checkInterval(ForestPanel& panel, const QString& name, int index, int chain, const std::vector<double>& draws) {
  QCPGraph* medians = panel.medians(name);
  QCPErrorBars* inner = panel.intervals(name, 50);
  QCPErrorBars* outer = panel.intervals(name, 90);
  QVERIFY(medians && inner && outer);
  // Find the point of this parameter by its row.
  int point = -1;
  for (int i = 0; i < medians->dataCount(); ++i) {
    if (medians->data()->at(i)->key == panel.rowOf(index, chain)) point = i;
  }
  QVERIFY2(point >= 0, qPrintable(name));
  const double median = medians->data()->at(point)->value;
  const double tolerance = 1e-12;
  QVERIFY(std::abs(median - type7(draws, 0.5)) < tolerance);
  QVERIFY(std::abs(median - inner->data()->at(point).errorMinus - type7(draws, 0.25)) < tolerance);
  QVERIFY(std::abs(median + inner->data()->at(point).errorPlus - type7(draws, 0.75)) < tolerance);
  QVERIFY(std::abs(median - outer->data()->at(point).errorMinus - type7(draws, 0.05)) < tolerance);
  QVERIFY(std::abs(median + outer->data()->at(point).errorPlus - type7(draws, 0.95)) < tolerance);
}

}  // namespace

class TestForestPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void intervalsAreTheQuantiles() {
    analysis_test::AnalysisFixture fixture;
    std::vector<Iterations> draws = chains(kWarmup + 333);
    const qint64 id = fixture.addRun({"a", "b"}, kWarmup, draws);
    ForestPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"a", "b"}));
    // The first parameter on top, named on the axis.
    QVERIFY(panel.rowOf(0) > panel.rowOf(1));
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(panel.plot()->axisRect(0)->axis(QCPAxis::atLeft)->ticker());
    QCOMPARE(ticker->ticks().value(panel.rowOf(0)), QString("a"));
    QCOMPARE(ticker->ticks().value(panel.rowOf(1)), QString("b"));
    for (int p = 0; p < 2; ++p) checkInterval(panel, "all chains", p, -1, drawsOf(draws, p, -1));
    QVERIFY(!panel.medians("chain 1"));
    // b is skewed right: its upper 90% arm is longer than its lower one.
    QCPErrorBars* outer = panel.intervals("all chains", 90);
    const int bPoint = panel.medians("all chains")->data()->at(0)->key == panel.rowOf(1) ? 0 : 1;
    QVERIFY(outer->data()->at(bPoint).errorPlus > 2 * outer->data()->at(bPoint).errorMinus);

    // Each chain's intervals, below the pooled ones.
    QVERIFY(analysis_test::recomputesAfter(panel, [&] { panel.findChild<QCheckBox*>("perChain")->click(); }));
    for (int c = 0; c < 3; ++c) {
      for (int p = 0; p < 2; ++p) checkInterval(panel, QString("chain %1").arg(c + 1), p, c, drawsOf(draws, p, c));
      QVERIFY(panel.rowOf(0, c) < panel.rowOf(0) && panel.rowOf(0, c) > panel.rowOf(1));
    }
    checkInterval(panel, "all chains", 0, -1, drawsOf(draws, 0, -1));

    // Live draws move the intervals.
    std::vector<Iterations> more = chains(kWarmup + 100);
    QVERIFY(analysis_test::recomputesAfter(panel, [&] {
      for (int c = 0; c < 3; ++c) {
        Iterations rows;
        for (int i = kWarmup; i < kWarmup + 100; ++i) {
          rows.add(more[c].values[i]);
          draws[c].add(more[c].values[i]);
        }
        fixture.appendLive(id, c, rows);
      }
    }));
    checkInterval(panel, "all chains", 1, -1, drawsOf(draws, 1, -1));
    checkInterval(panel, "chain 2", 1, 1, drawsOf(draws, 1, 1));

    QString error;
    QVERIFY2(analysis_test::exportsEveryFormat(panel, &error), qPrintable(error));
  }
};

QTEST_MAIN(TestForestPanel)
#include "tst_forest_panel.moc"
