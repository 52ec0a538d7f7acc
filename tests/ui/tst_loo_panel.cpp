// The LOO panel: for a finished NUTS run of eight schools, the Pareto k of each school
// and elpd_loo, p_loo and looic with their SEs equal psis_loo on the log likelihood
// written out from the model here, and again after Run More Draws; a second run joins
// the comparison, ranked by elpd_loo with elpd_diff 0 for the best.

#include <QDockWidget>
#include <QLabel>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <qcustomplot.h>
#include <variate/diagnostics/loo.h>

#include "eight_schools_log_lik.h"
#include "studio_nuts_run.h"
#include "studio_test_support.h"
#include "ui/docks/loo_panel.h"
#include "ui/app/run_coordinator.h"

using namespace variate::ui;
namespace vd = variate::diagnostics;

namespace {

QString cell(QTableWidget* table, int row, int column) {
  const QTableWidgetItem* item = table->item(row, column);
  return item ? item->text() : QString();
}

QString number(double value) { return QString::number(value, 'f', 2); }

}  // namespace

class TestLooPanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void paretoKAndEstimatesAndComparison() {
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY2(studio_test::openExample(window, dir), qPrintable(window.lastError()));
    LooPanel* panel = window.docks().loo;
    window.docks().dock("looDock")->raise();
    QVERIFY(studio_test::runNuts(window, 200, 300, 5));
    const RunPtr first = window.document()->runs()->current();
    QVERIFY(studio_test::waitFor([&] { return !cell(panel->estimates(), 0, 1).isEmpty(); }, 60000));

    const vd::LooResult expected = vd::psis_loo(studio_test::eightSchoolsLogLik(*first));
    QCOMPARE(cell(panel->estimates(), 0, 0), QString("elpd_loo"));
    QCOMPARE(cell(panel->estimates(), 0, 1), number(expected.elpd_loo));
    QCOMPARE(cell(panel->estimates(), 0, 2), number(expected.se_elpd_loo));
    QCOMPARE(cell(panel->estimates(), 1, 1), number(expected.p_loo));
    QCOMPARE(cell(panel->estimates(), 1, 2), number(expected.se_p_loo));
    QCOMPARE(cell(panel->estimates(), 2, 1), number(expected.looic));
    QCOMPARE(cell(panel->estimates(), 2, 2), number(expected.se_looic));

    // One k per school, at 1..8, with the 0.5, 0.7 and 1 lines.
    QCustomPlot* plot = panel->plot();
    QCOMPARE(plot->graphCount(), 1);
    QCPGraph* k = plot->graph(0);
    QCOMPARE(k->dataCount(), 8);
    for (int i = 0; i < 8; ++i) {
      QCOMPARE(k->data()->at(i)->key, double(i + 1));
      QVERIFY(std::abs(k->data()->at(i)->value - expected.pareto_k[i]) < 1e-9);
    }
    QList<double> levels;
    for (int i = 0; i < plot->itemCount(); ++i) {
      if (auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(i))) levels << line->point1->coords().y();
    }
    QCOMPARE(levels, QList<double>({0.5, 0.7, 1.0}));
    QCOMPARE(panel->comparison()->rowCount(), 1);

    // Run More Draws grows the run: its LOO is computed again, on all its draws.
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    QTest::mouseClick(window.actions().toolBar->widgetForAction(window.actions().runMore), Qt::LeftButton);
    QVERIFY(ended.wait(120000));
    const RunPtr grown = window.document()->runs()->current();
    QCOMPARE(grown->id, first->id);
    QCOMPARE(grown->samplingDrawsPerChain(), 600);
    const vd::LooResult regrown = vd::psis_loo(studio_test::eightSchoolsLogLik(*grown));
    QVERIFY(studio_test::waitFor([&] { return cell(panel->estimates(), 0, 1) == number(regrown.elpd_loo); }, 60000));
    QVERIFY(std::abs(plot->graph(0)->data()->at(0)->value - regrown.pareto_k[0]) < 1e-9);

    // A second run of the project joins the comparison; the better one first, at 0.
    QVERIFY(studio_test::runNuts(window, 200, 300, 6));
    const RunPtr second = window.document()->runs()->current();
    QVERIFY(studio_test::waitFor([&] { return panel->comparison()->rowCount() == 2; }, 60000));
    const vd::LooResult other = vd::psis_loo(studio_test::eightSchoolsLogLik(*second));
    const auto ranked = vd::compare_loo({first->name.toStdString(), second->name.toStdString()}, {regrown, other});
    for (int r = 0; r < 2; ++r) {
      QCOMPARE(cell(panel->comparison(), r, 0), QString::fromStdString(ranked[r].name));
      QCOMPARE(cell(panel->comparison(), r, 1), number(ranked[r].elpd_diff));
      QCOMPARE(cell(panel->comparison(), r, 2), number(ranked[r].se_diff));
      QCOMPARE(cell(panel->comparison(), r, 3), number(ranked[r].elpd_loo));
    }
    QCOMPARE(cell(panel->comparison(), 0, 1), number(0));

    QTemporaryDir out;
    QString error;
    QVERIFY2(panel->exportTo(out.filePath("k.svg"), &error), qPrintable(error));
    QVERIFY(QFileInfo(out.filePath("k.svg")).size() > 200);
  }
};

QTEST_MAIN(TestLooPanel)
#include "tst_loo_panel.moc"
