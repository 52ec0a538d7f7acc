// The Sampler panel counts a chain's tree-depth hits by the sampler's own rule
// (mcmc/sampler_columns.h: reached_max_depth) against the run's max_depth setting, as the
// summary and `variate sample`'s warnings count them (io/chains_summary.h): at the edge,
// a depth of 5 is a hit of a maximum of 5 and not of 6, and warmup's are not counted.

#include <QLabel>
#include <QTableWidget>
#include <QtTest/QtTest>

#include "engine/io/chains_summary.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/services/setting_table.h"
#include "tests/ui/analysis_panel_fixture.h"
#include "ui/docks/sampler_stats_panel.h"

using namespace analysis_test;

namespace {

constexpr int kWarmup = 2;

// One chain: two warmup transitions at depth 5, then these post-warmup depths.
Iterations chainOfDepths(const std::vector<int>& depths) {
  Iterations rows;
  for (int i = 0; i < kWarmup; ++i) rows.add({0.0}, SamplerRow{-1, 0.9, 0.3, 5, 31, 0, 2});
  for (const int depth : depths) rows.add({0.0}, SamplerRow{-1, 0.9, 0.3, depth, (1 << depth) - 1, 0, 2});
  return rows;
}

// The same transitions as sampler rows after warmup, as the summary counts them.
variate::io::ChainRows samplerRows(const std::vector<std::vector<int>>& chains) {
  variate::io::ChainRows rows;
  for (const auto& depths : chains) {
    rows.emplace_back();
    for (const int depth : depths) {
      std::vector<double> row(variate::kSamplerColumnCount, 0.0);
      row[variate::column_index(variate::SamplerColumn::treedepth)] = depth;
      rows.back().push_back(row);
    }
  }
  return rows;
}

}  // namespace

class TestSamplerStatsPanel : public QObject {
  Q_OBJECT

 private slots:
  void depthHitsAreCountedAgainstTheRunsMaxDepth_data() {
    QTest::addColumn<int>("maxDepth");
    QTest::addColumn<int>("hits");
    QTest::newRow("max depth 5: depth 5 is a hit") << 5 << 3 + 1;
    QTest::newRow("max depth 6: depth 5 is not") << 6 << 0;
    QTest::newRow("max depth 4: depths 4 and 5 are") << 4 << 4 + 2;
  }

  void depthHitsAreCountedAgainstTheRunsMaxDepth() {
    QFETCH(int, maxDepth);
    QFETCH(int, hits);
    const std::vector<std::vector<int>> depths = {{4, 5, 5, 3, 5}, {2, 4, 5}};
    AnalysisFixture fixture;
    services::Settings settings;
    settings.set(services::setting::max_depth, maxDepth);
    const qint64 id = fixture.addRun({"mu"}, kWarmup, {chainOfDepths(depths[0]), chainOfDepths(depths[1])},
                                     services::Method::nuts, settings);

    SamplerStatsPanel panel;
    panel.setDocument(fixture.document());
    QCOMPARE(panel.statistics(0).maxDepthHits + panel.statistics(1).maxDepthHits, hits);
    QCOMPARE(panel.statistics(0).warmup, kWarmup);
    // The summary's count of the same transitions, by the same rule.
    QCOMPARE(static_cast<int>(variate::io::sampler_checks(samplerRows(depths), maxDepth).max_treedepth_hits), hits);

    // A live batch is counted as it comes, by the same limit.
    Iterations live;
    live.add({0.0}, SamplerRow{-1, 0.9, 0.3, 5, 31, 0, 2});
    fixture.appendLive(id, 1, live);
    QTRY_COMPARE(panel.statistics(1).iterations, kWarmup + 3 + 1);
    QCOMPARE(panel.statistics(0).maxDepthHits + panel.statistics(1).maxDepthHits, hits + (maxDepth <= 5 ? 1 : 0));
  }

  // A chain's phase: live, what it is doing; a chain that ended, how; one left unfinished
  // by its run's end, what ended the run ("interrupted" when its writer stopped).
  void aChainLeftUnfinishedReadsAsItsRunEnded_data() {
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("phase");
    QTest::newRow("running") << int(RunStatus::Running) << "sampling";
    QTest::newRow("interrupted") << int(RunStatus::Interrupted) << "interrupted";
    QTest::newRow("stopped") << int(RunStatus::Stopped) << "stopped";
    QTest::newRow("failed") << int(RunStatus::Failed) << "failed";
  }

  void aChainLeftUnfinishedReadsAsItsRunEnded() {
    QFETCH(int, status);
    QFETCH(QString, phase);
    AnalysisFixture fixture;
    const qint64 id = fixture.addRun({"mu"}, kWarmup, {chainOfDepths({3, 3}), chainOfDepths({3})});
    LiveUpdate update;  // chain 1 ended; chain 2 did not
    update.chainEnds.push_back({});
    update.chainEnds.back().chain = 0;
    fixture.document()->runs()->applyLiveUpdate(id, update);
    fixture.document()->runs()->setStatus(id, static_cast<RunStatus>(status));
    SamplerStatsPanel panel;
    panel.setDocument(fixture.document());
    QTRY_COMPARE(panel.table()->item(1, 1)->text(), phase);
    QCOMPARE(panel.table()->item(0, 1)->text(), QString("done"));
  }

  // How the run samples, above the table: the metric's kind, size and adaptation, warmup's
  // length as decided, and what was reparameterized (as the run recorded its setting).
  void theSetupLineSaysHowTheRunSamples() {
    AnalysisFixture fixture;
    services::Settings settings;
    settings.set(services::setting::metric, std::string("diag"));
    settings.set(services::setting::adapt, std::string("fisher"));
    settings.set(services::setting::warmup, 1000);
    settings.set(services::setting::reparam, std::string("a=0,1,1,0;b=0"));
    const qint64 id =
        fixture.addRun({"mu"}, kWarmup, {chainOfDepths({3, 3}), chainOfDepths({3})}, services::Method::nuts, settings);
    LiveUpdate update;
    update.adaptations.push_back({0, 0.4, {1.0, 2.0, 3.0}});
    fixture.document()->runs()->applyLiveUpdate(id, update);
    SamplerStatsPanel panel;
    panel.setDocument(fixture.document());
    const QString expected =
        "Metric: diagonal, 3 parameters, adapted from the draws' and the gradients' variances · "
        "Warmup: 2 iterations (at most 1000) · Reparameterized: a: 2 of 4 elements as written, "
        "2 non-centered; b non-centered";
    QTRY_COMPARE(panel.findChild<QLabel*>("samplerSetup")->text(), expected);
    QCOMPARE(panel.setupText(), expected);

    // Stan's adaptation for all of warmup, nothing reparameterized: nothing said of it.
    AnalysisFixture plain;
    services::Settings diagonal;
    diagonal.set(services::setting::metric, std::string("diag"));
    plain.addRun({"mu"}, kWarmup, {chainOfDepths({3})}, services::Method::nuts, diagonal);
    panel.setDocument(plain.document());
    QCOMPARE(panel.setupText(),
             QString("Metric: diagonal, adapted as Stan does · Warmup: 2 iterations (at most 1000)"));

    // The low-rank metric: its rank, from the chains' adapted metrics (r, d
    // variances, then each eigenvalue with its eigenvector).
    AnalysisFixture low_rank;
    services::Settings low_rank_settings;
    low_rank_settings.set(services::setting::metric, std::string("lowrank"));
    const qint64 low_rank_id = low_rank.addRun({"mu"}, kWarmup, {chainOfDepths({3}), chainOfDepths({3})},
                                               services::Method::nuts, low_rank_settings);
    LiveUpdate adapted;
    adapted.adaptations.push_back({0, 0.4, {1, 1.0, 2.0, 3.0, 9.0, 1.0, 0.0, 0.0}});
    adapted.adaptations.push_back({1, 0.4, {2, 1.0, 2.0, 3.0, 9.0, 1.0, 0.0, 0.0, 0.1, 0.0, 1.0, 0.0}});
    low_rank.document()->runs()->applyLiveUpdate(low_rank_id, adapted);
    panel.setDocument(low_rank.document());
    QCOMPARE(panel.setupText(),
             QString("Metric: low rank + diagonal, 3 parameters, rank 1 to 2 over the chains, adapted "
                     "from the draws' and the gradients' covariances · Warmup: 2 iterations (at "
                     "most 1000)"));
  }
};

QTEST_MAIN(TestSamplerStatsPanel)
#include "tst_sampler_stats_panel.moc"
