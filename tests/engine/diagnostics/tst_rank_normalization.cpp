// Rank normalization: ranks across all chains, average ranks for ties, the offset.

#include <QtTest/QtTest>
#include <cmath>

#include "engine/core/checks.h"
#include "engine/diagnostics/inverse_normal_cdf.h"
#include "engine/diagnostics/rank_normalization.h"

namespace vd = variate::diagnostics;

class TestRankNormalization : public QObject {
  Q_OBJECT

 private slots:
  void ranksAcrossChainsWithAveragedTies_data() {
    QTest::addColumn<double>("offset");
    QTest::newRow("Blom 3/8") << vd::kBlomOffset;
    QTest::newRow("1/2 (rstan 2.21)") << 0.5;
  }
  void ranksAcrossChainsWithAveragedTies() {
    QFETCH(double, offset);
    // R: rank(c(3, 1, 3, 2, 3, 1)) is 5 1.5 5 3 5 1.5.
    const vd::Draws draws{{3, 1, 3}, {2, 3, 1}};
    const std::vector<double> ranks{5, 1.5, 5, 3, 5, 1.5};
    const vd::Draws z = vd::rank_normalize(draws, offset);
    QCOMPARE(z.size(), std::size_t{2});
    for (std::size_t k = 0; k < 6; ++k) {
      const double expected = vd::inverse_normal_cdf((ranks[k] - offset) / (6 - 2 * offset + 1));
      QCOMPARE(z[k / 3][k % 3], expected);
    }
  }

  void symmetricAboutZero() {
    const vd::Draws z = vd::rank_normalize({{0.3, -7, 12, 1e-9}});
    std::vector<double> sorted = z[0];
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted[0], -sorted[3]);
    QCOMPARE(sorted[1], -sorted[2]);
  }

  void infiniteDrawsHaveRanksNanDoesNot() {
    const double inf = std::numeric_limits<double>::infinity();
    const vd::Draws z = vd::rank_normalize({{inf, 0, -inf}});
    QVERIFY(z[0][0] > z[0][1] && z[0][1] > z[0][2] && std::isfinite(z[0][0]));
    const vd::Draws with_nan = vd::rank_normalize({{1, std::nan(""), 3}, {4, 5, 6}});
    for (const auto& chain : with_nan) {
      for (double v : chain) QVERIFY(std::isnan(v));
    }
  }

  void emptyChainsAndInvalidDraws() {
    QCOMPARE(vd::rank_normalize({{}, {}}), (vd::Draws{{}, {}}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::rank_normalize({}));
  }
};

QTEST_APPLESS_MAIN(TestRankNormalization)
#include "tst_rank_normalization.moc"
