// The Autocorrelation panel: each chain's autocorrelation by lag, the values plotted
// equal to the textbook estimator, as many lags as asked for in the Lags field, and the
// plot follows live draws.

#include <cmath>
#include <random>

#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/autocorrelation_panel.h"

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 200;

/// rho_t = sum_{i < n - t} (x_i - m)(x_{i+t} - m) / sum_i (x_i - m)^2.
double naiveAutocorrelation(const std::vector<double>& x, int t) {
  double m = 0;
  for (double v : x) m += v;
  m /= double(x.size());
  double num = 0, den = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    den += (x[i] - m) * (x[i] - m);
    if (i + t < x.size()) num += (x[i] - m) * (x[i + t] - m);
  }
  return num / den;
}

/// Column 0: AR(1) with coefficient 0.9 in chain 1 and -0.5 in chain 2; column 1: constant.
std::vector<Iterations> chains(int count, unsigned seed) {
  std::vector<Iterations> out(2);
  std::mt19937 generator(seed);
  std::normal_distribution<double> normal;
  for (int c = 0; c < 2; ++c) {
    const double phi = c == 0 ? 0.9 : -0.5;
    double x = 0;
    for (int i = 0; i < count; ++i) {
      x = phi * x + normal(generator);
      out[c].add({x, 3.0});
    }
  }
  return out;
}

std::vector<double> postWarmup(const Iterations& rows, int column, int end) {
  std::vector<double> values;
  for (int i = kWarmup; i < end; ++i) values.push_back(rows.values[i][column]);
  return values;
}

QCPGraph* chainGraph(AutocorrelationPanel& panel, int rect, int chain) {
  for (QCPGraph* graph : panel.plot()->axisRect(rect)->graphs()) {
    if (graph->name() == QString("chain %1").arg(chain + 1)) return graph;
  }
  return nullptr;
}

}  // namespace

class TestAutocorrelationPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void plotsEachChainsAutocorrelation() {
    analysis_test::AnalysisFixture fixture;
    std::vector<Iterations> all = chains(kWarmup + 3000, 11);
    Iterations first = all[0], second = all[1];
    first.values.resize(kWarmup + 2000);
    first.stats.resize(kWarmup + 2000);
    second.values.resize(kWarmup + 2000);
    second.stats.resize(kWarmup + 2000);
    const qint64 id = fixture.addRun({"x", "constant"}, kWarmup, {first, second});
    AutocorrelationPanel panel;
    QVERIFY(analysis_test::showOn(panel, fixture, {"x", "constant"}));
    QCOMPARE(panel.maxLag(), 30);

    for (int c = 0; c < 2; ++c) {
      QCPGraph* graph = chainGraph(panel, 0, c);
      QVERIFY(graph);
      QCOMPARE(graph->dataCount(), 31);
      const std::vector<double> x = postWarmup(all[c], 0, kWarmup + 2000);
      for (int t = 0; t <= 30; ++t) {
        QCOMPARE(graph->data()->at(t)->key, double(t));
        QVERIFY2(std::abs(graph->data()->at(t)->value - naiveAutocorrelation(x, t)) < 1e-9,
                 qPrintable(QString("chain %1 lag %2: %3 vs %4").arg(c + 1).arg(t).arg(graph->data()->at(t)->value).arg(naiveAutocorrelation(x, t))));
      }
    }
    // The AR(1) coefficients show at lag 1.
    QVERIFY(std::abs(chainGraph(panel, 0, 0)->data()->at(1)->value - 0.9) < 0.05);
    QVERIFY(std::abs(chainGraph(panel, 0, 1)->data()->at(1)->value + 0.5) < 0.07);
    // A constant has no autocorrelation to show.
    QCOMPARE(chainGraph(panel, 1, 0)->dataCount(), 0);

    // Fewer lags, asked for in the panel's field.
    QVERIFY(analysis_test::recomputesAfter(panel, [&] { QVERIFY(studio_test::typeInto(&panel, "maxLag", "10")); }));
    QCOMPARE(panel.maxLag(), 10);
    QCOMPARE(chainGraph(panel, 0, 0)->dataCount(), 11);

    // Live draws change the estimate to that of all the draws so far.
    Iterations more;
    for (int i = kWarmup + 2000; i < kWarmup + 3000; ++i) more.add(all[0].values[i]);
    Iterations moreSecond;
    for (int i = kWarmup + 2000; i < kWarmup + 3000; ++i) moreSecond.add(all[1].values[i]);
    QVERIFY(analysis_test::recomputesAfter(panel, [&] {
      fixture.appendLive(id, 0, more);
      fixture.appendLive(id, 1, moreSecond);
    }));
    const std::vector<double> x = postWarmup(all[0], 0, kWarmup + 3000);
    QVERIFY(std::abs(chainGraph(panel, 0, 0)->data()->at(3)->value - naiveAutocorrelation(x, 3)) < 1e-9);

    QString error;
    QVERIFY2(analysis_test::exportsEveryFormat(panel, &error), qPrintable(error));
  }
};

QTEST_MAIN(TestAutocorrelationPanel)
#include "tst_autocorrelation_panel.moc"
