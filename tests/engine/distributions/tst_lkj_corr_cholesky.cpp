// LKJCorrCholesky(K, eta): density against det(R)^(eta - 1) times the Jacobian, the
// normalizing constant checked by integration, gradients, the onion sampler's moments and
// marginals, batches, errors.

#include <cmath>
#include <limits>
#include <random>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/lkj_corr_cholesky.h"

using variate::distributions::LKJCorrCholesky;
namespace vtest = variate::testing;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

// The Cholesky factor whose strictly lower entries are `below` (row by row); each
// diagonal entry completes its row to unit length.
at::Tensor factor(int64_t k, const QList<double>& below) {
  at::Tensor l = at::zeros({k, k}, at::kDouble);
  int next = 0;
  for (int64_t i = 0; i < k; ++i) {
    double norm = 0;
    for (int64_t j = 0; j < i; ++j) {
      l[i][j] = below[next];
      norm += below[next] * below[next];
      ++next;
    }
    l[i][i] = std::sqrt(1 - norm);
  }
  return l;
}

// Determinant by Gaussian elimination with partial pivoting.
double determinant(std::vector<std::vector<double>> a) {
  const size_t n = a.size();
  double det = 1;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    if (pivot != c) {
      std::swap(a[pivot], a[c]);
      det = -det;
    }
    det *= a[c][c];
    for (size_t r = c + 1; r < n; ++r) {
      const double f = a[r][c] / a[c][c];
      for (size_t j = c; j < n; ++j) a[r][j] -= f * a[c][j];
    }
  }
  return det;
}

// log c_K(eta) from LKJ (2009) eq. 16 in its product form.
double naive_log_normalizer(int k, double eta) {
  double log_c = 0;
  for (int j = 1; j <= k - 1; ++j) {
    const double b = eta + (k - j - 1) / 2.0;
    const double log_beta = 2 * std::lgamma(b) - std::lgamma(2 * b);
    log_c += (2 * eta - 2 + k - j) * (k - j) * std::log(2.0) + (k - j) * log_beta;
  }
  return log_c;
}

// The density of L from the correlation matrix: (eta - 1) log det(L L^T) plus the log
// Jacobian of L -> R, sum_i (K - i) log L_ii (1-based), minus log c_K(eta).
double naive_log_density(const at::Tensor& l, double eta) {
  const int k = static_cast<int>(l.size(0));
  std::vector<std::vector<double>> r(k, std::vector<double>(k, 0));
  double log_jacobian = 0;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      for (int m = 0; m < k; ++m) r[i][j] += l[i][m].item<double>() * l[j][m].item<double>();
    }
    log_jacobian += (k - 1 - i) * std::log(l[i][i].item<double>());
  }
  return (eta - 1) * std::log(determinant(r)) + log_jacobian - naive_log_normalizer(k, eta);
}

void expect_error(const std::function<void()>& make, const QString& message) {
  try {
    make();
    QFAIL("no exception");
  } catch (const variate::ArgumentError& e) {
    QCOMPARE(QString(e.what()), message);
  }
}

// Off-diagonal correlations R_ij (i < j) of draws of L: shape [n, K (K - 1) / 2].
at::Tensor off_diagonal_correlations(const at::Tensor& l) {
  const at::Tensor r = at::matmul(l, l.transpose(-2, -1));
  const int64_t k = l.size(-1);
  const at::Tensor index = at::triu_indices(k, k, 1, at::kLong);
  return r.index({at::indexing::Slice(), index[0], index[1]});
}

}  // namespace

class TestLKJCorrCholesky : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::addColumn<QList<double>>("below");  // strictly lower entries, row by row
    QTest::newRow("K 2, uniform") << 2 << 1.0 << QList<double>{0.3};
    QTest::newRow("K 2, near singular") << 2 << 0.5 << QList<double>{-0.999};
    QTest::newRow("K 3, eta 2.5") << 3 << 2.5 << QList<double>{0.5, -0.2, 0.4};
    QTest::newRow("K 3, tiny eta") << 3 << 1e-2 << QList<double>{0.9, 0.1, -0.3};
    QTest::newRow("K 4, identity, huge eta") << 4 << 1e3 << QList<double>{0, 0, 0, 0, 0, 0};
    QTest::newRow("K 4, near singular") << 4 << 1.0
        << QList<double>{0.999, 0.2, 0.3, -0.5, 0.1, 0.2};
    QTest::newRow("K 5, eta 3") << 5 << 3.0
        << QList<double>{0.1, -0.2, 0.3, 0.05, 0.1, -0.1, 0.2, 0.3, -0.2, 0.1};
  }
  void logProbMatchesFormula() {
    QFETCH(int, k);
    QFETCH(double, eta);
    QFETCH(QList<double>, below);
    const at::Tensor l = factor(k, below);
    const double got = LKJCorrCholesky(k, scalar(eta)).log_prob(l).item<double>();
    const double expected = naive_log_density(l, eta);
    QVERIFY2(std::abs(got - expected) <= 1e-10 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void densityIntegratesToOneForK2_data() {
    QTest::addColumn<double>("eta");
    QTest::newRow("eta 0.5") << 0.5;
    QTest::newRow("eta 1") << 1.0;
    QTest::newRow("eta 2.5") << 2.5;
    QTest::newRow("eta 10") << 10.0;
  }
  void densityIntegratesToOneForK2() {
    // The free coordinate is r = L[1][0] in (-1, 1). With r = cos(theta) the integrand
    // p(r) sin(theta) = sin(theta)^(2 eta - 1) / c is bounded on (0, pi) for eta >= 1/2;
    // the midpoint rule never evaluates the end points, where L is singular.
    QFETCH(double, eta);
    const int intervals = 4000;
    const double h = M_PI / intervals;
    at::Tensor l = at::zeros({intervals, 2, 2}, at::kDouble);
    at::Tensor jacobian = at::zeros({intervals}, at::kDouble);
    for (int n = 0; n < intervals; ++n) {
      const double theta = (n + 0.5) * h;
      l[n][0][0] = 1.0;
      l[n][1][0] = std::cos(theta);
      l[n][1][1] = std::sin(theta);
      jacobian[n] = std::sin(theta);
    }
    const at::Tensor density = at::exp(LKJCorrCholesky(2, scalar(eta)).log_prob(l)) * jacobian;
    const double integral = density.sum().item<double>() * h;
    // The rule's error is about h^2 / 12 times the integrand's scale (largest for eta 1).
    QVERIFY2(std::abs(integral - 1) < 1e-6, qPrintable(QString("integral %1").arg(integral, 0, 'g', 15)));
  }

  void densityIntegratesToOneByMonteCarlo_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::newRow("K 3, eta 1") << 3 << 1.0;
    QTest::newRow("K 3, eta 2.5") << 3 << 2.5;
    QTest::newRow("K 4, eta 1") << 4 << 1.0;
    QTest::newRow("K 4, eta 2.5") << 4 << 2.5;
  }
  void densityIntegratesToOneByMonteCarlo() {
    // Row i's free entries lie in the unit ball of R^(i-1): draw them uniformly there
    // (independently of the engine's sampler) and average density x volume.
    QFETCH(int, k);
    QFETCH(double, eta);
    const int64_t n = 400000;
    std::mt19937_64 rng(2024);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    at::Tensor l = at::zeros({n, k, k}, at::kDouble);
    auto a = l.accessor<double, 3>();
    double volume = 1;
    for (int i = 1; i < k; ++i) volume *= std::pow(M_PI, i / 2.0) / std::tgamma(i / 2.0 + 1);
    for (int64_t s = 0; s < n; ++s) {
      a[s][0][0] = 1;
      for (int i = 1; i < k; ++i) {
        double norm = 0;
        std::vector<double> direction(i);
        for (int j = 0; j < i; ++j) {
          direction[j] = normal(rng);
          norm += direction[j] * direction[j];
        }
        const double radius = std::pow(uniform(rng), 1.0 / i) / std::sqrt(norm);
        double row = 0;
        for (int j = 0; j < i; ++j) {
          a[s][i][j] = direction[j] * radius;
          row += a[s][i][j] * a[s][i][j];
        }
        a[s][i][i] = std::sqrt(1 - row);
      }
    }
    const at::Tensor values = at::exp(LKJCorrCholesky(k, scalar(eta)).log_prob(l)) * volume;
    const double integral = values.mean().item<double>();
    const double standard_error = values.std().item<double>() / std::sqrt(static_cast<double>(n));
    QVERIFY2(standard_error < 0.01, qPrintable(QString("standard error %1").arg(standard_error)));
    QVERIFY2(std::abs(integral - 1) < 5 * standard_error,
             qPrintable(QString("integral %1 +- %2").arg(integral).arg(standard_error)));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<QList<double>>("point");  // eta, then the strictly lower entries
    QTest::newRow("K 2") << 2 << QList<double>{1.7, 0.4};
    QTest::newRow("K 3, eta below 1") << 3 << QList<double>{0.6, 0.5, -0.2, 0.4};
    QTest::newRow("K 4, large eta") << 4 << QList<double>{12.0, 0.1, 0.2, -0.3, 0.25, 0.1, -0.4};
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(int, k);
    QFETCH(QList<double>, point);
    // The value moves along the free entries; diagonals complete the rows, so every
    // perturbed value is still a Cholesky factor of a correlation matrix.
    const auto log_prob = [k](const at::Tensor& p) {
      std::vector<at::Tensor> rows;
      int64_t next = 1;
      for (int64_t i = 0; i < k; ++i) {
        const at::Tensor entries = p.narrow(0, next, i);
        next += i;
        const at::Tensor diagonal = at::sqrt(1 - entries.square().sum()).unsqueeze(0);
        rows.push_back(at::cat({entries, diagonal, at::zeros({k - i - 1}, p.options())}));
      }
      return LKJCorrCholesky(k, p[0]).log_prob(at::stack(rows));
    };
    const at::Tensor x = at::tensor(std::vector<double>(point.begin(), point.end()), at::kDouble);
    const std::string error = vtest::compare_gradients(log_prob, x);
    QVERIFY2(error.empty(), error.c_str());
  }

  void outsideTheSupportIsMinusInfinity() {
    const LKJCorrCholesky lkj(3, scalar(2.0));
    const at::Tensor l = factor(3, {0.5, -0.2, 0.4});
    QVERIFY(std::isfinite(lkj.log_prob(l).item<double>()));
    const double minus_infinity = -std::numeric_limits<double>::infinity();
    at::Tensor upper = l.clone();
    upper[0][2] = 0.1;
    QCOMPARE(lkj.log_prob(upper).item<double>(), minus_infinity);
    at::Tensor long_row = l.clone();
    long_row[2][2] = long_row[2][2] + 1e-6;
    QCOMPARE(lkj.log_prob(long_row).item<double>(), minus_infinity);
    at::Tensor negative = l.clone();
    negative[1][1] = -negative[1][1];
    QCOMPARE(lkj.log_prob(negative).item<double>(), minus_infinity);
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::newRow("K 3, eta 1") << 3 << 1.0;
    QTest::newRow("K 3, eta 2.5") << 3 << 2.5;
    QTest::newRow("K 4, eta 1") << 4 << 1.0;
    QTest::newRow("K 4, eta 2.5") << 4 << 2.5;
  }
  void samplerMatchesMoments() {
    // Every off-diagonal correlation has mean 0 and variance 1 / (2 eta + K - 1).
    QFETCH(int, k);
    QFETCH(double, eta);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const LKJCorrCholesky lkj(k, scalar(eta));
    const at::Tensor l = lkj.sample({100000}, generator);
    QCOMPARE(l.sizes(), (c10::IntArrayRef{100000, k, k}));
    QVERIFY(at::isfinite(lkj.log_prob(l)).all().item<bool>());
    const std::string error = vtest::check_moments(off_diagonal_correlations(l), scalar(0.0),
                                                   scalar(1.0 / (2 * eta + k - 1)));
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerPassesKolmogorovSmirnov_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::newRow("K 2, eta 0.5") << 2 << 0.5;
    QTest::newRow("K 3, eta 1") << 3 << 1.0;
    QTest::newRow("K 4, eta 2.5") << 4 << 2.5;
  }
  void samplerPassesKolmogorovSmirnov() {
    // R_12 and R_(K-1)K are both (2 B - 1) with B ~ Beta(eta - 1 + K / 2, eta - 1 + K / 2);
    // the second comes from the onion's last row.
    QFETCH(int, k);
    QFETCH(double, eta);
    at::Generator generator = at::detail::createCPUGenerator(7);
    const at::Tensor l = LKJCorrCholesky(k, scalar(eta)).sample({20000}, generator);
    const at::Tensor r = at::matmul(l, l.transpose(-2, -1));
    const double b = eta - 1 + k / 2.0;
    const auto cdf = [b](double x) { return vtest::incomplete_beta(b, b, (x + 1) / 2); };
    const auto first = vtest::ks_test(r.select(-2, 0).select(-1, 1), cdf);
    QVERIFY2(first.p_value > 1e-3, qPrintable(QString("R_12: KS p-value %1").arg(first.p_value)));
    const auto last = vtest::ks_test(r.select(-2, k - 2).select(-1, k - 1), cdf);
    QVERIFY2(last.p_value > 1e-3, qPrintable(QString("R_(K-1)K: KS p-value %1").arg(last.p_value)));
  }

  void batchFirstShapes() {
    const at::Tensor eta = at::tensor({0.7, 1.0, 4.0}, at::kDouble);
    const LKJCorrCholesky lkj(3, eta);
    QCOMPARE(lkj.batch_shape(), (variate::Shape{3}));
    QCOMPARE(lkj.event_shape(), (variate::Shape{3, 3}));
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor l = lkj.sample({2}, generator);
    QCOMPARE(l.sizes(), (c10::IntArrayRef{2, 3, 3, 3}));
    const at::Tensor log_prob = lkj.log_prob(l);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 3}));
    for (int64_t s = 0; s < 2; ++s) {
      for (int64_t b = 0; b < 3; ++b) {
        const double expected = naive_log_density(l[s][b], eta[b].item<double>());
        QVERIFY(std::abs(log_prob[s][b].item<double>() - expected) <= 1e-10 * std::max(1.0, std::abs(expected)));
      }
    }
    // One value scored under every eta.
    QCOMPARE(lkj.log_prob(l[0][0]).sizes(), (c10::IntArrayRef{3}));
  }

  void float32StaysFloat32() {
    const LKJCorrCholesky lkj(4, at::tensor({1.5f}));
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor l = lkj.sample({1000}, generator);
    QCOMPARE(l.scalar_type(), at::kFloat);
    const at::Tensor log_prob = lkj.log_prob(l);
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(at::isfinite(log_prob).all().item<bool>());
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const LKJCorrCholesky lkj(3, scalar(2.0));
    QVERIFY(at::equal(lkj.sample({10}, a), lkj.sample({10}, b)));
  }

  void factoryMakesRandomVariable() {
    const auto l = variate::LKJCorrCholesky("L_Omega", 4, 2.0);
    QCOMPARE(l.distribution().name(), std::string("LKJCorrCholesky"));
    QCOMPARE(l.shape(), (variate::Shape{4, 4}));
    QVERIFY(std::isfinite(l.log_prob().item<double>()));
  }

  void invalidArgumentsThrow_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::addColumn<QString>("message");
    QTest::newRow("K 1") << 1 << 1.0 << QString("LKJCorrCholesky: argument 'K' must be at least 2, got 1");
    QTest::newRow("K 0") << 0 << 1.0 << QString("LKJCorrCholesky: argument 'K' must be at least 2, got 0");
    QTest::newRow("zero eta") << 3 << 0.0 << QString("LKJCorrCholesky: argument 'eta' must be positive, got 0");
    QTest::newRow("negative eta") << 3 << -1.5 << QString("LKJCorrCholesky: argument 'eta' must be positive, got -1.5");
    QTest::newRow("nan eta") << 3 << std::nan("") << QString("LKJCorrCholesky: argument 'eta' must be positive, got nan");
    QTest::newRow("infinite eta") << 3 << std::numeric_limits<double>::infinity()
        << QString("LKJCorrCholesky: argument 'eta' must be finite, got inf");
  }
  void invalidArgumentsThrow() {
    QFETCH(int, k);
    QFETCH(double, eta);
    QFETCH(QString, message);
    expect_error([&] { LKJCorrCholesky(k, scalar(eta)); }, message);
  }

  void invalidShapesThrow() {
    expect_error([] { LKJCorrCholesky(3, scalar(1.0)).log_prob(at::eye(2, at::kDouble)); },
                 "LKJCorrCholesky: value must end in shape [3, 3], got shape [2, 2]");
    expect_error([] { LKJCorrCholesky(3, at::tensor({1.0, -1.0}, at::kDouble)); },
                 "LKJCorrCholesky: argument 'eta' must be positive, got -1 (at index [1])");
  }
};

QTEST_APPLESS_MAIN(TestLKJCorrCholesky)
#include "tst_lkj_corr_cholesky.moc"
