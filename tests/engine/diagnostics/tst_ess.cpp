// Effective sample sizes against rstan 2.21 / posterior, against the AR(1) theory, and at
// the edges (constant, short, non-finite draws).

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "tests/engine/diagnostics/reference_draws.h"
#include "engine/core/checks.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/rank_normalization.h"
#include "engine/diagnostics/split_chains.h"

namespace vd = variate::diagnostics;
namespace vtest = variate::testing;

namespace {

// Chains of a stationary Gaussian AR(1) with unit marginal variance.
vd::Draws ar1(int chains, int n, double phi, uint64_t seed) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor noise = at::randn({chains, n}, generator, at::kDouble);
  const auto z = noise.accessor<double, 2>();
  vd::Draws draws(chains, std::vector<double>(n));
  const double scale = std::sqrt(1 - phi * phi);
  for (int c = 0; c < chains && n > 0; ++c) {
    draws[c][0] = z[c][0];
    for (int i = 1; i < n; ++i) draws[c][i] = phi * draws[c][i - 1] + scale * z[c][i];
  }
  return draws;
}

void add_reference_rows() {
  QTest::addColumn<QString>("set");
  const QStringList names = vtest::reference_set_names();
  if (names.isEmpty()) QTest::newRow("reference data missing") << QString("missing");
  for (const QString& name : names) QTest::newRow(qPrintable(name)) << name;
}

}  // namespace

class TestEss : public QObject {
  Q_OBJECT

 private slots:
  void matchesR_data() { add_reference_rows(); }
  void matchesR() {
    QFETCH(QString, set);
    const vd::Draws draws = vtest::read_reference_draws(set);
    QVERIFY2(!draws.empty(), "reference draws missing");
    auto expected = vtest::read_reference_expected()[set];
    QVERIFY(!expected.empty());
    std::string error;
    const auto check = [&](const char* what, double got, const char* column) {
      if (error.empty()) error = vtest::compare_to_reference(what, got, expected.at(column));
    };
    check("ess_bulk", vd::ess_bulk(draws), "ess_bulk_blom");
    // rstan 2.21's own ess_bulk: rank normalization with offset 1/2.
    check("ess of (r - 1/2)/S ranks", vd::ess(vd::rank_normalize(vd::split_chains(draws), 0.5)),
          "ess_bulk_half");
    check("ess_tail", vd::ess_tail(draws), "ess_tail");
    check("ess_mean", vd::ess_mean(draws), "ess_mean");
    check("ess_sd", vd::ess_sd(draws), "ess_sd");
    QVERIFY2(error.empty(), error.c_str());
  }

  void ar1MatchesTheory_data() {
    QTest::addColumn<double>("phi");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("iid") << 0.0 << 0.08;
    QTest::newRow("phi 0.5") << 0.5 << 0.08;
    QTest::newRow("phi 0.9") << 0.9 << 0.15;
    QTest::newRow("antithetic phi -0.3") << -0.3 << 0.08;
  }
  void ar1MatchesTheory() {
    QFETCH(double, phi);
    QFETCH(double, tolerance);
    const int chains = 4;
    const int n = 20000;
    const vd::Draws draws = ar1(chains, n, phi, 11);
    // The asymptotic variance of the mean of an AR(1) is (1 + phi) / (1 - phi) per draw.
    const double theory = chains * n * (1 - phi) / (1 + phi);
    for (double got : {vd::ess_mean(draws), vd::ess_bulk(draws)}) {
      QVERIFY2(std::abs(got / theory - 1) < tolerance,
               qPrintable(QString("ESS %1, theory %2").arg(got).arg(theory)));
    }
  }

  void iidTailEssNearDrawCount() {
    const vd::Draws draws = ar1(4, 5000, 0.0, 12);
    const double tail = vd::ess_tail(draws);
    QVERIFY2(std::abs(tail / 20000 - 1) < 0.1, qPrintable(QString::number(tail)));
  }

  void essIsCappedAtSLog10S() {
    // An AR(1) with phi = -0.9 has tau = 0.1 / 1.9, below the bound 1/log10(S).
    const vd::Draws draws = ar1(4, 1000, -0.9, 3);
    const double total = 4000;
    QCOMPARE(vd::ess_mean(draws), total * std::log10(total));
  }

  void perfectlyAlternatingChainsGiveHalfTheDraws() {
    // The first pair sum 1 + rho_1 is not positive, so Geyer's sequence never starts and
    // posterior's tau is 2 (its 1:0 indexing; see ess.cpp): rstan 2.21 gives 1000 here.
    vd::Draws draws(2, std::vector<double>(1000));
    for (int c = 0; c < 2; ++c) {
      for (int i = 0; i < 1000; ++i) draws[c][i] = (i % 2 == 0 ? 1.0 : -1.0) + 1e-6 * c;
    }
    QCOMPARE(vd::ess_mean(draws), 1000.0);
  }

  void undefinedCasesGiveNaN_data() {
    QTest::addColumn<int>("chains");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("special");  // written over draw [0][0] when not 0
    QTest::addColumn<bool>("constant");
    QTest::newRow("constant") << 4 << 100 << 0.0 << true;
    QTest::newRow("nan draw") << 4 << 100 << std::nan("") << false;
    QTest::newRow("infinite draw") << 4 << 100 << std::numeric_limits<double>::infinity() << false;
    QTest::newRow("5 draws per chain") << 4 << 5 << 0.0 << false;
    QTest::newRow("2 draws per chain") << 3 << 2 << 0.0 << false;
    QTest::newRow("1 draw per chain") << 4 << 1 << 0.0 << false;
    QTest::newRow("no draws") << 4 << 0 << 0.0 << false;
  }
  void undefinedCasesGiveNaN() {
    QFETCH(int, chains);
    QFETCH(int, n);
    QFETCH(double, special);
    QFETCH(bool, constant);
    vd::Draws draws =
        constant ? vd::Draws(chains, std::vector<double>(n, 2.5)) : ar1(chains, n, 0.2, 5);
    if (special != 0) draws[0][0] = special;
    QVERIFY(std::isnan(vd::ess_bulk(draws)));
    QVERIFY(std::isnan(vd::ess_tail(draws)));
    QVERIFY(std::isnan(vd::ess_mean(draws)));
    QVERIFY(std::isnan(vd::ess_sd(draws)));
    QVERIFY(std::isnan(vd::ess_quantile(draws, 0.3)));
  }

  void sixDrawsPerChainIsEnough() {
    // Split chains of 3 are the shortest with an ESS; the sequence never starts, and as
    // in posterior tau = 2 (see ess.cpp), so ESS = S / 2.
    const vd::Draws draws = ar1(4, 6, 0.1, 9);
    QCOMPARE(vd::ess_mean(draws), 12.0);
    QVERIFY(std::isfinite(vd::ess_bulk(draws)));
  }

  void singleChainIsSplit() {
    const vd::Draws draws = ar1(1, 4000, 0.0, 13);
    const double got = vd::ess_bulk(draws);
    QVERIFY2(std::abs(got / 4000 - 1) < 0.15, qPrintable(QString::number(got)));
  }

  void essQuantileMatchesTailAtItsProbabilities() {
    const vd::Draws draws = ar1(4, 1000, 0.4, 14);
    QCOMPARE(vd::ess_tail(draws),
             std::min(vd::ess_quantile(draws, 0.05), vd::ess_quantile(draws, 0.95)));
  }

  void invalidDrawsThrow() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::ess(vd::Draws{}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vd::ess_bulk(vd::Draws{{1, 2, 3, 4}, {1, 2, 3}}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vd::ess_quantile(vd::Draws{{1, 2, 3, 4}}, 1.5));
    try {
      vd::ess_tail(vd::Draws{{1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2}});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("ess_tail: argument 'draws' must be chains of equal length, got 2 "
                       "(at index [2])"));
    }
  }
};

QTEST_APPLESS_MAIN(TestEss)
#include "tst_ess.moc"
