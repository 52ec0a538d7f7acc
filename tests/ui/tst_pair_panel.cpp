// The Pairs panel: a scatter matrix of the chosen parameters' post-warmup draws with the
// divergent transitions marked, and each density on the diagonal; it grows with live
// draws and exports as PNG, SVG and PDF.

#include <algorithm>

#include <QLabel>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/pair_panel.h"

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 50;

/// Iterations [first, first + count) of chain c: a = i, b = 2i + c, c = -i; iterations
/// divisible by 7 diverge (warmup ones too, which the panel must not mark).
Iterations chainDraws(int chain, int first, int count) {
  Iterations rows;
  for (int i = first; i < first + count; ++i) {
    SamplerRow stat;
    stat.divergent = i % 7 == 0;
    rows.add({double(i), 2.0 * i + chain, -double(i) + 0.5 * chain}, stat);
  }
  return rows;
}

using Points = std::vector<std::pair<double, double>>;

Points pointsOf(QCPGraph* graph) {
  Points points;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) points.emplace_back(it->key, it->value);
  std::sort(points.begin(), points.end());
  return points;
}

QCPGraph* graphNamed(QCPAxisRect* rect, const QString& name) {
  for (QCPGraph* graph : rect->graphs()) {
    if (graph->name() == name) return graph;
  }
  return nullptr;
}

/// The (x, y) = (column x, column y) draws of the post-warmup iterations [kWarmup, end),
/// all or only the divergent ones.
Points expected(int end, int chains, int x, int y, bool divergentOnly) {
  Points points;
  for (int c = 0; c < chains; ++c) {
    const Iterations rows = chainDraws(c, kWarmup, end - kWarmup);
    for (size_t i = 0; i < rows.values.size(); ++i) {
      if (!divergentOnly || rows.stats[i].divergent) points.emplace_back(rows.values[i][x], rows.values[i][y]);
    }
  }
  std::sort(points.begin(), points.end());
  return points;
}

}  // namespace

class TestPairPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void scatterMatrixMarksDivergentDraws() {
    analysis_test::AnalysisFixture fixture;
    const qint64 id = fixture.addRun({"a", "b", "c"}, kWarmup, {chainDraws(0, 0, 250), chainDraws(1, 0, 250)});
    PairPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"a", "b", "c"}));
    QCOMPARE(panel.matrixParameters(), QStringList({"a", "b", "c"}));
    QCOMPARE(panel.plot()->axisRectCount(), 9);

    // Below the diagonal: row b against column a; above it the same pair transposed.
    QCPGraph* draws = graphNamed(panel.cell(1, 0), "draws");
    QCPGraph* divergent = graphNamed(panel.cell(1, 0), "divergent");
    QVERIFY(draws && divergent);
    QCOMPARE(pointsOf(draws), expected(250, 2, 0, 1, false));
    QCOMPARE(int(pointsOf(draws).size()), 2 * 200);
    QCOMPARE(pointsOf(divergent), expected(250, 2, 0, 1, true));
    QVERIFY(!pointsOf(divergent).empty());
    QCOMPARE(pointsOf(graphNamed(panel.cell(0, 1), "divergent")), expected(250, 2, 1, 0, true));
    QCOMPARE(pointsOf(graphNamed(panel.cell(2, 1), "divergent")), expected(250, 2, 1, 2, true));
    // Warmup divergences (iterations 0, 7, ..., 49) are not marked.
    for (const auto& [x, y] : pointsOf(divergent)) QVERIFY(x >= kWarmup);
    // The diagonal holds densities, not scatters.
    QVERIFY(graphNamed(panel.cell(2, 2), "density"));
    QVERIFY(!graphNamed(panel.cell(2, 2), "divergent"));
    QVERIFY(!graphNamed(panel.cell(2, 2), "density")->data()->isEmpty());
    const int divergences = int(expected(250, 2, 0, 1, true).size());
    QVERIFY2(panel.findChild<QLabel*>("pairCaption")->text().contains(QString("%1 divergent").arg(divergences)),
             qPrintable(panel.findChild<QLabel*>("pairCaption")->text()));

    // Live draws join the matrix, their divergences marked.
    QVERIFY(analysis_test::recomputesAfter(panel, [&] {
      fixture.appendLive(id, 0, chainDraws(0, 250, 100));
      fixture.appendLive(id, 1, chainDraws(1, 250, 100));
    }));
    QCOMPARE(pointsOf(graphNamed(panel.cell(1, 0), "draws")), expected(350, 2, 0, 1, false));
    QCOMPARE(pointsOf(graphNamed(panel.cell(1, 0), "divergent")), expected(350, 2, 0, 1, true));
    QVERIFY(expected(350, 2, 0, 1, true).size() > size_t(divergences));

    QString error;
    QVERIFY2(analysis_test::exportsEveryFormat(panel, &error), qPrintable(error));
  }

  void manyDrawsAreThinnedButNotTheirDivergences() {
    analysis_test::AnalysisFixture fixture;
    fixture.addRun({"a", "b", "c"}, kWarmup, {chainDraws(0, 0, kWarmup + 6000), chainDraws(1, 0, kWarmup + 6000)});
    PairPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"a", "b"}));
    const Points all = expected(kWarmup + 6000, 2, 0, 1, false);
    const Points shown = pointsOf(graphNamed(panel.cell(1, 0), "draws"));
    QVERIFY2(shown.size() <= 8000 && shown.size() >= 5000, qPrintable(QString::number(shown.size())));
    // An even thinning: every point shown is a draw, spread over the whole range.
    for (const auto& point : shown) QVERIFY(std::binary_search(all.begin(), all.end(), point));
    QVERIFY(shown.front().first < kWarmup + 10 && shown.back().first > kWarmup + 5990);
    QCOMPARE(pointsOf(graphNamed(panel.cell(1, 0), "divergent")), expected(kWarmup + 6000, 2, 0, 1, true));
  }

  void twoToFourParameters() {
    analysis_test::AnalysisFixture fixture;
    std::vector<Iterations> chains(2);
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < 100; ++i) chains[c].add({double(i), double(i % 5), double(i % 3), double(i % 4), double(c)});
    }
    fixture.addRun({"p1", "p2", "p3", "p4", "p5"}, 10, chains);
    PairPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"p1", "p2", "p3", "p4", "p5"}));
    QCOMPARE(panel.matrixParameters().size(), 4);  // a fifth would make the cells too small
    QCOMPARE(panel.plot()->axisRectCount(), 16);
    QVERIFY(panel.cell(3, 2) && !panel.cell(4, 0));
    QVERIFY(graphNamed(panel.cell(3, 2), "divergent")->data()->isEmpty());

    QVERIFY(analysis_test::recomputesAfter(panel, [&] { panel.picker()->setSelected({"p2"}); }));
    QCOMPARE(panel.plot()->plottableCount(), 0);
    QVERIFY(panel.findChild<QLabel*>("pairCaption")->text().contains("2 to 4"));
  }
};

QTEST_MAIN(TestPairPanel)
#include "tst_pair_panel.moc"
