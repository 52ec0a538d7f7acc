// Reading CmdStan CSV files as CmdStan 2.33 writes them (fixtures under
// tests/data/stan_csv imitate its output line for line), and every way a file goes wrong.

#include <QtTest/QtTest>

#include <cmath>

#include "engine/core/checks.h"
#include "engine/io/stan_csv_reader.h"

namespace vio = variate::io;

namespace {

std::string fixture(const char* name) {
  return std::string(QT_TESTCASE_SOURCEDIR "/data/stan_csv/") + name;
}

const char* kHeader = "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,mu\n";

}  // namespace

class TestStanCsvReader : public QObject {
  Q_OBJECT

 private slots:
  void cmdstanSamplingWithSavedWarmup() {
    const auto csv = vio::read_stan_csv(fixture("eight_schools_save_warmup.csv"));
    QCOMPARE(csv.columns.size(), size_t{7 + 8 + 2 + 8});
    QCOMPARE(csv.columns[0], std::string("lp__"));
    QCOMPARE(csv.columns[7], std::string("theta_trans.1"));
    QCOMPARE(csv.columns.back(), std::string("theta.8"));
    QCOMPARE(csv.warmup_draws.size(), size_t{4});
    QCOMPARE(csv.draws.size(), size_t{5});
    QCOMPARE(csv.warmup_draws[0][0], -9.56391);
    QCOMPARE(csv.warmup_draws[3][2], 0.592618);  // stepsize__ still adapting
    QCOMPARE(csv.draws[0][0], -5.08564);
    QCOMPARE(csv.column("theta.8").back(), 2.21228);
    QCOMPARE(csv.column("divergent__"), (std::vector<double>{0, 0, 0, 1, 0}));
    QCOMPARE(csv.column("n_leapfrog__"), (std::vector<double>{13, 12, 7, 3, 5}));

    QVERIFY(csv.adaptation.has_value());
    QCOMPARE(csv.adaptation->step_size, 0.402263);
    QCOMPARE(csv.adaptation->metric, std::string("diag_e"));
    QCOMPARE(csv.adaptation->inverse_metric.size(), size_t{10});
    QCOMPARE(csv.adaptation->inverse_metric.front(), 0.809987);
    QCOMPARE(csv.adaptation->inverse_metric.back(), 1.48397);

    QVERIFY(csv.timing.has_value());
    QCOMPARE(csv.timing->warmup_seconds, 0.012);
    QCOMPARE(csv.timing->sampling_seconds, 0.021);
    QVERIFY(!csv.approximation_mean.has_value());
    QVERIFY(!csv.dropped_partial_row);

    QCOMPARE(csv.config.at("stan_version_minor"), std::string("33"));
    QCOMPARE(csv.config.at("model"), std::string("eight_schools_noncentered_model"));
    QCOMPARE(csv.config.at("start_datetime"), std::string("2024-03-14 09:26:53 UTC"));
    QCOMPARE(csv.config.at("method"), std::string("sample"));
    QCOMPARE(csv.config.at("sample.num_samples"), std::string("5"));
    QCOMPARE(csv.config.at("sample.num_warmup"), std::string("4"));
    QCOMPARE(csv.config.at("sample.save_warmup"), std::string("1"));
    QCOMPARE(csv.config.at("sample.thin"), std::string("1"));
    QCOMPARE(csv.config.at("sample.adapt.delta"), std::string("0.90000000000000002"));
    QCOMPARE(csv.config.at("sample.algorithm"), std::string("hmc"));
    QCOMPARE(csv.config.at("sample.hmc.engine"), std::string("nuts"));
    QCOMPARE(csv.config.at("sample.hmc.nuts.max_depth"), std::string("10"));
    QCOMPARE(csv.config.at("sample.hmc.metric"), std::string("diag_e"));
    QCOMPARE(csv.config.at("sample.hmc.metric_file"), std::string(""));
    QCOMPARE(csv.config.at("sample.num_chains"), std::string("1"));
    QCOMPARE(csv.config.at("id"), std::string("2"));
    QCOMPARE(csv.config.at("data.file"), std::string("eight_schools.data.json"));
    QCOMPARE(csv.config.at("random.seed"), std::string("4711"));
    QCOMPARE(csv.config.at("output.file"), std::string("output.csv"));
    QCOMPARE(csv.config.at("stanc_version"), std::string("stanc3 v2.33.1"));
    QCOMPARE(csv.config.at("stancflags"), std::string(""));
  }

  void cmdstanDenseMetric() {
    const auto csv = vio::read_stan_csv(fixture("regression_dense.csv"));
    QCOMPARE(csv.warmup_draws.size(), size_t{0});
    QCOMPARE(csv.draws.size(), size_t{6});
    QCOMPARE(csv.adaptation->metric, std::string("dense_e"));
    QCOMPARE(csv.adaptation->step_size, 0.721835);
    const std::vector<double> expected = {0.0213347, -0.00318211, 0.000412739,
                                          -0.00318211, 0.00111928, -5.27102e-05,
                                          0.000412739, -5.27102e-05, 0.00902317};
    QCOMPARE(csv.adaptation->inverse_metric, expected);
    QCOMPARE(csv.column("sigma").back(), 1.06685);
    QCOMPARE(csv.config.at("sample.hmc.metric"), std::string("dense_e"));
    QCOMPARE(csv.timing->sampling_seconds, 0.0031);
  }

  void cmdstanVariational() {
    const auto csv = vio::read_stan_csv(fixture("bernoulli_variational.csv"));
    QCOMPARE(csv.columns, (std::vector<std::string>{"lp__", "log_p__", "log_g__", "theta"}));
    QVERIFY(csv.approximation_mean.has_value());
    QCOMPARE(csv.approximation_mean->back(), 0.236261);
    QCOMPARE(csv.draws.size(), size_t{4});
    QCOMPARE(csv.draws[0], (std::vector<double>{0, -7.33325, -1.35525, 0.208748}));
    QCOMPARE(csv.eta.value_or(-1), 1.0);
    QVERIFY(!csv.adaptation.has_value());
    QCOMPARE(csv.config.at("method"), std::string("variational"));
    QCOMPARE(csv.config.at("variational.iter"), std::string("10000"));
    QCOMPARE(csv.config.at("variational.adapt.iter"), std::string("50"));
    QCOMPARE(csv.config.at("variational.output_samples"), std::string("4"));
  }

  // Without an adaptation block (adaptation off, or killed during warmup) the saved
  // warmup rows are the first ceil(num_warmup / thin).
  void warmupCountedFromTheConfiguration() {
    const std::string config =
        "# method = sample (Default)\n#   sample\n#     num_warmup = 3\n"
        "#     save_warmup = 1\n#     thin = 2\n";
    std::string text = config + kHeader;
    for (int i = 1; i <= 5; ++i) text += std::to_string(-i) + ",1,1,1,1,0,1," + std::to_string(i) + "\n";
    const auto csv = vio::parse_stan_csv(text, "c.csv");
    QCOMPARE(csv.warmup_draws.size(), size_t{2});
    QCOMPARE(csv.column("mu"), (std::vector<double>{3, 4, 5}));

    const auto killed = vio::parse_stan_csv(
        "# method = sample (Default)\n#   sample\n#     num_warmup = 1000 (Default)\n"
        "#     save_warmup = true\n" + std::string(kHeader) + "-1,1,1,1,1,0,1,0.5\n",
        "c.csv");
    QCOMPARE(killed.warmup_draws.size(), size_t{1});
    QCOMPARE(killed.draws.size(), size_t{0});

    const auto unsaved = vio::parse_stan_csv(
        "#     num_warmup = 1000 (Default)\n" + std::string(kHeader) + "-1,1,1,1,1,0,1,0.5\n",
        "c.csv");
    QCOMPARE(unsaved.warmup_draws.size(), size_t{0});
    QCOMPARE(unsaved.draws.size(), size_t{1});
  }

  // ceil(num_warmup / thin) overflowed for the largest count (UBSan, under fuzz_stan_csv).
  void hugeWarmupCountKeepsEveryRowAsWarmup() {
    const auto csv = vio::parse_stan_csv(
        "#   sample\n#     num_warmup = 9223372036854775807\n#     save_warmup = 1\n"
        "#     thin = 9223372036854775807\n" + std::string(kHeader) + "-1,1,1,1,1,0,1,0.5\n",
        "c.csv");
    QCOMPARE(csv.warmup_draws.size(), size_t{1});
    QCOMPARE(csv.draws.size(), size_t{0});
  }

  void tolerantOfCrlfTrailingCommasAndSpecialValues() {
    const std::string text =
        "\xEF\xBB\xBF# model = m\r\n"
        "a,b,c,\r\n"
        "\r\n"
        "nan,inf,-inf,\r\n"
        "NaN,Inf,-Infinity\r\n"
        " 1.5 , +2,-3e-2\r\n";
    const auto csv = vio::parse_stan_csv(text, "c.csv");
    QCOMPARE(csv.columns, (std::vector<std::string>{"a", "b", "c"}));
    QCOMPARE(csv.config.at("model"), std::string("m"));
    QCOMPARE(csv.draws.size(), size_t{3});
    QVERIFY(std::isnan(csv.draws[0][0]));
    QCOMPARE(csv.draws[0][1], INFINITY);
    QCOMPARE(csv.draws[0][2], -INFINITY);
    QVERIFY(std::isnan(csv.draws[1][0]));
    QCOMPARE(csv.draws[1][2], -INFINITY);
    QCOMPARE(csv.draws[2], (std::vector<double>{1.5, 2, -0.03}));

    const auto quoted = vio::parse_stan_csv("\"lp__\",\"theta.1\"\n-1,2\n", "q.csv");
    QCOMPARE(quoted.columns, (std::vector<std::string>{"lp__", "theta.1"}));
  }

  void partialLastRowOfAKilledRunIsDropped() {
    const std::string text = std::string(kHeader) + "-1,1,1,1,1,0,1,0.5\n-2,0.9,1,2,3,0,1";
    const auto csv = vio::parse_stan_csv(text, "c.csv");
    QCOMPARE(csv.draws.size(), size_t{1});
    QVERIFY(csv.dropped_partial_row);
    // A complete last row without its newline is kept.
    const auto kept = vio::parse_stan_csv(std::string(kHeader) + "-1,1,1,1,1,0,1,0.5", "c.csv");
    QCOMPARE(kept.draws.size(), size_t{1});
    QVERIFY(!kept.dropped_partial_row);
  }

  void malformedFiles_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not a number")
        << "# c\na,b,c\n1,2,3\n4,abc,6\n" << "chain_1.csv:4:3: expected a number, got 'abc'";
    QTest::newRow("short row")
        << "a,b,c\n1,2,3\n4,5\n" << "chain_1.csv:3: a row has 2 fields, the header has 3";
    QTest::newRow("long row")
        << "a,b\n1,2,3\n0,0\n" << "chain_1.csv:2: a row has 3 fields, the header has 2";
    QTest::newRow("empty field")
        << "a,b,c\n1,,3\n" << "chain_1.csv:2:3: expected a number, got ''";
    QTest::newRow("empty file") << "" << "chain_1.csv: no header row";
    QTest::newRow("only comments") << "# model = m\n#\n\n" << "chain_1.csv: no header row";
    QTest::newRow("duplicate column") << "mu,tau,mu\n" << "chain_1.csv:1:8: column 'mu' appears twice";
    QTest::newRow("empty column name") << "a,,b\n" << "chain_1.csv:1:3: empty column name";
    QTest::newRow("bad step size")
        << "a\n# Adaptation terminated\n# Step size = fast\n"
        << "chain_1.csv:3:15: expected a number, got 'fast'";
    QTest::newRow("bad metric")
        << "a\n# Adaptation terminated\n# Step size = 1\n"
           "# Diagonal elements of inverse mass matrix:\n# 1, x\n1\n"
        << "chain_1.csv:5:6: expected a number, got 'x'";
    QTest::newRow("metric line missing")
        << "a\n# Adaptation terminated\n# Step size = 1\n"
           "# Diagonal elements of inverse mass matrix:\n1\n"
        << "chain_1.csv:5: expected a comment line with the diagonal of the inverse metric";
    QTest::newRow("dense metric cut short")
        << "a\n# Elements of inverse mass matrix:\n# 1, 0\n2\n"
        << "chain_1.csv:4: the inverse metric ends after 1 of 2 rows";
    QTest::newRow("ragged dense metric")
        << "a\n# Elements of inverse mass matrix:\n# 1, 0\n# 1\n"
        << "chain_1.csv:4: a row of the inverse metric has 1 values, the first has 2";
  }
  void malformedFiles() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
      vio::parse_stan_csv(text.toStdString(), "chain_1.csv");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  // A header line of a megabyte (100,000 log_lik columns): checked for repeated names and
  // looked up by name in linear time, not quadratic.
  void headerOfAHundredThousandColumns() {
    std::string header = "lp__";
    std::string row = "-1";
    for (int i = 1; i <= 100000; ++i) {
      header += ",log_lik." + std::to_string(i);
      row += "," + std::to_string(-i);
    }
    QVERIFY(header.size() > 1000000);
    const auto csv = vio::parse_stan_csv(header + "\n" + row + "\n" + row + "\n", "wide.csv");
    QCOMPARE(csv.columns.size(), size_t{100001});
    for (int i = 1; i <= 100000; ++i) QCOMPARE(*csv.column_index("log_lik." + std::to_string(i)), size_t(i));
    QCOMPARE(csv.column("log_lik.100000"), (std::vector<double>{-100000, -100000}));
    try {
      vio::parse_stan_csv(header + ",log_lik.7\n", "wide.csv");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith("wide.csv:1:" + QString::number(header.size() + 2) +
                                            ": column 'log_lik.7' appears twice"),
               e.what());
    }
  }

  void missingFileAndColumn() {
    try {
      vio::read_stan_csv("/nonexistent/chain_9.csv");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("/nonexistent/chain_9.csv: cannot open file"));
    }
    const auto csv = vio::parse_stan_csv("a,b\n1,2\n", "c.csv");
    QCOMPARE(csv.column_index("b").value_or(99), size_t{1});
    QVERIFY(!csv.column_index("z").has_value());
    try {
      csv.column("z");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("c.csv: no column 'z'"));
    }
  }
};

QTEST_APPLESS_MAIN(TestStanCsvReader)
#include "tst_stan_csv_reader.moc"
