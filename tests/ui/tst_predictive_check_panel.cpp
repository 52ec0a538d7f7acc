// The Predictive check panel: once a NUTS run of eight schools has finished, its y_rep
// draws (one replicated data set per post-warmup draw, computed off the UI thread) are
// overlaid on the data's density, and the table's p-values are the share of replicated
// data sets whose statistic reaches the data's, computed here from the draws shown.

#include <algorithm>
#include <cmath>
#include <numeric>

#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/eight_schools_log_lik.h"
#include "tests/ui/studio_nuts_run.h"
#include "tests/ui/studio_test_support.h"
#include "ui/docks/predictive_check_panel.h"
#include "ui/docks/run_config_panel.h"

using namespace variate::ui;

namespace {

constexpr int kDraws = 250;

bool predictionShown(MainWindow& window) {
  PredictiveCheckPanel* panel = window.docks().predictive;
  window.docks().dock("predictiveDock")->raise();
  return studio_test::waitFor([&] { return panel->prediction() != nullptr; }, 60000);
}

}  // namespace

class TestPredictiveCheckPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void replicatedDataAgainstTheData() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    PredictiveCheckPanel* panel = window.docks().predictive;
    QVERIFY(studio_test::runNuts(window, 200, kDraws, 11));
    QVERIFY(predictionShown(window));

    const RunPredictionPtr prediction = panel->prediction();
    QVERIFY2(prediction->error.isEmpty(), qPrintable(prediction->error));
    QCOMPARE(int(prediction->observed.size()), 1);
    const ObservedPrediction& y = prediction->observed[0];
    QCOMPARE(y.name, QString("y"));
    QCOMPARE(y.observed, studio_test::eightSchoolsData("y"));
    QCOMPARE(int(y.replicated.size()), 4 * kDraws);
    for (const auto& draw : y.replicated) QCOMPARE(int(draw.size()), 8);
    // Replicated data sets differ from one another and from the data.
    QVERIFY(y.replicated[0] != y.replicated[1]);
    QVERIFY(y.replicated[0] != y.observed);

    // The overlay: the data's density and at most 50 replicated ones, one legend entry each.
    QCustomPlot* plot = panel->plot();
    QCOMPARE(plot->graphCount(), PredictiveCheckPanel::maxOverlaid() + 1);
    QCOMPARE(plot->graph(plot->graphCount() - 1)->name(), QString("y"));
    QVERIFY(!plot->graph(plot->graphCount() - 1)->data()->isEmpty());
    QCOMPARE(plot->legend->itemCount(), 2);

    // Each statistic's p-value is Pr(T(y_rep) >= T(y)), computed here from the definition.
    QTableWidget* table = panel->statistics();
    QCOMPARE(table->rowCount(), 5);
    const auto mean = [](const std::vector<double>& x) { return std::accumulate(x.begin(), x.end(), 0.0) / x.size(); };
    const auto sd = [&](const std::vector<double>& x) {
      double s = 0;
      for (double v : x) s += (v - mean(x)) * (v - mean(x));
      return std::sqrt(s / (x.size() - 1));
    };
    const auto maximum = [](const std::vector<double>& x) { return *std::max_element(x.begin(), x.end()); };
    const auto minimum = [](const std::vector<double>& x) { return *std::min_element(x.begin(), x.end()); };
    const std::vector<std::pair<QString, std::function<double(const std::vector<double>&)>>> statistics = {
        {"mean", mean}, {"sd", sd}, {"min", minimum}, {"max", maximum}};
    for (const auto& [name, statistic] : statistics) {
      int row = -1;
      for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0)->text() == name) row = r;
      }
      QVERIFY2(row >= 0, qPrintable(name));
      int atLeast = 0;
      for (const auto& draw : y.replicated) atLeast += statistic(draw) >= statistic(y.observed);
      const double p = double(atLeast) / y.replicated.size();
      QCOMPARE(table->item(row, 1)->text(), QString::number(statistic(y.observed), 'g', 4));
      QCOMPARE(table->item(row, 3)->text(), QString::number(p, 'f', 3));
    }
    // Eight schools' model reproduces the data's spread: no extreme p-value for the sd.
    const double pSd = y.statistics[1].pValue;
    QVERIFY2(pSd > 0.05 && pSd < 0.95, qPrintable(QString::number(pSd)));

    QTemporaryDir out;
    QString error;
    for (const char* extension : {"png", "svg", "pdf"}) {
      const QString path = out.filePath(QString("ppc.") + extension);
      QVERIFY2(panel->exportTo(path, &error), qPrintable(error));
      QVERIFY(QFileInfo(path).size() > 200);
    }
  }

  // The Run panel's "From the prior" box makes a run of prior draws: the same panel then
  // shows the prior predictive check, the replicated data far more spread than the data.
  void priorPredictiveFromTheRunPanel() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    auto* prior = qobject_cast<QCheckBox*>(window.docks().runConfig->field("prior"));
    QVERIFY(prior);
    QTest::mouseClick(prior, Qt::LeftButton, {}, QPoint(4, prior->height() / 2));
    QVERIFY(prior->isChecked());
    QVERIFY(window.document()->runConfig().settings.get(variate::services::setting::prior));
    QVERIFY(studio_test::runNuts(window, 200, kDraws, 11));
    QVERIFY(predictionShown(window));
    const QString caption = window.docks().predictive->findChild<QLabel*>("predictiveCaption")->text();
    QVERIFY2(caption.contains("prior predictive"), qPrintable(caption));
    const ObservedPrediction& y = window.docks().predictive->prediction()->observed[0];
    QCOMPARE(int(y.replicated.size()), 4 * kDraws);
    // Each replicated y[1]: theta[1] + sigma[1] z under the prior, sd at least sigma[1] = 15.
    double sum = 0, squares = 0;
    for (const auto& draw : y.replicated) {
      sum += draw[0];
      squares += draw[0] * draw[0];
    }
    const double n = static_cast<double>(y.replicated.size());
    const double sd = std::sqrt(squares / n - (sum / n) * (sum / n));
    QVERIFY2(sd > 15, qPrintable(QString::number(sd)));
    const RunPtr run = window.document()->runs()->current();
    QVERIFY(run->config.settings.get(variate::services::setting::prior));
    // The Diagnostics caption says what the draws are.
    QVERIFY(studio_test::waitFor(
        [&] {
          const auto* caption = window.docks().dock("diagnosticsDock")->findChild<QLabel*>("diagnosticsCaption");
          return caption && caption->text().contains("prior (simulated) draws");
        },
        30000));
  }

  void onlyFinishedNutsRuns() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    window.docks().dock("predictiveDock")->raise();
    QVERIFY(studio_test::waitFor([&] { return window.docks().predictive->isVisible(); }, 5000));
    QTest::qWait(50);
    QVERIFY(window.docks().predictive->findChild<QLabel*>("predictiveCaption")->text().contains("Run NUTS"));
    QVERIFY(!window.docks().predictive->prediction());
  }
};

QTEST_MAIN(TestPredictiveCheckPanel)
#include "tst_predictive_check_panel.moc"
