// The summary table, the --summary-json document, and the warnings after a run.

#include <QtTest/QtTest>

#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <sstream>

#include "engine/core/checks.h"
#include "engine/diagnostics/summary.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/io/stan_csv_sampler_stats.h"
#include "engine/io/summary_report.h"
#include "engine/io/summary_warnings.h"

namespace vio = variate::io;

namespace {

vio::SummaryRow row(const std::string& name, double mean, double r_hat = 1.001,
                    double ess = 3000) {
  return {name, mean, 0.0123, 2.5, mean - 4, mean, mean + 4, ess, ess * 0.9, r_hat};
}

QStringList sorted_keys(const QJsonObject& object) {
  auto keys = object.keys();
  keys.sort();
  return keys;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// End positions (exclusive) of the whitespace-separated tokens of a line.
std::vector<size_t> token_ends(const std::string& line) {
  std::vector<size_t> ends;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != ' ' && (i + 1 == line.size() || line[i + 1] == ' ')) ends.push_back(i + 1);
  }
  return ends;
}

}  // namespace

class TestSummaryReport : public QObject {
  Q_OBJECT

 private slots:
  void jsonHasExactlyTheSpecifiedKeys() {
    const std::vector<vio::SummaryRow> rows = {row("mu", 4.4), row("theta.1", 6.2),
                                               row("theta[2]", 5.1)};
    vio::SamplerTotals totals{3, 1, 52000, 26000, 52004, 1.25, 2.5};
    const std::string text = vio::summary_json(rows, totals);
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const auto root = document.object();
    QCOMPARE(sorted_keys(root), (QStringList{"parameters", "sampler"}));

    const auto parameters = root["parameters"].toObject();
    QCOMPARE(sorted_keys(parameters), (QStringList{"mu", "theta[1]", "theta[2]"}));
    const auto theta1 = parameters["theta[1]"].toObject();
    QCOMPARE(sorted_keys(theta1), (QStringList{"ess_bulk", "ess_tail", "mcse_mean", "mean",
                                               "q5", "q50", "q95", "r_hat", "sd"}));
    QCOMPARE(theta1["mean"].toDouble(), 6.2);
    QCOMPARE(theta1["sd"].toDouble(), 2.5);
    QCOMPARE(theta1["mcse_mean"].toDouble(), 0.0123);
    QCOMPARE(theta1["q5"].toDouble(), 6.2 - 4);
    QCOMPARE(theta1["q95"].toDouble(), 6.2 + 4);
    QCOMPARE(theta1["ess_tail"].toDouble(), 2700.0);
    QCOMPARE(theta1["r_hat"].toDouble(), 1.001);

    const auto sampler = root["sampler"].toObject();
    QCOMPARE(sorted_keys(sampler),
             (QStringList{"divergences", "gradient_evaluations", "leapfrog_steps",
                          "max_treedepth_hits", "seconds_sampling", "seconds_warmup", "warmup_leapfrog_steps"}));
    QCOMPARE(sampler["divergences"].toInt(), 3);
    QCOMPARE(sampler["max_treedepth_hits"].toInt(), 1);
    QCOMPARE(sampler["leapfrog_steps"].toInt(), 52000);
    QCOMPARE(sampler["warmup_leapfrog_steps"].toInt(), 26000);
    QCOMPARE(sampler["gradient_evaluations"].toInt(), 52004);
    QCOMPARE(sampler["seconds_warmup"].toDouble(), 1.25);
    QCOMPARE(sampler["seconds_sampling"].toDouble(), 2.5);
  }

  void jsonKeepsParameterOrderAndWritesNanAsNull() {
    std::vector<vio::SummaryRow> rows;
    for (int i = 1; i <= 12; ++i) rows.push_back(row("theta[" + std::to_string(i) + "]", i));
    rows[1].r_hat = std::nan("");
    rows[1].ess_tail = INFINITY;
    const std::string text = vio::summary_json(rows, std::nullopt);
    QVERIFY(text.find("\"theta[2]\"") < text.find("\"theta[10]\""));  // not sorted as text
    const auto root = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    QCOMPARE(sorted_keys(root), QStringList{"parameters"});  // no sampler for a fit
    const auto theta2 = root["parameters"].toObject()["theta[2]"].toObject();
    QVERIFY(theta2["r_hat"].isNull());
    QVERIFY(theta2["ess_tail"].isNull());
    QCOMPARE(theta2["mean"].toDouble(), 2.0);
  }

  void jsonDoublesRoundTrip() {
    const double mean = 0.1 + 0.2;  // 0.30000000000000004
    const auto text = vio::summary_json({row("mu", mean)}, std::nullopt);
    const auto root = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    QCOMPARE(root["parameters"].toObject()["mu"].toObject()["mean"].toDouble(), mean);
  }

  void writesTheJsonFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("s.json").toStdString();
    vio::write_summary_json(path, {row("mu", 1)}, vio::SamplerTotals{});
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toStdString(), vio::summary_json({row("mu", 1)}, vio::SamplerTotals{}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vio::write_summary_json(dir.filePath("no/s.json").toStdString(),
                                                     {row("mu", 1)}, std::nullopt));
  }

  void tableIsAligned() {
    std::vector<vio::SummaryRow> parameters = {row("mu", 4.38), row("tau", 3.6, 1.02, 85),
                                               row("theta.10", -123456.7), row("L[2,1]", 1e-7)};
    parameters[1].r_hat = std::nan("");
    const std::vector<vio::SummaryRow> sampler = {row("lp__", -39.5), row("accept_stat__", 0.85)};
    const std::string table = vio::format_summary_table(parameters, sampler);
    const auto lines = lines_of(table);
    QCOMPARE(lines.size(), size_t{1 + 2 + 1 + 4});  // header, sampler rows, blank, parameters
    QVERIFY(lines[3].empty());
    QCOMPARE(token_ends(lines[0]).size(), size_t{9});
    const auto header_ends = token_ends(lines[0]);
    for (size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].empty()) continue;
      QCOMPARE(lines[i].size(), lines[0].size());
      auto ends = token_ends(lines[i]);
      QCOMPARE(ends.size(), size_t{10});
      ends.erase(ends.begin());  // the name column is left-aligned
      QCOMPARE(ends, header_ends);
      QVERIFY(lines[i][0] != ' ');
    }
    QCOMPARE(lines[0].substr(lines[0].size() - 5), std::string("R_hat"));
    QVERIFY(lines[6].rfind("theta[10]", 0) == 0);  // Stan CSV names are shown bracketed
    // Integer parts in full (an lp__ of -1972.4 reads -1972); small numbers to 3 digits.
    QVERIFY2(table.find("-123457") != std::string::npos, table.c_str());
    QVERIFY(table.find("e+05") == std::string::npos);
    QVERIFY(table.find("1e-07") != std::string::npos);
    QVERIFY(table.find("1.001") != std::string::npos);
    QVERIFY(lines[5].find(" nan") != std::string::npos);
    QVERIFY(table.find("      85") != std::string::npos);  // ESS as an integer
  }

  void largeValuesAreReadable() {
    const std::string table = vio::format_summary_table({row("mu", 4.38)}, {row("lp__", -1972.354)});
    QVERIFY2(table.find("-1972 ") != std::string::npos, table.c_str());
    QVERIFY2(table.find("e+03") == std::string::npos, table.c_str());
    const std::string huge = vio::format_summary_table({row("x", 3e200)});
    QVERIFY2(huge.find("3e+200") != std::string::npos, huge.c_str());  // beyond 15 digits: an exponent
  }

  void tableWithoutSamplerRows() {
    const auto lines = lines_of(vio::format_summary_table({row("mu", 1)}));
    QCOMPARE(lines.size(), size_t{2});
    QVERIFY(lines[1].rfind("mu", 0) == 0);
    QVERIFY(lines[0].find("Mean") != std::string::npos);
    QVERIFY(lines[0].find("ESS_bulk") != std::string::npos);
  }

  void noWarningsForAHealthyRun() {
    vio::SamplerChecks checks;
    checks.chains = 4;
    checks.transitions = 4000;
    checks.ebfmi = {0.9, 1.1, 0.8, 0.75};
    QVERIFY(vio::summary_warnings(checks, {row("mu", 1), row("tau", 2)}).empty());
  }

  void warningsAsCmdStanWordsThem() {
    vio::SamplerChecks checks;
    checks.chains = 4;
    checks.transitions = 4000;
    checks.divergences = 14;
    checks.max_treedepth_hits = 95;
    checks.max_depth = 10;
    checks.ebfmi = {0.9, 0.18, std::nan(""), 0.31};
    auto constant = row("L[1,1]", 1);
    constant.r_hat = std::nan("");
    constant.ess_bulk = constant.ess_tail = std::nan("");
    auto at_threshold = row("ok", 3, 1.01, 500);
    at_threshold.ess_tail = 400;
    const std::vector<vio::SummaryRow> rows = {row("mu", 1, 1.0101), row("tau", 2, 1.0, 399),
                                               row("theta.1", 3, 1.05, 120), constant,
                                               at_threshold};
    const auto lines = vio::summary_warnings(checks, rows);
    QCOMPARE(lines.size(), size_t{5});
    QVERIFY2(lines[0].rfind("14 of 4000 (0.35%) transitions ended with a divergence.", 0) == 0,
             lines[0].c_str());
    QVERIFY2(lines[1].rfind("95 of 4000 (2.38%) transitions hit the maximum treedepth limit "
                            "of 10, or 2^10 leapfrog steps.", 0) == 0,
             lines[1].c_str());
    QVERIFY2(lines[2].rfind("Chain 2: E-BFMI = 0.18, below the nominal threshold of 0.30", 0) == 0,
             lines[2].c_str());
    // The rule passes R-hat below 1.01 only (diagnostics/thresholds.h): "ok" is at the limit.
    QVERIFY2(lines[3].rfind("The following parameters had rank-normalized split R-hat of "
                            "1.01 or more: mu, theta[1], ok.", 0) == 0,
             lines[3].c_str());
    // 400 for four chains: tau (bulk 399) and theta[1] (bulk 120); "ok" has tail 400.
    QVERIFY2(lines[4].rfind("The following parameters had bulk or tail effective sample size "
                            "below 400 (100 per chain): tau, theta[1].", 0) == 0,
             lines[4].c_str());
  }

  void essThresholdScalesWithChains() {
    vio::SamplerChecks checks;
    checks.chains = 1;
    checks.transitions = 1000;
    QVERIFY(vio::summary_warnings(checks, {row("mu", 1, 1.0, 150)}).empty());
    checks.chains = 2;
    const auto lines = vio::summary_warnings(checks, {row("mu", 1, 1.0, 150)});
    QCOMPARE(lines.size(), size_t{1});
    QVERIFY(lines[0].find("below 200 (100 per chain): mu.") != std::string::npos);
  }

  void longNameListsAreShortened() {
    std::vector<vio::SummaryRow> rows;
    for (int i = 1; i <= 13; ++i) rows.push_back(row("z[" + std::to_string(i) + "]", 0, 1.2));
    const auto lines = vio::summary_warnings({}, rows);
    QCOMPARE(lines.size(), size_t{1});
    QVERIFY2(lines[0].find("z[9], z[10] and 3 more.") != std::string::npos, lines[0].c_str());
  }

  void samplerStatisticsFromCmdStanFiles() {
    const auto chain = vio::read_stan_csv(QT_TESTCASE_SOURCEDIR
                                          "/data/stan_csv/eight_schools_save_warmup.csv");
    const auto totals = vio::sampler_totals({chain, chain});
    QCOMPARE(totals.divergences, int64_t{2});
    QCOMPARE(totals.max_treedepth_hits, int64_t{0});
    QCOMPARE(totals.leapfrog_steps, int64_t{2 * (13 + 40)});  // warmup rows were saved
    QCOMPARE(totals.gradient_evaluations, totals.leapfrog_steps);
    QCOMPARE(totals.seconds_warmup, 2 * 0.012);
    QCOMPARE(totals.seconds_sampling, 2 * 0.021);

    auto shallow = chain;
    shallow.config["sample.hmc.nuts.max_depth"] = "3";
    const auto checks = vio::sampler_checks({chain, shallow});
    QCOMPARE(checks.chains, int64_t{2});
    QCOMPARE(checks.transitions, int64_t{10});
    QCOMPARE(checks.divergences, int64_t{2});
    QCOMPARE(checks.max_treedepth_hits, int64_t{4});  // depths 4, 4, 3, 2, 3 against 3
    QCOMPARE(checks.max_depth, int64_t{3});

    const auto advi = vio::read_stan_csv(QT_TESTCASE_SOURCEDIR
                                         "/data/stan_csv/bernoulli_variational.csv");
    try {
      vio::sampler_totals({advi});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QVERIFY2(QString(e.what()).endsWith(
                   "bernoulli_variational.csv: no column 'divergent__' (not the output of a "
                   "NUTS sampler)"),
               e.what());
    }
  }

  // A value that is no count of steps (an edited file) had an undefined int64 conversion.
  void leapfrogCountsThatAreNotCountsAreNamed_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("shown");
    QTest::newRow("nan") << "nan" << "nan";
    QTest::newRow("huge") << "1e300" << "1e+300";
    QTest::newRow("negative") << "-3" << "-3";
  }
  void leapfrogCountsThatAreNotCountsAreNamed() {
    QFETCH(QString, value);
    QFETCH(QString, shown);
    const auto chain = vio::parse_stan_csv(
        "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu\n-1,1,1,1," +
            value.toStdString() + ",0,1,0.5\n",
        "c.csv");
    try {
      vio::sampler_totals({chain});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), "c.csv: n_leapfrog__ holds " + shown + ", not a count of steps");
    }
  }

  void diagnosticsSummariesConvert() {
    variate::diagnostics::ParameterSummary s{"theta.2", 1, 2, 0.1, 0.05, -3, 1, 5, 900, 800, 1.002};
    const auto rows = vio::summary_rows(std::vector<variate::diagnostics::ParameterSummary>{s});
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].name, std::string("theta.2"));
    QCOMPARE(rows[0].mean, 1.0);
    QCOMPARE(rows[0].sd, 2.0);
    QCOMPARE(rows[0].mcse_mean, 0.1);
    QCOMPARE(rows[0].q5, -3.0);
    QCOMPARE(rows[0].q50, 1.0);
    QCOMPARE(rows[0].q95, 5.0);
    QCOMPARE(rows[0].ess_bulk, 900.0);
    QCOMPARE(rows[0].ess_tail, 800.0);
    QCOMPARE(rows[0].r_hat, 1.002);
  }
};

QTEST_APPLESS_MAIN(TestSummaryReport)
#include "tst_summary_report.moc"
