// Sampler and variational output written as CmdStan writes it, and read back exactly.

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/target/parameter_names.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/io/stan_csv_writer.h"
#include "engine/io/variational_csv_writer.h"

namespace vio = variate::io;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool same_double(double a, double b) {
  if (std::isnan(a)) return std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

vio::SampleCsvInfo eight_schools_info() {
  vio::SampleCsvInfo info;
  info.run.model = "eight_schools";
  info.run.data_file = "eight_schools.json";
  info.run.seed = 4711;
  info.run.chain_id = 3;
  info.run.variate_version = "0.1.0";
  info.run.start_datetime = "2024-05-01 12:00:00 UTC";
  info.num_samples = 4;
  info.num_warmup = 3;
  info.save_warmup = true;
  info.adapt_delta = 0.9;
  return info;
}

std::vector<double> random_row(std::mt19937_64& rng, size_t parameters) {
  std::normal_distribution<double> normal(0.0, 10.0);
  std::vector<double> row = {normal(rng), 0.87654321098765, 0.4123456789, 3, 7, 0, normal(rng)};
  for (size_t i = 0; i < parameters; ++i) row.push_back(normal(rng) * std::pow(10.0, static_cast<int>(i % 7) - 3));
  return row;
}

}  // namespace

class TestStanCsvWriter : public QObject {
  Q_OBJECT

 private slots:
  void init() { QVERIFY(dir_.isValid()); }

  void numbersRoundTripAndMatchCmdStanSpelling() {
    QCOMPARE(vio::format_number(0.1), std::string("0.1"));
    QCOMPARE(vio::format_number(3), std::string("3"));
    QCOMPARE(vio::format_number(-2.5e-12), std::string("-2.5e-12"));
    QCOMPARE(vio::format_number(std::nan("")), std::string("nan"));
    QCOMPARE(vio::format_number(INFINITY), std::string("inf"));
    QCOMPARE(vio::format_number(-INFINITY), std::string("-inf"));
    QCOMPARE(vio::format_number(0.123456789, 6), std::string("0.123457"));  // sig_figs = 6
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<uint64_t> bits;
    for (int i = 0; i < 2000; ++i) {
      uint64_t b = bits(rng);
      double x;
      std::memcpy(&x, &b, sizeof x);
      if (!std::isfinite(x)) continue;
      QVERIFY(same_double(std::strtod(vio::format_number(x).c_str(), nullptr), x));
    }
  }

  void writesTheCmdStanLayout() {
    const std::string path = file("chain_3.csv");
    {
      vio::StanCsvWriter out(path, eight_schools_info(),
                             variate::element_names("theta", {2}, variate::NameStyle::StanCsv));
      out.write_draw({-7.5, 0.5, 2, 1, 1, 0, 8.25, 1.5, -2});  // warmup
      out.write_adaptation(0.83, {1.25, 0.5});
      out.write_draw({-7.25, 0.9, 0.83, 2, 3, 1, 8, 0.1, 0.2});
      out.finish({0.05, 0.125});
    }
    const auto lines = lines_of(vio::read_text_file(path));
    const std::vector<std::string> expected_start = {
        "# variate_version = 0.1.0",
        "# model = eight_schools",
        "# start_datetime = 2024-05-01 12:00:00 UTC",
        "# method = sample (Default)",
        "#   sample",
        "#     num_samples = 4",
        "#     num_warmup = 3",
        "#     save_warmup = 1",
        "#     thin = 1 (Default)",
        "#     adapt",
        "#       engaged = 1 (Default)",
        "#       delta = 0.9",
        "#       method = stan (Default)",
        "#     algorithm = hmc (Default)",
        "#       hmc",
        "#         engine = nuts (Default)",
        "#           nuts",
        "#             max_depth = 10 (Default)",
        "#         metric = diag_e (Default)",
        "#         stepsize = 1 (Default)",
        "#         reparam = none (Default)",
        "#     num_chains = 1 (Default)",
        "# id = 3",
        "# data",
        "#   file = eight_schools.json",
        "# init = 2 (Default)",
        "# random",
        "#   seed = 4711",
        "# output",
        "#   file = " + path,
        "#   sig_figs = -1 (Default)",
        "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta.1,theta.2",
        "-7.5,0.5,2,1,1,0,8.25,1.5,-2",
        "# Adaptation terminated",
        "# Step size = 0.83",
        "# Diagonal elements of inverse mass matrix:",
        "# 1.25, 0.5",
        "-7.25,0.9,0.83,2,3,1,8,0.1,0.2",
        "# ",
        "#  Elapsed Time: 0.05 seconds (Warm-up)",
        "#                0.125 seconds (Sampling)",
        "#                0.175 seconds (Total)",
        "# "};
    QCOMPARE(lines.size(), expected_start.size());
    for (size_t i = 0; i < lines.size(); ++i) {
      QVERIFY2(lines[i] == expected_start[i], (std::to_string(i + 1) + ": " + lines[i]).c_str());
    }
  }

  void roundTripsEveryValue() {
    const std::string path = file("round_trip.csv");
    const auto columns = variate::element_names("L", {3, 4}, variate::NameStyle::StanCsv);
    std::mt19937_64 rng(11);
    std::vector<std::vector<double>> warmup;
    std::vector<std::vector<double>> draws;
    std::vector<double> metric;
    for (int i = 0; i < 10; ++i) metric.push_back(std::exp(std::normal_distribution<double>()(rng)));
    {
      vio::StanCsvWriter out(path, eight_schools_info(), columns);
      for (int i = 0; i < 3; ++i) {
        warmup.push_back(random_row(rng, columns.size()));
        out.write_draw(warmup.back());
      }
      out.write_adaptation(0.123456789012345678, metric);
      for (int i = 0; i < 4; ++i) {
        draws.push_back(random_row(rng, columns.size()));
        if (i == 2) {
          draws.back()[8] = std::nan("");
          draws.back()[9] = INFINITY;
          draws.back()[10] = -INFINITY;
          draws.back()[11] = -0.0;
          draws.back()[12] = std::numeric_limits<double>::denorm_min();
        }
        out.write_draw(draws.back());
      }
      out.finish({1.5, 2.25});
    }
    const auto csv = vio::read_stan_csv(path);
    QCOMPARE(csv.columns.size(), size_t{7 + 12});
    QCOMPARE(csv.columns[7], std::string("L.1.1"));
    QCOMPARE(csv.columns[8], std::string("L.2.1"));
    QCOMPARE(csv.warmup_draws.size(), warmup.size());
    QCOMPARE(csv.draws.size(), draws.size());
    for (size_t r = 0; r < draws.size(); ++r) {
      for (size_t c = 0; c < draws[r].size(); ++c) {
        QVERIFY2(same_double(csv.draws[r][c], draws[r][c]),
                 ("draw " + std::to_string(r) + ", column " + std::to_string(c)).c_str());
      }
    }
    for (size_t r = 0; r < warmup.size(); ++r) QVERIFY(csv.warmup_draws[r] == warmup[r]);
    QVERIFY(csv.adaptation.has_value());
    QCOMPARE(csv.adaptation->step_size, 0.123456789012345678);
    QCOMPARE(csv.adaptation->metric, std::string("diag_e"));
    QVERIFY(csv.adaptation->inverse_metric == metric);
    QVERIFY(csv.timing.has_value());
    QCOMPARE(csv.timing->warmup_seconds, 1.5);
    QCOMPARE(csv.timing->sampling_seconds, 2.25);
    // The header comments come back as the configuration.
    QCOMPARE(csv.config.at("model"), std::string("eight_schools"));
    QCOMPARE(csv.config.at("method"), std::string("sample"));
    QCOMPARE(csv.config.at("sample.num_warmup"), std::string("3"));
    QCOMPARE(csv.config.at("sample.save_warmup"), std::string("1"));
    QCOMPARE(csv.config.at("sample.adapt.delta"), std::string("0.9"));
    QCOMPARE(csv.config.at("sample.hmc.nuts.max_depth"), std::string("10"));
    QCOMPARE(csv.config.at("id"), std::string("3"));
    QCOMPARE(csv.config.at("data.file"), std::string("eight_schools.json"));
    QCOMPARE(csv.config.at("random.seed"), std::string("4711"));
    QCOMPARE(csv.config.at("output.file"), path);
    QCOMPARE(csv.config.at("variate_version"), std::string("0.1.0"));
  }

  void sigFigsLimitsDigits() {
    const std::string path = file("sig_figs.csv");
    auto info = eight_schools_info();
    info.run.sig_figs = 4;
    {
      vio::StanCsvWriter out(path, info, {"mu"});
      out.write_adaptation(0.123456, {2.3456789});
      out.write_draw({-7.123456, 0.9, 0.123456, 2, 3, 0, 8.5, 1.23456789});
    }
    const auto csv = vio::read_stan_csv(path);
    QCOMPARE(csv.draws.at(0).back(), 1.235);
    QCOMPARE(csv.adaptation->inverse_metric.at(0), 2.346);
    QVERIFY(!csv.timing.has_value());  // no finish(): a stopped run
  }

  void denseAndUnitMetrics() {
    auto info = eight_schools_info();
    info.metric = "dense_e";
    info.save_warmup = false;
    const std::string path = file("dense.csv");
    {
      vio::StanCsvWriter out(path, info, {"a", "b"});
      out.write_adaptation(0.5, {2, 0.25, 0.25, 3});
      out.write_draw({-1, 1, 0.5, 1, 1, 0, 2, 0.5, 0.75});
    }
    const auto text = vio::read_text_file(path);
    QVERIFY(text.find("# Elements of inverse mass matrix:\n# 2, 0.25\n# 0.25, 3\n") !=
            std::string::npos);
    const auto csv = vio::parse_stan_csv(text, "dense.csv");
    QCOMPARE(csv.adaptation->metric, std::string("dense_e"));
    QVERIFY((csv.adaptation->inverse_metric == std::vector<double>{2, 0.25, 0.25, 3}));
    QCOMPARE(csv.warmup_draws.size(), size_t{0});
    QCOMPARE(csv.draws.size(), size_t{1});

    info.metric = "unit_e";
    {
      vio::StanCsvWriter out(file("unit.csv"), info, {"a"});
      out.write_adaptation(0.5, {});
    }
    const auto unit = vio::read_stan_csv(file("unit.csv"));
    QCOMPARE(unit.adaptation->metric, std::string("unit_e"));
    QVERIFY(unit.adaptation->inverse_metric.empty());
  }

  // lowrank_e: its rank, the diagonal's variances, then each eigenvalue with its
  // eigenvector, on lines of their own; read back as the same entries.
  void lowRankMetric() {
    auto info = eight_schools_info();
    info.metric = "lowrank_e";
    info.save_warmup = false;
    const std::string path = file("lowrank.csv");
    const std::vector<double> entries{2, 1.5, 0.25, 40, 0.6, 0.8, 0.02, -0.8, 0.6};
    {
      vio::StanCsvWriter out(path, info, {"a", "b"});
      out.write_adaptation(0.5, entries);
      out.write_draw({-1, 1, 0.5, 1, 1, 0, 2, 0.5, 0.75});
    }
    const auto text = vio::read_text_file(path);
    QVERIFY2(text.find("# Low-rank inverse mass matrix S (I + U (L - I) U') S: the diagonal of S^2, then 2 "
                       "eigenvalues (L), each followed by its eigenvector (U's column):\n# 1.5, 0.25\n# 40, 0.6, "
                       "0.8\n# 0.02, -0.8, 0.6\n") != std::string::npos,
             text.c_str());
    const auto csv = vio::parse_stan_csv(text, "lowrank.csv");
    QCOMPARE(csv.adaptation->metric, std::string("lowrank_e"));
    QCOMPARE(csv.adaptation->inverse_metric, entries);
    QCOMPARE(csv.draws.size(), size_t{1});

    // Rank 0: the variances alone.
    {
      vio::StanCsvWriter out(file("rank0.csv"), info, {"a", "b"});
      out.write_adaptation(0.5, {0, 1.5, 0.25});
    }
    QCOMPARE(vio::read_stan_csv(file("rank0.csv")).adaptation->inverse_metric, (std::vector<double>{0, 1.5, 0.25}));

    vio::StanCsvWriter wrong(file("wrong.csv"), info, {"a", "b"});
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, wrong.write_adaptation(0.5, {1, 1.5, 0.25, 40, 0.6}));

    // A row of the wrong length, or too few rows, is a clear error.
    std::string short_row = text;
    short_row.replace(short_row.find("# 0.02, -0.8, 0.6"), 17, "# 0.02, -0.8");
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vio::parse_stan_csv(short_row, "lowrank.csv"));
    std::string huge_rank = text;
    huge_rank.replace(huge_rank.find("then 2 eigenvalues"), 18, "then 1e300 eigenvalues");
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vio::parse_stan_csv(huge_rank, "lowrank.csv"));
  }

  void rowsAreOnDiskBeforeTheWriterCloses() {
    const std::string path = file("streaming.csv");
    auto info = eight_schools_info();
    info.save_warmup = false;
    vio::StanCsvWriter out(path, info, {"mu"});
    out.write_adaptation(0.7, {1});
    out.write_draw({-1, 1, 0.7, 1, 1, 0, 2, 0.25});
    out.write_draw({-2, 1, 0.7, 1, 1, 0, 2, 0.5});
    // Read while the writer is still open, as after a kill.
    const auto csv = vio::read_stan_csv(path);
    QCOMPARE(csv.draws.size(), size_t{2});
    QCOMPARE(csv.draws[1].back(), 0.5);
  }

  // A batch is one flush: the same text as its rows written one by one, on disk before the
  // writer closes; a batch with a bad row writes none of it.
  void aBatchIsWrittenWholeAndFlushedOnce() {
    auto info = eight_schools_info();
    info.save_warmup = false;
    std::mt19937_64 rng(7);
    const std::vector<std::vector<double>> rows = {random_row(rng, 2), random_row(rng, 2), random_row(rng, 2)};
    vio::StanCsvWriter one_by_one(file("one_by_one.csv"), info, {"a", "b"});
    vio::StanCsvWriter batched(file("batched.csv"), info, {"a", "b"});
    one_by_one.write_adaptation(0.7, {1, 1});
    batched.write_adaptation(0.7, {1, 1});
    for (const auto& row : rows) one_by_one.write_draw(row);
    batched.write_draws(rows);
    expect_error([&] { batched.write_draws({rows[0], {1, 2, 3}}); },
                 "StanCsvWriter: a draw must have 9 values (7 sampler columns and 2 parameters), got 3");
    const auto csv = vio::read_stan_csv(file("batched.csv"));  // the writer is still open
    QCOMPARE(csv.draws.size(), rows.size());
    const auto rows_of = [](const std::string& text) {  // the header row and the draws
      auto lines = lines_of(text);
      lines.erase(std::remove_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind('#', 0) == 0; }),
                  lines.end());
      return lines;
    };
    QCOMPARE(rows_of(read_file(file("batched.csv"))).size(), rows.size() + 1);
    QVERIFY(rows_of(read_file(file("batched.csv"))) == rows_of(read_file(file("one_by_one.csv"))));
  }

  void invalidUseThrows() {
    auto info = eight_schools_info();
    info.save_warmup = false;
    vio::StanCsvWriter out(file("bad.csv"), info, {"a", "b"});
    expect_error([&] { out.write_draw({-1, 1, 0.5, 1, 1, 0, 2, 0.5, 0.75}); },
                 "StanCsvWriter: a draw before the adaptation block is a warmup draw, but "
                 "save_warmup is off");
    out.write_adaptation(0.5, {1, 1});
    expect_error([&] { out.write_draw({1, 2, 3}); },
                 "StanCsvWriter: a draw must have 9 values (7 sampler columns and 2 "
                 "parameters), got 3");
    expect_error([&] { out.write_adaptation(0.5, {1, 1}); },
                 "StanCsvWriter: the adaptation block was already written");

    info.metric = "dense_e";
    vio::StanCsvWriter dense(file("bad_dense.csv"), info, {"a", "b"});
    expect_error([&] { dense.write_adaptation(0.5, {1, 2, 3}); },
                 "StanCsvWriter: argument 'inverse_metric' must hold d*d values for dense_e, "
                 "got 3");
    info.metric = "euclid";
    expect_error([&] { vio::StanCsvWriter(file("bad_metric.csv"), info, {"a"}); },
                 "StanCsvWriter: argument 'metric' must be diag_e, dense_e, lowrank_e or unit_e, got euclid");
    expect_error([&] { vio::StanCsvWriter(dir_.path().toStdString() + "/no/such/dir/c.csv",
                                          eight_schools_info(), {"a"}); },
                 "StanCsvWriter: cannot open '" + dir_.path().toStdString() +
                     "/no/such/dir/c.csv' for writing: No such file or directory");
  }

  void variationalLayout() {
    const std::string path = file("advi.csv");
    vio::VariationalCsvInfo info;
    info.run.model = "bernoulli";
    info.run.start_datetime = "2024-05-01 12:00:00 UTC";
    info.run.seed = 9;
    info.output_samples = 2;
    {
      vio::VariationalCsvWriter out(path, info, {"theta"});
      out.write_eta(0.1);
      out.write_mean({0.25});
      out.write_draw(-6.5, -0.75, {0.2});
      out.write_draw(-7.125, -1.5, {0.3});
      out.finish();
    }
    const auto lines = lines_of(vio::read_text_file(path));
    const auto header = std::find(lines.begin(), lines.end(), "lp__,log_p__,log_g__,theta");
    QVERIFY(header != lines.end());
    QVERIFY(std::find(lines.begin(), header, "# method = variational") != header);
    QVERIFY(std::find(lines.begin(), header, "#       meanfield") != header);
    QVERIFY(std::find(lines.begin(), header, "#     output_samples = 2") != header);
    const std::vector<std::string> rest(header + 1, lines.end());
    QCOMPARE(rest, (std::vector<std::string>{"# Stepsize adaptation complete.", "# eta = 0.1",
                                            "0,0,0,0.25", "0,-6.5,-0.75,0.2",
                                            "0,-7.125,-1.5,0.3"}));
    const auto csv = vio::read_stan_csv(path);
    QVERIFY(csv.approximation_mean.has_value());
    QVERIFY((*csv.approximation_mean == std::vector<double>{0, 0, 0, 0.25}));
    QCOMPARE(csv.draws.size(), size_t{2});
    QCOMPARE(csv.column("log_p__"), (std::vector<double>{-6.5, -7.125}));
    QCOMPARE(csv.eta.value_or(0), 0.1);
    QCOMPARE(csv.config.at("variational.algorithm"), std::string("meanfield"));
    QCOMPARE(csv.config.at("variational.adapt.iter"), std::string("50"));
  }

  void variationalRowsInOrder() {
    vio::VariationalCsvWriter out(file("advi_bad.csv"), {}, {"a", "b"});
    expect_error([&] { out.write_draw(-1, -1, {1, 2}); },
                 "VariationalCsvWriter: the first row must be the mean of the approximation");
    expect_error([&] { out.write_mean({1}); },
                 "VariationalCsvWriter: a row must have 2 parameter values, got 1");
    out.write_mean({1, 2});
    expect_error([&] { out.write_eta(1); },
                 "VariationalCsvWriter: eta must be written before the first row");
    vio::VariationalCsvInfo info;
    info.algorithm = "lowrank";
    expect_error([&] { vio::VariationalCsvWriter(file("advi_bad2.csv"), info, {"a"}); },
                 "VariationalCsvWriter: argument 'algorithm' must be meanfield or fullrank, "
                 "got lowrank");
  }

 private:
  std::string file(const char* name) const { return dir_.filePath(name).toStdString(); }

  template <class F>
  void expect_error(F f, const std::string& message) {
    try {
      f();
      QFAIL(("no exception, expected: " + message).c_str());
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(std::string(e.what()), message);
    }
  }

  QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestStanCsvWriter)
#include "tst_stan_csv_writer.moc"
