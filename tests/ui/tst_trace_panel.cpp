// The Traces panel's legend counts divergences as CmdStan reports them: those after
// warmup, with warmup's apart.

#include <QtTest/QtTest>

#include <qcustomplot.h>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/trace_panel.h"

using namespace variate::ui;
using analysis_test::Iterations;

namespace {

constexpr int kWarmup = 50;

// 250 iterations of one parameter; those divisible by 7 diverge: 8 in warmup (0, 7, ...,
// 49), 28 after it (56, ..., 245).
Iterations chainDraws() {
  Iterations rows;
  for (int i = 0; i < 250; ++i) {
    SamplerRow stat;
    stat.divergent = i % 7 == 0;
    rows.add({double(i)}, stat);
  }
  return rows;
}

QStringList divergenceLegends(const TracePanel& panel) {
  QStringList names;
  for (const QCustomPlot* plot : panel.findChildren<QCustomPlot*>()) {
    for (int g = 0; g < plot->graphCount(); ++g) {
      if (plot->graph(g)->name().startsWith("divergent")) names << plot->graph(g)->name();
    }
  }
  return names;
}

}  // namespace

class TestTracePanel : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void divergencesAfterWarmupWithWarmupsApart() {
    analysis_test::AnalysisFixture fixture;
    fixture.addRun({"a"}, kWarmup, {chainDraws()});
    TracePanel panel;
    panel.resize(900, 500);
    panel.setDocument(fixture.document());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(studio_test::waitFor([&] { return !divergenceLegends(panel).isEmpty(); }, 5000));
    QVERIFY(studio_test::waitFor([&] { return divergenceLegends(panel).contains("divergent (28; 8 in warmup)"); }, 5000));
  }
};

QTEST_MAIN(TestTracePanel)
#include "tst_trace_panel.moc"
