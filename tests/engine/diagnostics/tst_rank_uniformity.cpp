// The tests of rank uniformity simulation-based calibration reports. Against bayesplot's
// implementation of the published algorithm (tests/data/sbc/ecdf_bands.txt, made by
// make_ecdf_bands.R): for its gamma the same intervals and the same simultaneous coverage
// (the paper's recursion), and the gamma chosen here at least as close to the asked
// coverage (bayesplot's golden-section search can stop on a farther step). The band holds
// all counts together as often as it says; the ECDF test and the chi-square of binned
// ranks on hand-made ranks; ranks counted strictly below.

#include <fstream>
#include <sstream>

#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/rank_uniformity.h"

namespace vd = variate::diagnostics;

namespace {

struct PublishedBand {
  int64_t n = 0, k = 0;
  double prob = 0, gamma = 0, coverage = 0;
  std::vector<int64_t> lower, upper;
};

std::vector<int64_t> numbers(const std::string& line) {
  std::istringstream in(line);
  std::vector<int64_t> values;
  for (int64_t v; in >> v;) values.push_back(v);
  return values;
}

std::vector<PublishedBand> published_bands() {
  std::ifstream file(QT_TESTCASE_SOURCEDIR "/data/sbc/ecdf_bands.txt");
  std::vector<PublishedBand> bands;
  for (std::string header, lower, upper;
       std::getline(file, header) && std::getline(file, lower) && std::getline(file, upper);) {
    PublishedBand band;
    std::istringstream(header) >> band.n >> band.k >> band.prob >> band.gamma >> band.coverage;
    band.lower = numbers(lower);
    band.upper = numbers(upper);
    bands.push_back(band);
  }
  return bands;
}

QString joined(const std::vector<int64_t>& values) {
  QStringList parts;
  for (int64_t v : values) parts << QString::number(v);
  return parts.join(' ');
}

}  // namespace

class TestRankUniformity : public QObject {
  Q_OBJECT

 private slots:
  void bandsEqualThePublishedAlgorithms_data() {
    QTest::addColumn<int>("index");
    const auto bands = published_bands();
    QVERIFY(bands.size() >= 6);
    for (size_t i = 0; i < bands.size(); ++i) {
      QTest::newRow(qPrintable(QString("N %1, K %2, %3").arg(bands[i].n).arg(bands[i].k).arg(bands[i].prob)))
          << static_cast<int>(i);
    }
  }
  void bandsEqualThePublishedAlgorithms() {
    QFETCH(int, index);
    const PublishedBand published = published_bands()[index];
    const vd::EcdfBand of_gamma = vd::ecdf_band_of_gamma(published.n, published.k, published.gamma);
    QCOMPARE(joined(of_gamma.lower), joined(published.lower));
    QCOMPARE(joined(of_gamma.upper), joined(published.upper));
    QVERIFY2(
        std::abs(of_gamma.prob - published.coverage) < 1e-10,
        qPrintable(
            QString("coverage %1, bayesplot's %2").arg(of_gamma.prob, 0, 'g', 15).arg(published.coverage, 0, 'g', 15)));
    const vd::EcdfBand chosen = vd::simultaneous_ecdf_band(published.n, published.k, published.prob);
    qInfo("gamma %.6g, coverage %.6f (bayesplot's gamma %.6g, coverage %.6f; asked %.2f)", chosen.gamma, chosen.prob,
          published.gamma, published.coverage, published.prob);
    QVERIFY(std::abs(chosen.prob - published.prob) <= std::abs(published.coverage - published.prob) + 1e-12);
  }

  // Uniform counts leave a 99% band in about 1% of data sets, where the pointwise band of
  // the same gamma alone would be left far more often: the band is simultaneous.
  void theBandHoldsAsOftenAsItSays() {
    const int64_t n = 50, max_rank = 20, sets = 4000;
    const vd::EcdfBand band = vd::simultaneous_ecdf_band(n, max_rank + 1, 0.99);
    at::Generator generator = at::detail::createCPUGenerator(7);
    int outside = 0;
    for (int s = 0; s < sets; ++s) {
      const at::Tensor draws = at::randint(0, max_rank + 1, {n}, generator, at::kLong);
      const std::vector<int64_t> ranks(draws.data_ptr<int64_t>(), draws.data_ptr<int64_t>() + n);
      outside += vd::ecdf_uniformity(ranks, max_rank, band).uniform ? 0 : 1;
    }
    const double rate = static_cast<double>(outside) / sets;
    qInfo("outside the 99%% band: %.4f of %lld uniform sets", rate, static_cast<long long>(sets));
    QVERIFY2(rate > 0.003 && rate < 0.02, qPrintable(QString::number(rate)));
  }

  void ranksCountTheDrawsBelow() {
    QCOMPARE(vd::rank_of(0.5, {0.1, 0.7, 0.3, 0.5, 0.9}), int64_t{2});
    QCOMPARE(vd::rank_of(-1.0, {0.1, 0.7}), int64_t{0});
    QCOMPARE(vd::rank_of(2.0, {0.1, 0.7}), int64_t{2});
    QCOMPARE(vd::rank_of(2.0, {}), int64_t{0});
  }

  void theEcdfTestFindsWhereTheRanksLeaveTheBand() {
    std::vector<int64_t> even;
    for (int i = 0; i < 50; ++i) even.push_back(i % 10);
    const vd::EcdfTest uniform = vd::ecdf_uniformity(even, 9, 0.99);
    QVERIFY(uniform.uniform);
    QCOMPARE(uniform.first_outside, int64_t{-1});
    QCOMPARE(joined(uniform.counts), QString("0 5 10 15 20 25 30 35 40 45 50"));
    // Every true value below all its draws: a fit far too high.
    const vd::EcdfTest low = vd::ecdf_uniformity(std::vector<int64_t>(50, 0), 9, 0.99);
    QVERIFY(!low.uniform);
    QCOMPARE(low.first_outside, int64_t{1});
    QCOMPARE(low.counts[1], int64_t{50});
  }

  void chiSquareOfBinnedRanks() {
    std::vector<int64_t> ranks;
    for (int i = 0; i < 30; ++i) ranks.push_back(i < 15 ? 0 : i < 25 ? 1 : 2);
    const vd::ChiSquareTest test = vd::binned_chi_square(ranks, 2, 3);
    QCOMPARE(joined(test.counts), QString("15 10 5"));
    QCOMPARE(test.statistic, 5.0);  // (25 + 0 + 25) / 10
    QCOMPARE(test.degrees_of_freedom, 2);
    QVERIFY(std::abs(test.p_value - std::exp(-2.5)) < 1e-12);  // two degrees of freedom: exp(-x / 2)
    // Bins of unequal widths expect counts in proportion: ranks 0 ... 9 in 3 bins of 3, 3, 4.
    std::vector<int64_t> even;
    for (int i = 0; i < 100; ++i) even.push_back(i % 10);
    const vd::ChiSquareTest widths = vd::binned_chi_square(even, 9, 3);
    QCOMPARE(joined(widths.counts), QString("30 30 40"));
    QCOMPARE(widths.statistic, 0.0);
    QCOMPARE(widths.p_value, 1.0);
    QCOMPARE(vd::default_bins(200, 400), 20);
    QCOMPARE(vd::default_bins(30, 400), 6);
    QCOMPARE(vd::default_bins(200, 4), 5);
  }

  void refusals() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::ecdf_uniformity({0, 11}, 10 - 1, 0.99));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::ecdf_uniformity({}, 9, 0.99));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::binned_chi_square({0, 1}, 9, 11));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vd::simultaneous_ecdf_band(10, 10, 1.0));
  }
};

QTEST_APPLESS_MAIN(TestRankUniformity)
#include "tst_rank_uniformity.moc"
