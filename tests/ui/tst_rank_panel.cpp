// The Ranks panel: each chain's histogram of the ranks of its post-warmup draws among all
// chains' draws (Vehtari et al. 2021). Counts add up to the draws, every bin of the pooled
// ranks holds the same number, a chain sampling elsewhere piles up at one end, and the
// plot grows with live draws. Ranks are computed off the UI thread: a result for
// parameters no longer picked is dropped, and the one for those picked arrives.

#include <numeric>
#include <random>

#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/rank_panel.h"
#include "ui/plots/sampling_draws.h"

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 100;

/// Chain c's iterations [0, count): x ~ Normal(shift_c, 1); k takes 5 values (ties).
Iterations chainDraws(int chain, int count, double shift, unsigned seed) {
  std::mt19937 generator(seed + 17u * static_cast<unsigned>(chain));
  std::normal_distribution<double> normal(shift, 1.0);
  Iterations rows;
  for (int i = 0; i < count; ++i) rows.add({normal(generator), double(i % 5)});
  return rows;
}

/// The step graph's heights: one per bin (its last point repeats the last bin's).
std::vector<int> plottedCounts(RankPanel& panel, int rect, int chain) {
  for (QCPGraph* graph : panel.plot()->axisRect(rect)->graphs()) {
    if (graph->name() != QString("chain %1").arg(chain + 1)) continue;
    std::vector<int> counts;
    for (int b = 0; b < RankPanel::bins(); ++b) counts.push_back(int(graph->data()->at(b)->value));
    return counts;
  }
  return {};
}

/// Four chains of `count` iterations, the fourth shifted by 3 sd.
std::vector<Iterations> fourChains(int count) {
  std::vector<Iterations> chains;
  for (int c = 0; c < 4; ++c) chains.push_back(chainDraws(c, count, c == 3 ? 3.0 : 0.0, 5));
  return chains;
}

int sum(const std::vector<int>& counts) { return std::accumulate(counts.begin(), counts.end(), 0); }

}  // namespace

class TestRankPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void ranksOfSmallCases() {
    // Ranks 1..4: chain 1 holds the two lowest, chain 2 the two highest.
    QCOMPARE(rankHistograms({{1, 2}, {3, 4}}, 2), (std::vector<std::vector<int>>{{2, 0}, {0, 2}}));
    QCOMPARE(rankHistograms({{4, 1}, {2, 3}}, 4), (std::vector<std::vector<int>>{{1, 0, 0, 1}, {0, 1, 1, 0}}));
    // Four ties share the rank 2.5, which falls in the first of two bins.
    QCOMPARE(rankHistograms({{7, 7}, {7, 7}}, 2), (std::vector<std::vector<int>>{{2, 0}, {2, 0}}));
  }

  void countsAddUpAndAStrayChainStandsOut() {
    analysis_test::AnalysisFixture fixture;
    const qint64 id = fixture.addRun({"x", "k"}, kWarmup, fourChains(kWarmup + 400));
    RankPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"x", "k"}));
    QCOMPARE(panel.plot()->axisRectCount(), 2);

    std::vector<int> perBin(RankPanel::bins(), 0);
    for (int c = 0; c < 4; ++c) {
      const std::vector<int> counts = plottedCounts(panel, 0, c);
      QCOMPARE(int(counts.size()), RankPanel::bins());
      QCOMPARE(sum(counts), 400);  // the post-warmup draws of the chain
      for (int b = 0; b < RankPanel::bins(); ++b) perBin[b] += counts[b];
    }
    // Without ties, the 1600 ranks fill the 20 bins equally.
    for (int b = 0; b < RankPanel::bins(); ++b) QCOMPARE(perBin[b], 1600 / RankPanel::bins());
    // Chain 4 (shifted by 3 sd) holds nearly all of the top quarter of ranks, the others
    // spread over the rest.
    const std::vector<int> stray = plottedCounts(panel, 0, 3);
    QVERIFY2(sum(std::vector<int>(stray.end() - 5, stray.end())) > 350, qPrintable(QString::number(sum(stray))));
    const std::vector<int> good = plottedCounts(panel, 0, 0);
    for (int b = 0; b < 10; ++b) QVERIFY2(good[b] > 5 && good[b] < 60, qPrintable(QString("bin %1: %2").arg(b).arg(good[b])));

    // Ties (k takes 5 values) still count every draw once.
    for (int c = 0; c < 4; ++c) QCOMPARE(sum(plottedCounts(panel, 1, c)), 400);

    // Live draws are ranked too.
    QVERIFY(analysis_test::recomputesAfter(panel, [&] {
      for (int c = 0; c < 4; ++c) fixture.appendLive(id, c, chainDraws(c + 10, 100, 0.0, 9));
    }));
    for (int c = 0; c < 4; ++c) QCOMPARE(sum(plottedCounts(panel, 0, c)), 500);

    QString error;
    QVERIFY2(analysis_test::exportsEveryFormat(panel, &error), qPrintable(error));
  }

  void theResultForTheParametersPickedLastArrives() {
    analysis_test::AnalysisFixture fixture;
    const qint64 id = fixture.addRun({"x", "k"}, kWarmup, fourChains(kWarmup + 50000));
    RankPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"x"}));
    // New draws start ranking x's 200,000 draws; meanwhile k is picked instead.
    QTest::qWait(300);  // past the 250 ms between recomputations, so the draws start one
    QSignalSpy refreshed(&panel, &RunPlotPanel::refreshed);
    for (int c = 0; c < 4; ++c) fixture.appendLive(id, c, chainDraws(c + 10, 10, 0.0, 9));
    QVERIFY(refreshed.wait(5000));
    QSignalSpy recomputed(&panel, &DerivedPlotPanel::recomputed);
    panel.picker()->setSelected({"k"});
    QVERIFY(recomputed.wait(30000));
    QCOMPARE(panel.plot()->axisRect(0)->axis(QCPAxis::atLeft)->label(), QString("k"));
    const RunPtr run = fixture.document()->runs()->run(id);
    const auto expected = rankHistograms(samplingDraws(*run, run->columnIndex("k")), RankPanel::bins());
    for (int c = 0; c < 4; ++c) {
      QCOMPARE(plottedCounts(panel, 0, c), expected[static_cast<size_t>(c)]);
      QCOMPARE(sum(plottedCounts(panel, 0, c)), 50010);
    }
  }

  void chainsOfUnequalLengthAreCutToTheShortest() {
    analysis_test::AnalysisFixture fixture;
    fixture.addRun({"x", "k"}, 10, {chainDraws(0, 10 + 300, 0, 1), chainDraws(1, 10 + 240, 0, 1)});
    RankPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"x"}));
    QCOMPARE(sum(plottedCounts(panel, 0, 0)), 240);
    QCOMPARE(sum(plottedCounts(panel, 0, 1)), 240);
  }
};

QTEST_MAIN(TestRankPanel)
#include "tst_rank_panel.moc"
