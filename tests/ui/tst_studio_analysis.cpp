// The analysis panels in the studio: each has its dock (in the View menu, tabbed with the
// plots), and a NUTS run of eight schools started from the toolbar fills them as it
// samples: the pair matrix holds every post-warmup draw with the run's divergences
// marked, the rank histograms count them, the energy panel shows each chain's E-BFMI.

#include <QDockWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/studio_nuts_run.h"
#include "tests/ui/studio_test_support.h"
#include "ui/docks/autocorrelation_panel.h"
#include "ui/docks/energy_panel.h"
#include "ui/docks/forest_panel.h"
#include "ui/docks/pair_panel.h"
#include "ui/docks/rank_panel.h"
#include "ui/document/project_document.h"
#include "ui/plots/sampling_draws.h"

using namespace variate::ui;

namespace {

/// Brings the dock to the front and waits for its panel to recompute from the run.
bool shownAndComputed(MainWindow& window, const char* dockName) {
  QDockWidget* dock = window.docks().dock(dockName);
  if (!dock) return false;
  auto* panel = qobject_cast<DerivedPlotPanel*>(dock->widget());
  QSignalSpy recomputed(panel, &DerivedPlotPanel::recomputed);
  dock->raise();
  return recomputed.wait(10000);
}

}  // namespace

class TestStudioAnalysis : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void panelsFollowANutsRun() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    for (const char* name : {"pairDock", "rankDock", "autocorrelationDock", "energyDock", "forestDock",
                             "predictiveDock", "looDock"}) {
      QDockWidget* dock = window.docks().dock(name);
      QVERIFY2(dock && !dock->isFloating() && !dock->isHidden(), name);
      QVERIFY2(window.tabifiedDockWidgets(dock).contains(window.docks().dock("traceDock")), name);
    }
    ProjectDocument* document = window.document();
    QVERIFY(studio_test::runNuts(window, 150, 300, 4));  // short adaptation: eight schools diverges now and then
    const RunPtr run = document->runs()->current();

    QVERIFY(shownAndComputed(window, "pairDock"));
    PairPanel* pairs = window.docks().pairs;
    QCOMPARE(pairs->matrixParameters(), run->columnNames.mid(0, 4));
    int divergent = 0;
    for (const auto& chain : samplingDivergences(*run)) divergent += int(std::count(chain.begin(), chain.end(), true));
    QStringList found;
    for (QCPGraph* graph : pairs->cell(1, 0)->graphs()) {
      found << graph->name();
      if (graph->name() == "draws") QCOMPARE(graph->dataCount(), 4 * 300);
      if (graph->name() == "divergent") QCOMPARE(graph->dataCount(), divergent);
    }
    QCOMPARE(found, QStringList({"draws", "divergent"}));

    QVERIFY(shownAndComputed(window, "rankDock"));
    double ranked = 0;
    for (QCPGraph* graph : window.docks().ranks->plot()->axisRect(0)->graphs()) {
      for (int b = 0; b < RankPanel::bins(); ++b) ranked += graph->data()->at(b)->value;
    }
    QCOMPARE(ranked, 4.0 * 300);

    QVERIFY(shownAndComputed(window, "energyDock"));
    QCOMPARE(int(window.docks().energy->ebfmiPerChain().size()), 4);
    for (double value : window.docks().energy->ebfmiPerChain()) QVERIFY(value > 0.3);

    QVERIFY(shownAndComputed(window, "autocorrelationDock"));
    QCOMPARE(window.docks().autocorrelation->plot()->axisRect(0)->graphs().size(), 4);
    QVERIFY(shownAndComputed(window, "forestDock"));
    QVERIFY(window.docks().forest->medians("all chains"));
    QCOMPARE(window.docks().forest->medians("all chains")->dataCount(), 4);
  }
};

QTEST_MAIN(TestStudioAnalysis)
#include "tst_studio_analysis.moc"
