// PSIS-LOO against r-cran-loo 2.5.1 on five fixed log-likelihood matrices, 4 Stan CSV chains
// each (tests/data/loo, written with their reference by make_reference.R): elpd_loo, p_loo,
// looic, their standard errors, every observation's r_eff and Pareto k to 1e-6, including
// observations with k above 0.7 and above 1; loo_compare's elpd_diff and se_diff; errors.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/loo.h"
#include "engine/io/data_file.h"
#include "engine/io/stan_csv_reader.h"

namespace vd = variate::diagnostics;
using json = nlohmann::json;

namespace {

const std::string kFolder = QT_TESTCASE_SOURCEDIR "/data/loo/";

json reference() { return json::parse(variate::io::read_text_file(kFolder + "reference.json")); }

// log_lik[observation] = its values in each of the 4 chains.
std::vector<vd::Draws> read_log_lik(const std::string& name) {
  std::vector<variate::io::StanCsv> chains;
  for (int c = 1; c <= 4; ++c) chains.push_back(variate::io::read_stan_csv(kFolder + name + "_chain_" + std::to_string(c) + ".csv"));
  std::vector<vd::Draws> log_lik;
  for (size_t i = 1; chains[0].column_index("log_lik." + std::to_string(i)); ++i) {
    vd::Draws draws;
    for (const auto& chain : chains) draws.push_back(chain.column("log_lik." + std::to_string(i)));
    log_lik.push_back(draws);
  }
  return log_lik;
}

double value(const json& v) { return v.is_string() ? INFINITY : v.get<double>(); }

void close(double actual, double expected, const QString& what) {
  const bool same = (std::isinf(expected) && actual == expected) || std::abs(actual - expected) <= 1e-6;
  QVERIFY2(same, qPrintable(QString("%1: %2 vs loo's %3").arg(what).arg(actual, 0, 'g', 12).arg(expected, 0, 'g', 12)));
}

}  // namespace

class TestLoo : public QObject {
  Q_OBJECT

 private slots:
  void matchesLoo_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"normal", "independent", "sticky", "outliers", "heavy"}) QTest::newRow(name) << name;
  }
  void matchesLoo() {
    QFETCH(QString, name);
    const json expected = reference()[name.toStdString()];
    const vd::LooResult loo = vd::psis_loo(read_log_lik(name.toStdString()));
    close(loo.elpd_loo, expected["elpd_loo"], "elpd_loo");
    close(loo.se_elpd_loo, expected["se_elpd_loo"], "se_elpd_loo");
    close(loo.p_loo, expected["p_loo"], "p_loo");
    close(loo.se_p_loo, expected["se_p_loo"], "se_p_loo");
    close(loo.looic, expected["looic"], "looic");
    close(loo.se_looic, expected["se_looic"], "se_looic");
    QCOMPARE(loo.pareto_k.size(), expected["pareto_k"].size());
    for (size_t i = 0; i < loo.pareto_k.size(); ++i) {
      close(loo.pareto_k[i], value(expected["pareto_k"][i]), QString("pareto_k[%1]").arg(i + 1));
      close(loo.r_eff[i], expected["r_eff"][i], QString("r_eff[%1]").arg(i + 1));
      close(loo.pointwise_elpd[i], expected["pointwise_elpd"][i], QString("elpd_loo[%1]").arg(i + 1));
    }
  }

  void theHeavyCasesAreFlagged() {
    // What the reference set is for: observations beyond the 0.7 and the 1.0 thresholds.
    const vd::LooResult outliers = vd::psis_loo(read_log_lik("outliers"));
    QVERIFY(*std::max_element(outliers.pareto_k.begin(), outliers.pareto_k.end()) > 0.7);
    const vd::LooResult heavy = vd::psis_loo(read_log_lik("heavy"));
    QVERIFY(*std::max_element(heavy.pareto_k.begin(), heavy.pareto_k.end()) > 1.0);
  }

  void comparesAsLooCompare() {
    std::vector<vd::Draws> normal12 = read_log_lik("normal");
    normal12.resize(12);
    const std::vector<vd::LooComparison> table =
        vd::compare_loo({"normal12", "sticky"}, {vd::psis_loo(normal12), vd::psis_loo(read_log_lik("sticky"))});
    const json expected = reference()["compare"];
    for (size_t j = 0; j < table.size(); ++j) {
      QCOMPARE(QString::fromStdString(table[j].name), QString::fromStdString(expected["models"][j]));
      close(table[j].elpd_diff, expected["elpd_diff"][j], "elpd_diff");
      close(table[j].se_diff, expected["se_diff"][j], "se_diff");
    }
  }

  void badInputIsRefused() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::psis_loo({}));
    std::vector<vd::Draws> log_lik = read_log_lik("independent");
    log_lik[3][1][7] = NAN;
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::psis_loo(log_lik));
    std::vector<vd::Draws> short_model = read_log_lik("independent");
    short_model.resize(3);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vd::compare_loo({"a", "b"}, {vd::psis_loo(short_model), vd::psis_loo(read_log_lik("independent"))}));
  }
};

QTEST_APPLESS_MAIN(TestLoo)
#include "tst_loo.moc"
