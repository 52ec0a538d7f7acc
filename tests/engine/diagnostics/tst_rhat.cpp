// R-hat against rstan 2.21 / posterior, its invariances (iid chains near 1, shifted or
// rescaled chains flagged) and its edge cases.

#include <QtTest/QtTest>
#include <cmath>
#include <limits>

#include "tests/engine/diagnostics/reference_draws.h"
#include "engine/core/checks.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/diagnostics/rank_normalization.h"
#include "engine/diagnostics/rhat.h"
#include "engine/diagnostics/split_chains.h"

namespace vd = variate::diagnostics;
namespace vtest = variate::testing;

namespace {

vd::Draws normal_draws(int chains, int n, uint64_t seed, std::vector<double> shift = {},
                       std::vector<double> scale = {}) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor z = at::randn({chains, n}, generator, at::kDouble).contiguous();
  vd::Draws draws(chains);
  for (int c = 0; c < chains; ++c) {
    const double* row = z.data_ptr<double>() + c * n;
    const double mu = shift.empty() ? 0 : shift[c];
    const double sigma = scale.empty() ? 1 : scale[c];
    for (int i = 0; i < n; ++i) draws[c].push_back(mu + sigma * row[i]);
  }
  return draws;
}

// BDA3 eq. 11.4 written out from its definition, for rhat_basic.
double naive_rhat(const vd::Draws& chains) {
  const double n = chains[0].size();
  const double m = chains.size();
  std::vector<double> means;
  double w = 0;
  for (const auto& chain : chains) {
    double mean = 0;
    for (double x : chain) mean += x / n;
    double var = 0;
    for (double x : chain) var += (x - mean) * (x - mean) / (n - 1);
    means.push_back(mean);
    w += var / m;
  }
  double grand = 0;
  for (double mu : means) grand += mu / m;
  double b = 0;
  for (double mu : means) b += n * (mu - grand) * (mu - grand) / (m - 1);
  return std::sqrt(((n - 1) / n * w + b / n) / w);
}

}  // namespace

class TestRhat : public QObject {
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
    std::string error =
        vtest::compare_to_reference("rhat", vd::rhat(draws), expected.at("rhat_blom"));
    // rstan 2.21's Rhat ranks with offset 1/2: its bulk and folded parts.
    const vd::Draws split = vd::split_chains(draws);
    const double center = vd::median(draws);
    vd::Draws folded = draws;
    for (auto& chain : folded) {
      for (double& x : chain) x = std::abs(x - center);
    }
    const double bulk_half = vd::rhat_basic(vd::rank_normalize(split, 0.5));
    const double tail_half = vd::rhat_basic(vd::rank_normalize(vd::split_chains(folded), 0.5));
    if (error.empty()) {
      error =
          vtest::compare_to_reference("bulk, offset 1/2", bulk_half, expected.at("rhat_bulk_half"));
    }
    if (error.empty()) {
      error =
          vtest::compare_to_reference("tail, offset 1/2", tail_half, expected.at("rhat_tail_half"));
    }
    if (error.empty()) {
      error = vtest::compare_to_reference("max, offset 1/2", std::max(bulk_half, tail_half),
                                          expected.at("rhat_half"));
    }
    QVERIFY2(error.empty(), error.c_str());
  }

  void rhatBasicMatchesTextbook() {
    const vd::Draws draws = normal_draws(3, 50, 1, {0, 0.3, -0.2}, {1, 2, 0.5});
    QCOMPARE(vd::rhat_basic(draws), naive_rhat(draws));
  }

  void iidChainsGiveNearlyOne_data() {
    QTest::addColumn<int>("chains");
    QTest::addColumn<int>("n");
    QTest::newRow("4 x 1000") << 4 << 1000;
    QTest::newRow("8 x 500") << 8 << 500;
    QTest::newRow("1 x 4000 (halves)") << 1 << 4000;
    QTest::newRow("4 x 1001 (odd)") << 4 << 1001;
  }
  void iidChainsGiveNearlyOne() {
    QFETCH(int, chains);
    QFETCH(int, n);
    const double r = vd::rhat(normal_draws(chains, n, 2));
    QVERIFY2(r > 0.99 && r < 1.01, qPrintable(QString::number(r, 'g', 10)));
  }

  void shiftedChainFlagged() {
    const vd::Draws draws = normal_draws(4, 1000, 3, {0, 0, 0, 2});
    const double bulk = vd::rhat_bulk(draws);
    QVERIFY2(bulk > 1.1, qPrintable(QString::number(bulk)));
    QCOMPARE(vd::rhat(draws), bulk);
  }

  void rescaledChainFlaggedByFoldedRhat() {
    // Same location, different scale: the bulk R-hat misses it, the folded one does not.
    const vd::Draws draws = normal_draws(4, 1000, 4, {}, {1, 1, 1, 4});
    const double bulk = vd::rhat_bulk(draws);
    const double tail = vd::rhat_tail(draws);
    QVERIFY2(bulk < 1.01, qPrintable(QString::number(bulk)));
    QVERIFY2(tail > 1.05, qPrintable(QString::number(tail)));
    QCOMPARE(vd::rhat(draws), tail);
  }

  void driftWithinOneChainFlaggedBySplitting() {
    // Each chain drifts the same way: only the split halves disagree.
    vd::Draws draws = normal_draws(4, 1000, 5);
    for (auto& chain : draws) {
      for (std::size_t i = 0; i < chain.size(); ++i) chain[i] += 3.0 * i / chain.size();
    }
    QVERIFY(vd::rhat(draws) > 1.1);
  }

  void invariantUnderMonotoneTransforms() {
    const vd::Draws draws = normal_draws(4, 500, 6, {0, 0.1, 0, 0.2});
    vd::Draws transformed = draws;
    for (auto& chain : transformed) {
      for (double& x : chain) x = std::exp(3 * x) + 7;
    }
    QCOMPARE(vd::rhat_bulk(transformed), vd::rhat_bulk(draws));
  }

  void undefinedCasesGiveNaN_data() {
    QTest::addColumn<int>("chains");
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("special");  // written over draw [0][0] when not 0
    QTest::addColumn<bool>("constant");
    QTest::newRow("constant") << 4 << 100 << 0.0 << true;
    QTest::newRow("nan draw") << 4 << 100 << std::nan("") << false;
    QTest::newRow("infinite draw") << 4 << 100 << -std::numeric_limits<double>::infinity() << false;
    QTest::newRow("3 draws per chain") << 4 << 3 << 0.0 << false;
    QTest::newRow("2 draws per chain") << 4 << 2 << 0.0 << false;
    QTest::newRow("1 draw per chain") << 4 << 1 << 0.0 << false;
    QTest::newRow("no draws") << 2 << 0 << 0.0 << false;
  }
  void undefinedCasesGiveNaN() {
    QFETCH(int, chains);
    QFETCH(int, n);
    QFETCH(double, special);
    QFETCH(bool, constant);
    vd::Draws draws =
        constant ? vd::Draws(chains, std::vector<double>(n, -1.25)) : normal_draws(chains, n, 7);
    if (special != 0) draws[0][0] = special;
    QVERIFY(std::isnan(vd::rhat(draws)));
    QVERIFY(std::isnan(vd::rhat_bulk(draws)));
    QVERIFY(std::isnan(vd::rhat_tail(draws)));
  }

  void fourDrawsPerChainIsEnough() {
    QVERIFY(std::isfinite(vd::rhat(normal_draws(4, 4, 8))));
    QVERIFY(std::isfinite(vd::rhat(normal_draws(1, 4, 8))));
  }

  void oneUnsplitChainHasNoRhatBasic() {
    QVERIFY(std::isnan(vd::rhat_basic(normal_draws(1, 100, 9))));
  }

  void invalidDrawsThrow() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::rhat(vd::Draws{}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::rhat(vd::Draws{{1, 2}, {1}}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::rhat_basic(vd::Draws{{1, 2}, {}}));
  }
};

QTEST_APPLESS_MAIN(TestRhat)
#include "tst_rhat.moc"
