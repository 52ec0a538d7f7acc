// summarize(): every column against R, agreement with the one-by-one functions, edge
// cases, and its cost at the size the studio recomputes.

#include <QtCore/QElapsedTimer>
#include <QtTest/QtTest>
#include <cmath>
#include <ctime>
#include <limits>

#include "tests/engine/diagnostics/reference_draws.h"
#include "engine/core/checks.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/mcse.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/diagnostics/rhat.h"
#include "engine/diagnostics/summary.h"

namespace vd = variate::diagnostics;
namespace vtest = variate::testing;

namespace {

vd::Draws ar1(int chains, int n, double phi, uint64_t seed) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor noise = at::randn({chains, n}, generator, at::kDouble).contiguous();
  vd::Draws draws(chains, std::vector<double>(n));
  const double scale = std::sqrt(1 - phi * phi);
  for (int c = 0; c < chains && n > 0; ++c) {
    const double* z = noise.data_ptr<double>() + static_cast<std::ptrdiff_t>(c) * n;
    double x = z[0];
    for (int i = 0; i < n; ++i) {
      if (i > 0) x = phi * x + scale * z[i];
      draws[c][i] = 2 + 3 * x;
    }
  }
  return draws;
}

// Equal, or both NaN.
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

}  // namespace

class TestSummary : public QObject {
  Q_OBJECT

 private slots:
  void matchesR_data() {
    QTest::addColumn<QString>("set");
    const QStringList names = vtest::reference_set_names();
    if (names.isEmpty()) QTest::newRow("reference data missing") << QString("missing");
    for (const QString& name : names) QTest::newRow(qPrintable(name)) << name;
  }
  void matchesR() {
    QFETCH(QString, set);
    const vd::Draws draws = vtest::read_reference_draws(set);
    QVERIFY2(!draws.empty(), "reference draws missing");
    auto expected = vtest::read_reference_expected()[set];
    QVERIFY(!expected.empty());
    const vd::ParameterSummary s = vd::summarize(set.toStdString(), draws);
    QCOMPARE(QString::fromStdString(s.name), set);
    const std::pair<const char*, double> columns[] = {{"mean", s.mean},
                                                      {"sd", s.sd},
                                                      {"q5", s.q5},
                                                      {"q50", s.q50},
                                                      {"q95", s.q95},
                                                      {"mcse_mean", s.mcse_mean},
                                                      {"mcse_sd", s.mcse_sd},
                                                      {"ess_bulk_blom", s.ess_bulk},
                                                      {"ess_tail", s.ess_tail},
                                                      {"rhat_blom", s.r_hat}};
    for (const auto& [column, got] : columns) {
      const std::string error = vtest::compare_to_reference(column, got, expected.at(column));
      QVERIFY2(error.empty(), error.c_str());
    }
  }

  void equalsOneByOneFunctions_data() {
    QTest::addColumn<int>("n");
    QTest::newRow("even") << 1000;
    QTest::newRow("odd") << 777;
    QTest::newRow("short") << 7;
  }
  void equalsOneByOneFunctions() {
    QFETCH(int, n);
    const vd::Draws draws = ar1(3, n, 0.7, 50);
    const vd::ParameterSummary s = vd::summarize("theta", draws);
    QVERIFY(same(s.q5, vd::quantile(draws, 0.05)));
    QVERIFY(same(s.q50, vd::median(draws)));
    QVERIFY(same(s.q95, vd::quantile(draws, 0.95)));
    QVERIFY(same(s.mcse_mean, vd::mcse_mean(draws)));
    QVERIFY(same(s.mcse_sd, vd::mcse_sd(draws)));
    QVERIFY(same(s.ess_bulk, vd::ess_bulk(draws)));
    QVERIFY(same(s.ess_tail, vd::ess_tail(draws)));
    QVERIFY(same(s.r_hat, vd::rhat(draws)));
  }

  // Draws near 3e200 or 1e-200 (a quantity in other units): the summary is the one at
  // scale 1, scaled; nothing overflows to inf or underflows to 0 or NaN.
  void scaleFreeAtExtremes_data() {
    QTest::addColumn<double>("scale");
    for (double scale : {3e200, 1e-200, 1e300, 1e-300, -7e250}) QTest::newRow(qPrintable(QString::number(scale))) << scale;
  }
  void scaleFreeAtExtremes() {
    QFETCH(double, scale);
    const vd::Draws draws = ar1(4, 500, 0.6, 77);
    vd::Draws scaled = draws;
    for (auto& chain : scaled) {
      for (double& x : chain) x *= scale;
    }
    const vd::ParameterSummary one = vd::summarize("x", draws), far = vd::summarize("x", scaled);
    const auto close = [](double got, double expected) { return std::abs(got - expected) <= 1e-12 * std::abs(expected); };
    const double units = std::abs(scale);
    QVERIFY2(close(far.mean, one.mean * scale), qPrintable(QString::number(far.mean)));
    QVERIFY2(close(far.sd, one.sd * units), qPrintable(QString::number(far.sd)));
    QVERIFY(close(far.mcse_mean, one.mcse_mean * units));
    QVERIFY(close(far.mcse_sd, one.mcse_sd * units));
    QVERIFY(close(scale > 0 ? far.q5 : far.q95, one.q5 * scale));
    QVERIFY(close(far.q50, one.q50 * scale));
    QVERIFY2(close(far.ess_bulk, one.ess_bulk), qPrintable(QString::number(far.ess_bulk)));
    QVERIFY2(close(far.ess_tail, one.ess_tail), qPrintable(QString::number(far.ess_tail)));
    QVERIFY2(close(far.r_hat, one.r_hat), qPrintable(QString::number(far.r_hat)));
    // The one-by-one functions as well.
    QVERIFY(close(vd::mcse_mean(scaled), one.mcse_mean * units));
    QVERIFY(close(vd::ess_tail(scaled), one.ess_tail));
    QVERIFY(close(vd::rhat(scaled), one.r_hat));
  }

  void constantParameter() {
    const vd::ParameterSummary s = vd::summarize("c", vd::Draws(4, std::vector<double>(100, 3.0)));
    QCOMPARE(s.mean, 3.0);
    QCOMPARE(s.sd, 0.0);
    QCOMPARE(s.q5, 3.0);
    QCOMPARE(s.q95, 3.0);
    for (double v : {s.mcse_mean, s.mcse_sd, s.ess_bulk, s.ess_tail, s.r_hat}) {
      QVERIFY(std::isnan(v));
    }
  }

  void nonFiniteDrawsGiveNaNDiagnostics_data() {
    QTest::addColumn<double>("special");
    QTest::newRow("nan") << std::nan("");
    QTest::newRow("inf") << std::numeric_limits<double>::infinity();
  }
  void nonFiniteDrawsGiveNaNDiagnostics() {
    QFETCH(double, special);
    vd::Draws draws = ar1(4, 200, 0.2, 51);
    draws[3][100] = special;
    const vd::ParameterSummary s = vd::summarize("x", draws);
    for (double v : {s.mcse_mean, s.mcse_sd, s.ess_bulk, s.ess_tail, s.r_hat}) {
      QVERIFY(std::isnan(v));
    }
    QVERIFY(!std::isfinite(s.mean));
  }

  void tinyDrawCountsDoNotCrash_data() {
    QTest::addColumn<int>("chains");
    QTest::addColumn<int>("n");
    for (int n = 0; n <= 6; ++n) {
      QTest::newRow(qPrintable(QString("4 x %1").arg(n))) << 4 << n;
      QTest::newRow(qPrintable(QString("1 x %1").arg(n))) << 1 << n;
    }
  }
  void tinyDrawCountsDoNotCrash() {
    QFETCH(int, chains);
    QFETCH(int, n);
    const vd::ParameterSummary s = vd::summarize("x", ar1(chains, n, 0.0, 52));
    // ESS needs split chains of 3 draws, R-hat of 2 (and two chains after splitting).
    QCOMPARE(std::isnan(s.ess_bulk), n < 6);
    QCOMPARE(std::isnan(s.r_hat), n < 4);
    QCOMPARE(std::isnan(s.mean), n == 0);
  }

  void invalidDrawsThrow() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::summarize("x", {}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::summarize("x", {{1, 2, 3}, {4, 5}}));
  }

  void summarizesLargeRunsAndReportsTheTime() {
    // 4 chains x 100,000 draws, as the studio recomputes them.
    const vd::Draws draws = ar1(4, 100000, 0.5, 53);
    vd::summarize("warm-up", draws);
    QElapsedTimer timer;
    const std::clock_t cpu_start = std::clock();
    timer.start();
    const int repeats = 5;
    vd::ParameterSummary s;
    for (int k = 0; k < repeats; ++k) s = vd::summarize("theta", draws);
    const double ms = timer.nsecsElapsed() / 1e6 / repeats;
    const double cpu_ms = 1e3 * double(std::clock() - cpu_start) / CLOCKS_PER_SEC / repeats;
    qInfo("summarize of 4 x 100000 draws: %.1f ms (%.1f ms of CPU time)", ms, cpu_ms);
    QVERIFY(std::abs(s.ess_bulk / (400000.0 / 3) - 1) < 0.05);
    // The time is reported, not asserted (tests never depend on the machine's speed);
    // about 60 ms of CPU on this project's 2-core machine.
  }
};

QTEST_APPLESS_MAIN(TestSummary)
#include "tst_summary.moc"
