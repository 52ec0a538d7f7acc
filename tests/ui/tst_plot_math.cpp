// The arithmetic behind the plots and tables: min/max decimation keeps every extreme and
// bounds the points, the density estimate integrates to one around the right mode, the
// moving average of the ELBO, and the diagnostics table's flags.

#include <cmath>
#include <random>

#include <QtTest/QtTest>

#include "ui/docks/diagnostics_model.h"
#include "ui/docks/elbo_panel.h"
#include "ui/plots/decimated_series.h"
#include "ui/plots/density_estimate.h"

using namespace variate::ui;

class TestPlotMath : public QObject {
  Q_OBJECT

 private slots:
  void decimationKeepsExtremesAndBoundsPoints_data() {
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("buckets");
    QTest::newRow("fewer than buckets") << 50 << 100;
    QTest::newRow("exactly buckets") << 100 << 100;
    QTest::newRow("100k draws") << 100000 << 2000;
    QTest::newRow("odd count") << 12345 << 1000;
  }
  void decimationKeepsExtremesAndBoundsPoints() {
    QFETCH(int, count);
    QFETCH(int, buckets);
    std::mt19937 random(1);
    std::normal_distribution<double> normal;
    DecimatedSeries series(buckets);
    double lo = INFINITY, hi = -INFINITY;
    int loAt = -1, hiAt = -1;
    for (int i = 0; i < count; ++i) {
      const double y = normal(random) + (i == count / 3 ? 50 : 0);  // one spike must survive
      if (y < lo) { lo = y; loAt = i; }
      if (y > hi) { hi = y; hiAt = i; }
      series.append(i, y);
    }
    QCOMPARE(series.count(), count);
    QVector<double> xs, ys;
    series.points(&xs, &ys);
    QVERIFY(xs.size() <= 2 * buckets);
    QVERIFY(std::is_sorted(xs.begin(), xs.end()));
    QVERIFY(ys.contains(lo));
    QVERIFY(ys.contains(hi));
    QVERIFY(xs.contains(loAt) && xs.contains(hiAt));
    if (count <= buckets) QCOMPARE(xs.size(), count);
  }

  void densityIntegratesToOneAroundTheMode() {
    std::mt19937 random(2);
    std::normal_distribution<double> normal(3.0, 2.0);
    std::vector<double> draws(20000);
    for (auto& d : draws) d = normal(random);
    draws.push_back(NAN);  // skipped
    const DensityCurve curve = densityEstimate(draws, 256);
    QCOMPARE(curve.x.size(), 256);
    double area = 0;
    for (int i = 1; i < curve.x.size(); ++i) area += 0.5 * (curve.y[i] + curve.y[i - 1]) * (curve.x[i] - curve.x[i - 1]);
    QVERIFY2(std::abs(area - 1) < 0.01, qPrintable(QString::number(area)));
    const int mode = int(std::max_element(curve.y.begin(), curve.y.end()) - curve.y.begin());
    QVERIFY2(std::abs(curve.x[mode] - 3.0) < 0.3, qPrintable(QString::number(curve.x[mode])));
    const double peak = 1 / (2.0 * std::sqrt(2 * M_PI));
    QVERIFY(std::abs(curve.y[mode] - peak) < 0.1 * peak);
  }

  void densityOfConstantOrTooFewDrawsIsEmpty() {
    QVERIFY(densityEstimate({}).empty());
    QVERIFY(densityEstimate({1.0}).empty());
    QVERIFY(densityEstimate({2.0, 2.0, 2.0}).empty());
  }

  void silvermanBandwidthMatchesTheFormula() {
    const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const double sd = std::sqrt(55.0 / 6.0);  // sample sd of 1..10
    const double iqr = 7.75 - 3.25;           // type-7 quartiles
    QCOMPARE(silvermanBandwidth(values), 0.9 * std::min(sd, iqr / 1.34) * std::pow(10.0, -0.2));
  }

  void movingAverageSkipsNonFiniteValues() {
    const QVector<double> values = {1, 2, NAN, 4, 5};
    const QVector<double> smooth = movingAverage(values, 3);
    QCOMPARE(smooth[0], 1.5);
    QCOMPARE(smooth[1], 1.5);
    QCOMPARE(smooth[2], 3.0);
    QCOMPARE(smooth[4], 4.5);
  }

  void diagnosticsFlagsFollowTheThresholds() {
    QVERIFY(DiagnosticsModel::flagged(DiagnosticsModel::Rhat, 1.01, 4));
    QVERIFY(!DiagnosticsModel::flagged(DiagnosticsModel::Rhat, 1.009, 4));
    QVERIFY(DiagnosticsModel::flagged(DiagnosticsModel::EssBulk, 399, 4));
    QVERIFY(!DiagnosticsModel::flagged(DiagnosticsModel::EssTail, 400, 4));
    QVERIFY(!DiagnosticsModel::flagged(DiagnosticsModel::Mean, 1e9, 4));
    QVERIFY(!DiagnosticsModel::flagged(DiagnosticsModel::Rhat, NAN, 4));
  }

  void comparisonPutsRunsSideBySide() {
    RunSummary a, b;
    a.rows.push_back({"mu", 1, 2, 0.1, 0.1, -1, 1, 3, 900, 800, 1.001});
    a.rows.push_back({"tau", 3, 1, 0.1, 0.1, 1, 3, 5, 300, 800, 1.02});
    b.rows.push_back({"tau", 4, 1, 0.1, 0.1, 2, 4, 6, 1000, 900, 1.0});
    DiagnosticsModel model;
    model.setSummaries(a, &b, "run 1", "run 2");
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 1 + 2 * DiagnosticsModel::StatisticCount);
    QCOMPARE(model.value(1, DiagnosticsModel::Mean), 3.0);
    QCOMPARE(model.value(1, DiagnosticsModel::Mean, true), 4.0);
    QVERIFY(std::isnan(model.value(0, DiagnosticsModel::Mean, true)));  // mu is not in run 2
    const QModelIndex rhat = model.index(1, 1 + 2 * DiagnosticsModel::Rhat);
    QVERIFY(model.data(rhat, Qt::BackgroundRole).isValid());  // 1.02 is flagged
    QVERIFY(model.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString().contains("run 1"));
    QVERIFY(model.headerData(2, Qt::Horizontal, Qt::DisplayRole).toString().contains("run 2"));
  }
};

QTEST_MAIN(TestPlotMath)
#include "tst_plot_math.moc"
