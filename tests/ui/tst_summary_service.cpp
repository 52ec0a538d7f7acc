// The diagnostics' summaries of a run: a live run's are computed from at most
// kLiveDrawsPerChain draws per chain (every k-th), so each costs the same however long the
// run goes and the table keeps up; they record when and at which iteration they were
// computed; once the run ends its summary reads every draw.

#include <random>

#include <QSignalSpy>
#include <QtTest/QtTest>

#include "tests/ui/analysis_panel_fixture.h"
#include "ui/analysis/summary_service.h"

using namespace analysis_test;

namespace {

// Independent standard normal draws: their ESS is about their number.
Iterations independentDraws(int n, unsigned seed) {
  std::mt19937 generator(seed);
  std::normal_distribution<double> normal;
  Iterations rows;
  for (int i = 0; i < n; ++i) rows.add({normal(generator)});
  return rows;
}

}  // namespace

class TestSummaryService : public QObject {
  Q_OBJECT

 private slots:
  void theLiveIntervalIsBounded() {
    QCOMPARE(liveIntervalMs(0), 1000);
    QCOMPARE(liveIntervalMs(100), 3000);
    QCOMPARE(liveIntervalMs(5000), 30000);
  }

  // A live NUTS run is summarized once each of its chains has sent draws: a summary of the
  // first chains alone would name an iteration a late chain has not reached.
  void aLiveRunWaitsForItsLastChain() {
    AnalysisFixture fixture;
    services::Settings three;
    three.set(services::setting::chains, 3);
    const qint64 id =
        fixture.addRun({"mu"}, 0, {independentDraws(400, 1), independentDraws(400, 2)}, services::Method::nuts, three);
    RunList* runs = fixture.document()->runs();
    SummaryService service(runs);
    QSignalSpy summarized(&service, &SummaryService::summarized);
    service.request(id);
    QVERIFY(!summarized.wait(1500));
    LiveUpdate update;
    update.blocks.push_back(block(2, 0, 0, independentDraws(300, 3)));
    runs->applyLiveUpdate(id, update);
    service.request(id);
    QVERIFY(summarized.wait(20000));
    QCOMPARE(runs->run(id)->summary.chains, 3);
    QCOMPARE(runs->run(id)->summary.iterations, 300);
  }

  void aLongLiveRunIsSummarizedFromThinnedDrawsThenFromAll() {
    constexpr int kDraws = 10000;
    AnalysisFixture fixture;
    const qint64 id = fixture.addRun({"mu"}, 0, {independentDraws(kDraws, 1), independentDraws(kDraws, 2)});
    RunList* runs = fixture.document()->runs();
    SummaryService service(runs);
    QSignalSpy summarized(&service, &SummaryService::summarized);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    service.request(id);
    QVERIFY(summarized.wait(20000));
    RunSummary live = runs->run(id)->summary;
    QCOMPARE(live.stride, kDraws / kLiveDrawsPerChain);
    QCOMPARE(live.drawsPerChain, kDraws);
    QCOMPARE(live.iterations, kDraws);
    QVERIFY(live.snapshotMs >= before && live.snapshotMs <= QDateTime::currentMSecsSinceEpoch());
    // Thinned: the ESS of 2 x 2000 independent draws, not of 2 x 10000.
    QVERIFY2(live.rows[0].ess_bulk < 2 * kLiveDrawsPerChain * 1.3, qPrintable(QString::number(live.rows[0].ess_bulk)));
    QVERIFY(runs->run(id)->summaryIsCurrent());  // current for a live run

    runs->setStatus(id, RunStatus::Finished);  // a run that ended: its summary reads every draw
    QVERIFY(!runs->run(id)->summaryIsCurrent());
    QVERIFY(summarized.wait(20000));
    const RunSummary final = runs->run(id)->summary;
    QCOMPARE(final.stride, 1);
    QVERIFY2(final.rows[0].ess_bulk > 2 * kDraws * 0.7, qPrintable(QString::number(final.rows[0].ess_bulk)));
    QVERIFY(std::abs(final.rows[0].mean - live.rows[0].mean) < 0.05);
    QVERIFY(runs->run(id)->summaryIsCurrent());
  }
};

QTEST_MAIN(TestSummaryService)
#include "tst_summary_service.moc"
