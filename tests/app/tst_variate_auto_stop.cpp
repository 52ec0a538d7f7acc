// `variate sample --until-ess N` on eight schools: the stored run's draws meet the rule
// (R-hat < 1.01, bulk and tail ESS >= N for every quantity), the draws up to the round
// before did not (it stops at the first round that meets it, never before), and what it
// cannot do it refuses clearly.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include "tests/app/run_program.h"
#include "tests/support/stored_rule.h"
#include "engine/store/project.h"

using namespace app_test;
namespace store = variate::store;
using test_support::stored_rule_holds;

namespace {

QStringList auto_stop_arguments(const QString& directory, const QString& until_ess) {
  return {"sample", kEightSchools + "eight_schools.vmod", "--data", kEightSchools + "data.json",
          "--warmup", "300", "--draws", "100", "--seed", "4", "--quiet", "--until-ess", until_ess,
          "--project", directory + "/schools.variate", "--summary-json", directory + "/s.json"};
}

}  // namespace

class TestVariateAutoStop : public QObject {
  Q_OBJECT

 private slots:
  void stopsWhenTheRuleHoldsAndNotBefore() {
    QTemporaryDir directory;
    const Outcome sampled = run(auto_stop_arguments(directory.path(), "200"));  // per chain: 800 over the 4
    QVERIFY2(sampled.exit_code == 0, qPrintable(sampled.output));
    QVERIFY2(sampled.output.contains("Auto-stop: every quantity has R-hat < 1.01 and bulk and tail ESS >= 200 per chain"),
             qPrintable(sampled.output));

    const QJsonObject auto_stop = read_json(directory.filePath("s.json"))["auto_stop"].toObject();
    QVERIFY(auto_stop["converged"].toBool());
    const QJsonArray rounds = auto_stop["rounds"].toArray();
    QVERIFY2(rounds.size() >= 2, "100 draws per chain of eight schools cannot give an ESS of 800");

    store::Project project((directory.path() + "/schools.variate").toStdString());
    const store::RunInfo stored = project.runs().at(0);
    QCOMPARE(stored.status, store::RunStatus::finished);
    const auto config = QJsonDocument::fromJson(QByteArray::fromStdString(stored.config_json)).object();
    QCOMPARE(config["until_ess"].toDouble(), 200.0);
    const auto chains = project.draws(stored.id);
    const size_t draws = static_cast<size_t>(rounds.last().toObject()["draws_per_chain"].toInt());
    for (const auto& chain : chains) QCOMPARE(chain.sampling_rows(), draws);

    std::string worst;
    QVERIFY2(stored_rule_holds(chains, draws, 200, &worst), ("the stored run fails the rule at " + worst).c_str());
    for (qsizetype r = 0; r + 1 < rounds.size(); ++r) {
      const QJsonObject round = rounds[r].toObject();
      QVERIFY2(!stored_rule_holds(chains, static_cast<size_t>(round["draws_per_chain"].toInt()), 200),
               "the rule already held a round earlier");
    }
    // The stored summary is the run's, with the rounds.
    QVERIFY(project.diagnostics_json(stored.id)->find("\"auto_stop\"") != std::string::npos);
  }

  void theCapEndsARunThatDoesNotConverge() {
    QTemporaryDir directory;
    const Outcome sampled = run(auto_stop_arguments(directory.path(), "1000000") << "--max-draws" << "250");
    QVERIFY2(sampled.exit_code == 0, qPrintable(sampled.output));
    QVERIFY2(sampled.output.contains("Auto-stop: the cap ended the run before"), qPrintable(sampled.output));
    const QJsonObject auto_stop = read_json(directory.filePath("s.json"))["auto_stop"].toObject();
    QVERIFY(!auto_stop["converged"].toBool());
    QCOMPARE(auto_stop["rounds"].toArray().last().toObject()["draws_per_chain"].toInt(), 250);
  }

  void refusesWhatItCannotDo() {
    QTemporaryDir directory;
    const Outcome capped = run(auto_stop_arguments(directory.path(), "100") << "--max-draws" << "50");
    QCOMPARE(capped.exit_code, 1);
    QVERIFY2(capped.output.contains("error: --max-draws (50) is below --draws (100)"), qPrintable(capped.output));
    const Outcome ranks = run(auto_stop_arguments(directory.path(), "100") << "--nproc" << "2");
    QCOMPARE(ranks.exit_code, 1);
    QVERIFY2(ranks.output.contains("--until-ess extends chains on this process"), qPrintable(ranks.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateAutoStop)
#include "tst_variate_auto_stop.moc"
