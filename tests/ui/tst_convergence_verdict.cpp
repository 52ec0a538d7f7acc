// One run, one verdict: `variate sample`'s warnings, the studio's diagnostics table and the
// canvas's tint flag the same quantities, for 4 and for 8 chains, at the edges of the rule
// (R-hat below 1.01, bulk and tail ESS at least 100 per chain).

#include <cmath>
#include <set>

#include <QtTest/QtTest>

#include "engine/io/summary_report.h"
#include "engine/io/summary_warnings.h"

#include "ui/canvas/node_diagnostics.h"
#include "ui/canvas/run_diagnostics.h"
#include "ui/docks/diagnostics_model.h"
#include "ui/document/run_data.h"

using namespace variate::ui;
namespace vt = variate;

namespace {

struct Quantity {
  const char* name;
  double rhat;
  double essBulk;
  double essTail;
  bool flagged;  // what the rule says
};

// Names a warning line lists after its ": ", up to the ".".
std::set<QString> namesIn(const std::string& line) {
  const QString text = QString::fromStdString(line);
  const QString list = text.section(": ", 1).section(". ", 0, 0).remove('.');
  std::set<QString> names;
  for (const QString& name : list.split(", ", Qt::SkipEmptyParts)) names.insert(name);
  return names;
}

}  // namespace

class TestConvergenceVerdict : public QObject {
  Q_OBJECT

 private slots:
  void everyReportAgrees_data() {
    QTest::addColumn<int>("chains");
    for (int chains : {4, 8}) QTest::newRow(qPrintable(QString("%1 chains").arg(chains))) << chains;
  }

  void everyReportAgrees() {
    QFETCH(int, chains);
    const double least = 100.0 * chains;  // the ESS a run of `chains` chains needs
    const std::vector<Quantity> quantities = {
        {"good", 1.0099, least, least, false},
        {"rhat_at_limit", 1.01, 5000, 5000, true},
        {"bulk_short", 1.0, least - 0.5, 5000, true},
        {"tail_short", 1.0, 5000, least - 0.5, true},
        {"four_chain_ess", 1.0, 400, 400, chains > 4},  // enough for 4 chains, not for 8
        {"constant", NAN, NAN, NAN, false},            // a constant quantity says nothing
    };

    RunData run;
    run.summary.chains = chains;
    std::vector<vt::io::SummaryRow> rows;
    for (const Quantity& q : quantities) {
      run.summary.rows.push_back({q.name, 0, 1, 0.01, 0.01, -1, 0, 1, q.essBulk, q.essTail, q.rhat});
      rows.push_back({q.name, 0, 0.01, 1, -1, 0, 1, q.essBulk, q.essTail, q.rhat});
    }

    // The command line's warnings.
    vt::io::SamplerChecks checks;
    checks.chains = chains;
    std::set<QString> warned;
    for (const std::string& line : vt::io::summary_warnings(checks, rows)) {
      const auto names = namesIn(line);
      warned.insert(names.begin(), names.end());
    }

    // The diagnostics table: a quantity is flagged when one of its cells is coloured.
    DiagnosticsModel table;
    table.setSummaries(run.summary, nullptr);
    std::set<QString> coloured;
    for (int row = 0; row < table.rowCount(); ++row) {
      for (DiagnosticsModel::Statistic statistic :
           {DiagnosticsModel::EssBulk, DiagnosticsModel::EssTail, DiagnosticsModel::Rhat}) {
        if (table.data(table.index(row, 1 + statistic), Qt::BackgroundRole).isValid()) {
          coloured.insert(table.parameter(row));
        }
      }
    }

    // The canvas: each scalar quantity is its own node.
    const auto nodes = diagnosticsByNode(runDiagnostics(run));

    for (const Quantity& q : quantities) {
      const QString name = q.name;
      QVERIFY2(warned.count(name) == (q.flagged ? 1u : 0u), qPrintable("CLI warnings: " + name));
      QVERIFY2(coloured.count(name) == (q.flagged ? 1u : 0u), qPrintable("diagnostics table: " + name));
      const NodeDiagnostics::Health health = nodes.value(name).health();
      if (std::isnan(q.rhat)) {
        QCOMPARE(health, NodeDiagnostics::Health::Unknown);
      } else {
        QVERIFY2((health != NodeDiagnostics::Health::Good) == q.flagged, qPrintable("canvas: " + name));
      }
    }
    QCOMPARE(nodes.value("rhat_at_limit").health(), NodeDiagnostics::Health::HighRhat);
    QCOMPARE(nodes.value("tail_short").health(), NodeDiagnostics::Health::LowEss);
  }
};

QTEST_MAIN(TestConvergenceVerdict)
#include "tst_convergence_verdict.moc"
