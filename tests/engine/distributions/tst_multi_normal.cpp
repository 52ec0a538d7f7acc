// MultiNormal(mu, Sigma) and MultiNormal(mu, scale_tril(L)): density against an explicit
// inverse and determinant, gradients, sampling, batches, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/multi_normal.h"

using variate::distributions::MultiNormal;
namespace vtest = variate::testing;

namespace {

at::Tensor vector(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}

at::Tensor matrix(const QList<double>& row_major) {
  const auto k = static_cast<int64_t>(std::lround(std::sqrt(row_major.size())));
  return vector(row_major).reshape({k, k});
}

// The textbook density with the inverse and determinant written out by cofactors
// (2 x 2 or 3 x 3, row-major Sigma).
double naive_multi_normal_log_density(const QList<double>& x, const QList<double>& mu,
                                      const QList<double>& s) {
  const int k = static_cast<int>(x.size());
  double inverse[9];
  double determinant = 0;
  if (k == 2) {
    determinant = s[0] * s[3] - s[1] * s[2];
    const double entries[4] = {s[3], -s[1], -s[2], s[0]};
    for (int i = 0; i < 4; ++i) inverse[i] = entries[i] / determinant;
  } else {
    const auto at = [&](int i, int j) { return s[3 * i + j]; };
    double cofactor[9];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        cofactor[3 * i + j] = at(i1, j1) * at(i2, j2) - at(i1, j2) * at(i2, j1);
      }
    }
    determinant = at(0, 0) * cofactor[0] + at(0, 1) * cofactor[1] + at(0, 2) * cofactor[2];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) inverse[3 * i + j] = cofactor[3 * j + i] / determinant;
    }
  }
  double quadratic = 0;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) quadratic += (x[i] - mu[i]) * inverse[k * i + j] * (x[j] - mu[j]);
  }
  return -0.5 * k * std::log(2 * M_PI) - 0.5 * std::log(determinant) - 0.5 * quadratic;
}

void expect_error(const std::function<void()>& make, const QString& message) {
  try {
    make();
    QFAIL("no exception");
  } catch (const variate::ArgumentError& e) {
    QCOMPARE(QString(e.what()), message);
  }
}

}  // namespace

class TestMultiNormal : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::addColumn<QList<double>>("mu");
    QTest::addColumn<QList<double>>("sigma");  // row-major covariance
    QTest::addColumn<double>("tolerance");     // relative; wider where Sigma is ill-conditioned
    QTest::newRow("standard at 0") << QList<double>{0, 0} << QList<double>{0, 0}
                                   << QList<double>{1, 0, 0, 1} << 1e-13;
    QTest::newRow("correlated") << QList<double>{1, -0.5} << QList<double>{0.3, 0.2}
                                << QList<double>{2, 0.6, 0.6, 1} << 1e-13;
    QTest::newRow("near-singular") << QList<double>{0.5, 0.5000001} << QList<double>{0, 0}
                                   << QList<double>{1, 0.999999, 0.999999, 1} << 1e-8;
    QTest::newRow("far away") << QList<double>{1e3, -1e3} << QList<double>{0, 1}
                              << QList<double>{1.5, -0.4, -0.4, 0.8} << 1e-12;
    QTest::newRow("3-D general") << QList<double>{30, -40, 25} << QList<double>{1, 2, 3}
                                 << QList<double>{4, 1, 0.5, 1, 3, -0.7, 0.5, -0.7, 2} << 1e-12;
    QTest::newRow("3-D tiny and huge scales")
        << QList<double>{1e-3, 0.5, -2e3} << QList<double>{0, 0, 0}
        << QList<double>{1e-6, 0, 0, 0, 1, 0, 0, 0, 1e6} << 1e-12;
  }
  void logProbMatchesFormula() {
    QFETCH(QList<double>, x);
    QFETCH(QList<double>, mu);
    QFETCH(QList<double>, sigma);
    QFETCH(double, tolerance);
    const double expected = naive_multi_normal_log_density(x, mu, sigma);
    const double got = MultiNormal(vector(mu), matrix(sigma)).log_prob(vector(x)).item<double>();
    QVERIFY2(std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    // The Cholesky parameterization is the same density.
    const at::Tensor l = at::linalg_cholesky(matrix(sigma));
    const double from_factor =
        MultiNormal(vector(mu), variate::ScaleTril{l}).log_prob(vector(x)).item<double>();
    QVERIFY2(std::abs(from_factor - expected) <= tolerance * std::max(1.0, std::abs(expected)),
             qPrintable(QString("scale_tril: got %1, expected %2").arg(from_factor, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void gradientMatchesFiniteDifferences_data() {
    // x (2), mu (2), then the free entries of the matrix: Sigma's (s00, s01, s11) or L's
    // (l00, l10, l11).
    QTest::addColumn<QList<double>>("point");
    QTest::addColumn<bool>("cholesky");
    QTest::newRow("covariance, near mode") << QList<double>{0.1, 0.2, 0, 0, 1, 0.3, 2} << false;
    QTest::newRow("covariance, tail") << QList<double>{4, -3, 0.5, 1, 2, -0.9, 1.5} << false;
    QTest::newRow("factor, near mode") << QList<double>{0.1, 0.2, 0, 0, 1, 0.3, 2} << true;
    QTest::newRow("factor, tail") << QList<double>{4, -3, 0.5, 1, 0.7, -0.9, 0.4} << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QList<double>, point);
    QFETCH(bool, cholesky);
    const auto log_prob = [cholesky](const at::Tensor& p) {
      const at::Tensor zero = at::zeros({}, p.options());
      if (cholesky) {
        const at::Tensor l = at::stack({at::stack({p[4], zero}), at::stack({p[5], p[6]})});
        return MultiNormal(p.narrow(0, 2, 2), variate::ScaleTril{l}).log_prob(p.narrow(0, 0, 2));
      }
      // Symmetric perturbations keep Sigma a covariance.
      const at::Tensor s = at::stack({at::stack({p[4], p[5]}), at::stack({p[5], p[6]})});
      return MultiNormal(p.narrow(0, 2, 2), s).log_prob(p.narrow(0, 0, 2));
    };
    const std::string error = vtest::compare_gradients(log_prob, vector(point));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchFirstShapes() {
    // Three (mu, Sigma) pairs; points [5, 3, 2] broadcast over them.
    const at::Tensor mu = vector({0, 0, 1, -1, 2, 0.5}).reshape({3, 2});
    const at::Tensor sigma =
        vector({1, 0, 0, 1, 2, 0.5, 0.5, 1, 0.3, -0.1, -0.1, 0.2}).reshape({3, 2, 2});
    const MultiNormal normal(mu, sigma);
    QCOMPARE(normal.batch_shape(), (variate::Shape{3}));
    QCOMPARE(normal.event_shape(), (variate::Shape{2}));
    at::Generator generator = at::detail::createCPUGenerator(4);
    const at::Tensor x = normal.sample({5}, generator);
    QCOMPARE(x.sizes(), (c10::IntArrayRef{5, 3, 2}));
    const at::Tensor log_prob = normal.log_prob(x);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{5, 3}));
    for (int64_t s = 0; s < 5; ++s) {
      for (int64_t b = 0; b < 3; ++b) {
        const QList<double> point{x[s][b][0].item<double>(), x[s][b][1].item<double>()};
        const QList<double> m{mu[b][0].item<double>(), mu[b][1].item<double>()};
        QList<double> cov;
        for (int64_t i = 0; i < 4; ++i) cov << sigma[b].reshape(-1)[i].item<double>();
        const double expected = naive_multi_normal_log_density(point, m, cov);
        QVERIFY(std::abs(log_prob[s][b].item<double>() - expected) <= 1e-12 * std::max(1.0, std::abs(expected)));
      }
    }
  }

  void sharedFactorMatchesBatchedFactor() {
    // One L for a batch of points takes a single-solve path; an L copied per point must
    // give the same densities.
    const at::Tensor l = vector({1.5, 0, 0, 0.4, 0.8, 0, -0.3, 0.2, 0.6}).reshape({3, 3});
    const at::Tensor mu = vector({1, 2, 3});
    at::Generator generator = at::detail::createCPUGenerator(8);
    const at::Tensor points = at::normal(0.0, 2.0, {4, 7, 3}, generator, at::kDouble);
    const at::Tensor shared = MultiNormal(mu, variate::ScaleTril{l}).log_prob(points);
    const at::Tensor copied =
        MultiNormal(mu, variate::ScaleTril{l.expand({4, 7, 3, 3})}).log_prob(points);
    QCOMPARE(shared.sizes(), (c10::IntArrayRef{4, 7}));
    QVERIFY(at::allclose(shared, copied, 1e-13, 1e-13));
  }

  void batchOfMeansSharesOneFactor() {
    // Many chains' means against one covariance: one factor, densities as if row by row.
    const at::Tensor sigma = matrix({4, 1, 0.5, 1, 3, -0.7, 0.5, -0.7, 2});
    at::Generator generator = at::detail::createCPUGenerator(10);
    const at::Tensor mu = at::normal(0.0, 1.0, {5, 3}, generator, at::kDouble);
    const at::Tensor x = at::normal(0.0, 3.0, {5, 3}, generator, at::kDouble);
    const MultiNormal normal(mu, sigma);
    QCOMPARE(normal.batch_shape(), (variate::Shape{5}));
    QCOMPARE(normal.scale_tril().dim(), 2);
    const at::Tensor log_prob = normal.log_prob(x);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{5}));
    for (int64_t b = 0; b < 5; ++b) {
      QList<double> point, mean, cov;
      for (int64_t i = 0; i < 3; ++i) {
        point << x[b][i].item<double>();
        mean << mu[b][i].item<double>();
      }
      for (int64_t i = 0; i < 9; ++i) cov << sigma.reshape(-1)[i].item<double>();
      const double expected = naive_multi_normal_log_density(point, mean, cov);
      QVERIFY(std::abs(log_prob[b].item<double>() - expected) <= 1e-12 * std::max(1.0, std::abs(expected)));
    }
  }

  void muBroadcastsAgainstBatchedSigma() {
    const at::Tensor sigma = at::eye(2, at::kDouble).expand({4, 2, 2}) * vector({1, 2, 3, 4}).view({4, 1, 1});
    const MultiNormal normal(vector({1, -1}), sigma);
    QCOMPARE(normal.batch_shape(), (variate::Shape{4}));
    QCOMPARE(normal.mu().sizes(), (c10::IntArrayRef{4, 2}));
    const MultiNormal number_mean(at::scalar_tensor(0.5, at::kDouble), sigma);
    QCOMPARE(number_mean.mu().sizes(), (c10::IntArrayRef{4, 2}));
    QCOMPARE(number_mean.mu()[3][1].item<double>(), 0.5);
  }

  void samplerMatchesMoments() {
    // Means and variances of the coordinates and of two sums, which pin the covariances.
    const at::Tensor mu = vector({1, -2, 0.5});
    const at::Tensor sigma = vector({4, 1, 0.5, 1, 3, -0.7, 0.5, -0.7, 2}).reshape({3, 3});
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor x = MultiNormal(mu, sigma).sample({100000}, generator);
    const at::Tensor projections = at::stack(
        {x.select(-1, 0), x.select(-1, 1), x.select(-1, 2),
         x.select(-1, 0) + x.select(-1, 1), x.select(-1, 1) - x.select(-1, 2)}, -1);
    const at::Tensor mean = vector({1, -2, 0.5, -1, -2.5});
    const at::Tensor variance = vector({4, 3, 2, 4 + 3 + 2 * 1, 3 + 2 + 2 * 0.7});
    const std::string error = vtest::check_moments(projections, mean, variance);
    QVERIFY2(error.empty(), error.c_str());
  }

  void samplerIsReparameterized() {
    // x = mu + L z: d sum(x) / d mu = number of draws per coordinate.
    const at::Tensor mu = vector({0.5, -0.5}).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(2);
    MultiNormal(mu, variate::ScaleTril{at::eye(2, at::kDouble)}).sample({10}, generator).sum().backward();
    QVERIFY(at::equal(mu.grad(), vector({10, 10})));
  }

  void float32StaysFloat32() {
    const at::Tensor sigma = at::tensor({2.0f, 0.3f, 0.3f, 1.0f}).reshape({2, 2});
    const MultiNormal normal(at::scalar_tensor(0.0, at::kDouble), sigma);
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor x = normal.sample({100}, generator);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(normal.log_prob(x).scalar_type(), at::kFloat);
  }

  void notPositiveDefiniteWithoutValidationIsNan() {
    // A sampler's hot path: numerical trouble is data, not an exception.
    variate::ValidationGuard off(false);
    const MultiNormal normal(vector({0, 0}), matrix({1, 2, 2, 1}));
    QVERIFY(std::isnan(normal.log_prob(vector({0, 0})).item<double>()));
  }

  void factoriesMakeRandomVariables() {
    const auto x = variate::MultiNormal("x", vector({0, 0}), matrix({1, 0, 0, 1}), {3});
    QCOMPARE(x.distribution().name(), std::string("MultiNormal"));
    QCOMPARE(x.shape(), (variate::Shape{3, 2}));
    const auto y = variate::MultiNormal("y", vector({0, 0, 0}), variate::scale_tril(at::eye(3, at::kDouble)));
    QCOMPARE(y.shape(), (variate::Shape{3}));
    QCOMPARE(y.log_prob().dim(), 0);
  }

  void invalidArgumentsThrow_data() {
    QTest::addColumn<QList<double>>("mu");
    QTest::addColumn<QList<double>>("matrix");  // row-major
    QTest::addColumn<bool>("cholesky");
    QTest::addColumn<QString>("message");
    QTest::newRow("not positive definite") << QList<double>{0, 0} << QList<double>{1, 2, 2, 1} << false
        << QString("MultiNormal: argument 'Sigma' must be positive definite");
    QTest::newRow("singular") << QList<double>{0, 0} << QList<double>{1, 1, 1, 1} << false
        << QString("MultiNormal: argument 'Sigma' must be positive definite");
    QTest::newRow("asymmetric") << QList<double>{0, 0} << QList<double>{1, 0.5, 0.25, 1} << false
        << QString("MultiNormal: argument 'Sigma' must be symmetric; an asymmetry is, got 0.25 (at index [0, 1])");
    QTest::newRow("nan Sigma") << QList<double>{0, 0} << QList<double>{1, 0, 0, std::nan("")} << false
        << QString("MultiNormal: argument 'Sigma' must be finite, got nan (at index [1, 1])");
    QTest::newRow("infinite mu") << QList<double>{std::numeric_limits<double>::infinity(), 0}
        << QList<double>{1, 0, 0, 1} << false
        << QString("MultiNormal: argument 'mu' must be finite, got inf (at index [0])");
    QTest::newRow("mu of the wrong size") << QList<double>{0, 0, 0} << QList<double>{1, 0, 0, 1} << false
        << QString("MultiNormal: argument 'mu' must end in 2 entries to match 'Sigma', got shape [3]");
    QTest::newRow("factor not lower triangular") << QList<double>{0, 0} << QList<double>{1, 0.5, 0, 1} << true
        << QString("MultiNormal: argument 'scale_tril' must be lower triangular; an entry above the diagonal is, got 0.5 (at index [0, 1])");
    QTest::newRow("factor with zero diagonal") << QList<double>{0, 0} << QList<double>{1, 0, 0.3, 0} << true
        << QString("MultiNormal: argument 'scale_tril' must be a Cholesky factor with a positive diagonal; a diagonal entry is, got 0 (at index [1])");
    QTest::newRow("factor with negative diagonal") << QList<double>{0, 0} << QList<double>{-1, 0, 0.3, 1} << true
        << QString("MultiNormal: argument 'scale_tril' must be a Cholesky factor with a positive diagonal; a diagonal entry is, got -1 (at index [0])");
  }
  void invalidArgumentsThrow() {
    QFETCH(QList<double>, mu);
    QFETCH(QList<double>, matrix);
    QFETCH(bool, cholesky);
    QFETCH(QString, message);
    const at::Tensor m = ::matrix(matrix);
    if (cholesky) {
      expect_error([&] { MultiNormal(vector(mu), variate::ScaleTril{m}); }, message);
    } else {
      expect_error([&] { MultiNormal(vector(mu), m); }, message);
    }
  }

  void invalidShapesThrow() {
    expect_error([] { MultiNormal(vector({0, 0}), vector({1, 1})); },
                 "MultiNormal: argument 'Sigma' must have at least 2 dimension(s), got shape [2]");
    expect_error([] { MultiNormal(vector({0, 0}), at::ones({2, 3}, at::kDouble)); },
                 "MultiNormal: argument 'Sigma' must be square, got shape [2, 3]");
    expect_error([] { MultiNormal(vector({0, 0}), matrix({1, 0, 0, 1})).log_prob(vector({1, 2, 3})); },
                 "MultiNormal: value must end in 2 entries, got shape [3]");
  }

  // A projection w'x of a MultiNormal(mu, Sigma) draw is Normal(w'mu, sqrt(w' Sigma w)).
  void samplerProjectionsPassKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(23);
    const at::Tensor mu = at::tensor({1.0, -2.0, 0.5}, at::kDouble);
    const at::Tensor sigma = at::tensor({4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.0}, at::kDouble).reshape({3, 3});
    const at::Tensor draws = MultiNormal(mu, sigma).sample({20000}, generator);
    for (const auto& direction : {std::vector<double>{1, 0, 0}, std::vector<double>{0.3, -1, 2}}) {
      const at::Tensor w = at::tensor(direction, at::kDouble);
      const double mean = at::dot(w, mu).item<double>();
      const double sd = std::sqrt(at::dot(w, at::mv(sigma, w)).item<double>());
      const auto ks = vtest::ks_test(at::mv(draws, w), [&](double x) {
        return vtest::normal_cdf((x - mean) / sd);
      });
      QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
    }
  }
};

QTEST_APPLESS_MAIN(TestMultiNormal)
#include "tst_multi_normal.moc"
