// Mixture(weights, component): density against an explicit weighted sum of component
// densities, gradients, sampling, batches, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/dirichlet.h"
#include "variate/distributions/mixture.h"
#include "variate/distributions/multi_normal.h"
#include "variate/distributions/normal.h"

using variate::distributions::Dirichlet;
using variate::distributions::Mixture;
using variate::distributions::MultiNormal;
using variate::distributions::Normal;
namespace vtest = variate::testing;

namespace {

at::Tensor vector(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}

std::shared_ptr<const Normal> normals(const QList<double>& mu, const QList<double>& sigma) {
  return std::make_shared<const Normal>(vector(mu), vector(sigma));
}

// log sum_c w_c N(x; mu_c, sigma_c), each density written out; the largest term is
// factored out so that far points, whose densities underflow, still have a finite log.
double naive_mixture_log_density(double x, const QList<double>& w, const QList<double>& mu,
                                 const QList<double>& sigma) {
  std::vector<double> terms;
  double largest = -std::numeric_limits<double>::infinity();
  for (int c = 0; c < w.size(); ++c) {
    const double z = (x - mu[c]) / sigma[c];
    terms.push_back(std::log(w[c]) - 0.5 * z * z - std::log(sigma[c] * std::sqrt(2 * M_PI)));
    largest = std::max(largest, terms.back());
  }
  double sum = 0;
  for (double t : terms) sum += std::exp(t - largest);
  return largest + std::log(sum);
}

// A 2-D normal density by the explicit 2 x 2 inverse and determinant.
double naive_normal_2d_density(double x0, double x1, double m0, double m1, double s00,
                               double s01, double s11) {
  const double det = s00 * s11 - s01 * s01;
  const double d0 = x0 - m0, d1 = x1 - m1;
  const double quadratic = (s11 * d0 * d0 - 2 * s01 * d0 * d1 + s00 * d1 * d1) / det;
  return std::exp(-0.5 * quadratic) / (2 * M_PI * std::sqrt(det));
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

class TestMixture : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<QList<double>>("w");
    QTest::addColumn<QList<double>>("mu");
    QTest::addColumn<QList<double>>("sigma");
    QTest::newRow("two components") << 0.3 << QList<double>{0.4, 0.6} << QList<double>{-1, 2}
                                    << QList<double>{1, 0.5};
    QTest::newRow("three components") << 1.7 << QList<double>{0.2, 0.5, 0.3}
                                      << QList<double>{0, 1, 3} << QList<double>{0.3, 2, 1};
    QTest::newRow("far away") << 1e3 << QList<double>{0.5, 0.5} << QList<double>{0, 1}
                              << QList<double>{1, 2};
    QTest::newRow("weight near 0") << -1.0 << QList<double>{1e-12, 1 - 1e-12}
                                   << QList<double>{-1, 5} << QList<double>{0.1, 1};
    QTest::newRow("one component") << 0.7 << QList<double>{1} << QList<double>{0.2}
                                   << QList<double>{1.5};
    QTest::newRow("tiny and huge sigma") << 1e-9 << QList<double>{0.3, 0.7}
                                         << QList<double>{0, 0} << QList<double>{1e-8, 1e8};
  }
  void logProbMatchesFormula() {
    QFETCH(double, x);
    QFETCH(QList<double>, w);
    QFETCH(QList<double>, mu);
    QFETCH(QList<double>, sigma);
    const Mixture mixture(vector(w), normals(mu, sigma));
    const double got = mixture.log_prob(at::scalar_tensor(x, at::kDouble)).item<double>();
    const double expected = naive_mixture_log_density(x, w, mu, sigma);
    QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<QList<double>>("point");  // x, w_1 (w_2 = 1 - w_1), mu_1, mu_2, sigma_1, sigma_2
    QTest::newRow("between modes") << QList<double>{0.5, 0.3, -1.0, 2.0, 1.0, 0.8};
    QTest::newRow("one dominant") << QList<double>{-3.0, 0.9, -2.5, 4.0, 0.5, 2.0};
    QTest::newRow("small weight") << QList<double>{3.0, 1e-3, 0.0, 3.0, 1.0, 1.0};
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QList<double>, point);
    // The weights move along the simplex: the second closes the sum.
    const auto log_prob = [](const at::Tensor& p) {
      const at::Tensor w = at::stack({p[1], 1 - p[1]});
      const auto component = std::make_shared<const Normal>(p.narrow(0, 2, 2), p.narrow(0, 4, 2));
      return Mixture(w, component).log_prob(p[0]);
    };
    const std::string error = vtest::compare_gradients(log_prob, vector(point));
    QVERIFY2(error.empty(), error.c_str());
  }

  void multivariateComponents() {
    // Two 2-D normals: event_shape [2]; the value gains a component axis before it.
    const at::Tensor mu = vector({0, 0, 2, -1}).reshape({2, 2});
    const at::Tensor sigma = vector({1, 0.5, 0.5, 2, 0.3, -0.1, -0.1, 0.4}).reshape({2, 2, 2});
    const Mixture mixture(vector({0.25, 0.75}), std::make_shared<const MultiNormal>(mu, sigma));
    QVERIFY(mixture.batch_shape().empty());
    QCOMPARE(mixture.event_shape(), (variate::Shape{2}));
    const at::Tensor points = vector({0, 0, 1.5, -0.5, -2, 3, 10, 10}).reshape({4, 2});
    const at::Tensor log_prob = mixture.log_prob(points);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{4}));
    for (int64_t n = 0; n < 4; ++n) {
      const double x0 = points[n][0].item<double>(), x1 = points[n][1].item<double>();
      const double expected = std::log(0.25 * naive_normal_2d_density(x0, x1, 0, 0, 1, 0.5, 2) +
                                       0.75 * naive_normal_2d_density(x0, x1, 2, -1, 0.3, -0.1, 0.4));
      QVERIFY2(std::abs(log_prob[n].item<double>() - expected) <= 1e-12 * std::max(1.0, std::abs(expected)),
               qPrintable(QString("point %1: got %2, expected %3").arg(n).arg(log_prob[n].item<double>()).arg(expected)));
    }
    at::Generator generator = at::detail::createCPUGenerator(6);
    const at::Tensor draws = mixture.sample({100000}, generator);
    QCOMPARE(draws.sizes(), (c10::IntArrayRef{100000, 2}));
    // Mean 0.25 mu_1 + 0.75 mu_2; variance of coordinate i: sum w (S_ii + mu_i^2) - mean_i^2.
    const at::Tensor mean = vector({1.5, -0.75});
    const at::Tensor variance = vector({0.25 * 1 + 0.75 * (0.3 + 4) - 2.25,
                                        0.25 * 2 + 0.75 * (0.4 + 1) - 0.5625});
    const std::string error = vtest::check_moments(draws, mean, variance);
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchFirstShapes() {
    // Weights [3, 2] (one row per batch element) over components of batch [2].
    const at::Tensor w = vector({0.1, 0.9, 0.5, 0.5, 0.8, 0.2}).reshape({3, 2});
    const Mixture mixture(w, normals({-1, 2}, {1, 0.5}));
    QCOMPARE(mixture.batch_shape(), (variate::Shape{3}));
    QVERIFY(mixture.event_shape().empty());
    const at::Tensor x =
        vector({0.1, -0.7, 1.9, 3.0, -2.0, 0.0, 0.4, 0.5, 12.0, -1.0, 2.2, 1.1}).reshape({4, 3});
    const at::Tensor log_prob = mixture.log_prob(x);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{4, 3}));
    for (int64_t n = 0; n < 4; ++n) {
      for (int64_t b = 0; b < 3; ++b) {
        const double expected = naive_mixture_log_density(
            x[n][b].item<double>(), {w[b][0].item<double>(), w[b][1].item<double>()}, {-1, 2}, {1, 0.5});
        QVERIFY(std::abs(log_prob[n][b].item<double>() - expected) <= 1e-12 * std::max(1.0, std::abs(expected)));
      }
    }
    // Components with their own batch [4, 2] and shared weights [2].
    const at::Tensor mu = at::arange(8, at::kDouble).reshape({4, 2});
    const Mixture per_row(vector({0.3, 0.7}), std::make_shared<const Normal>(mu, at::ones({4, 2}, at::kDouble)));
    QCOMPARE(per_row.batch_shape(), (variate::Shape{4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(per_row.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 4}));
    QCOMPARE(per_row.log_prob(at::zeros({5, 4}, at::kDouble)).sizes(), (c10::IntArrayRef{5, 4}));
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<QList<double>>("w");
    QTest::addColumn<QList<double>>("mu");
    QTest::addColumn<QList<double>>("sigma");
    QTest::newRow("two components") << QList<double>{0.3, 0.7} << QList<double>{-2, 1}
                                    << QList<double>{0.5, 1.5};
    QTest::newRow("three components") << QList<double>{0.2, 0.5, 0.3} << QList<double>{0, 4, -3}
                                      << QList<double>{1, 0.2, 2};
    QTest::newRow("weight near 0") << QList<double>{1e-3, 1 - 1e-3} << QList<double>{10, 0}
                                   << QList<double>{1, 1};
  }
  void samplerMatchesMoments() {
    QFETCH(QList<double>, w);
    QFETCH(QList<double>, mu);
    QFETCH(QList<double>, sigma);
    double mean = 0;
    double second = 0;
    for (int c = 0; c < w.size(); ++c) {
      mean += w[c] * mu[c];
      second += w[c] * (sigma[c] * sigma[c] + mu[c] * mu[c]);
    }
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor draws = Mixture(vector(w), normals(mu, sigma)).sample({100000}, generator);
    QCOMPARE(draws.sizes(), (c10::IntArrayRef{100000}));
    const std::string error = vtest::check_moments(
        draws, at::scalar_tensor(mean, at::kDouble), at::scalar_tensor(second - mean * mean, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void broadcastComponentsDrawIndependently() {
    // Components of batch [1, 2] serve a mixture of batch [3] (weights [3, 2]): each
    // mixture element needs its own component draws, so the three columns must have the
    // right moments and be uncorrelated.
    const at::Tensor w = vector({0.5, 0.5, 0.9, 0.1, 0.2, 0.8}).reshape({3, 2});
    const auto component = std::make_shared<const Normal>(vector({-1, 1}).reshape({1, 2}),
                                                          vector({0.5, 0.5}).reshape({1, 2}));
    const Mixture mixture(w, component);
    QCOMPARE(mixture.batch_shape(), (variate::Shape{3}));
    at::Generator generator = at::detail::createCPUGenerator(12);
    const at::Tensor draws = mixture.sample({100000}, generator);
    QCOMPARE(draws.sizes(), (c10::IntArrayRef{100000, 3}));
    const at::Tensor mean = w.select(1, 1) - w.select(1, 0);
    const at::Tensor variance = 0.25 + 1 - mean.square();
    const std::string error = vtest::check_moments(draws, mean, variance);
    QVERIFY2(error.empty(), error.c_str());
    const at::Tensor z = (draws - draws.mean(0)) / draws.std(0);
    for (int64_t a = 0; a < 3; ++a) {
      for (int64_t b = a + 1; b < 3; ++b) {
        const double correlation = (z.select(1, a) * z.select(1, b)).mean().item<double>();
        QVERIFY2(std::abs(correlation) < 5 / std::sqrt(100000.0),
                 qPrintable(QString("columns %1 and %2 correlate: %3").arg(a).arg(b).arg(correlation)));
      }
    }
  }

  void supportIsTheComponents() {
    // A mixture of two Dirichlets lives on the simplex.
    const at::Tensor alpha = vector({1, 2, 3, 5, 1, 1}).reshape({2, 3});
    const Mixture mixture(vector({0.4, 0.6}), std::make_shared<const Dirichlet>(alpha));
    QCOMPARE(mixture.support().kind(), variate::Support::Kind::Simplex);
    QCOMPARE(mixture.event_shape(), (variate::Shape{3}));
    QCOMPARE(mixture.log_prob(vector({0.5, 0.6, 0.1})).item<double>(),
             -std::numeric_limits<double>::infinity());
    const double x[3] = {0.2, 0.3, 0.5};
    const auto dirichlet = [&](const double* a) {
      double log_density = std::lgamma(a[0] + a[1] + a[2]);
      for (int i = 0; i < 3; ++i) log_density += (a[i] - 1) * std::log(x[i]) - std::lgamma(a[i]);
      return std::exp(log_density);
    };
    const double first[3] = {1, 2, 3}, second[3] = {5, 1, 1};
    const double expected = std::log(0.4 * dirichlet(first) + 0.6 * dirichlet(second));
    QVERIFY(std::abs(mixture.log_prob(vector({0.2, 0.3, 0.5})).item<double>() - expected) < 1e-12);
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Mixture mixture(vector({0.5, 0.5}), normals({0, 1}, {1, 1}));
    QVERIFY(at::equal(mixture.sample({10}, a), mixture.sample({10}, b)));
  }

  void factoryMakesRandomVariable() {
    const auto y = variate::Mixture("y", vector({0.5, 0.5}), normals({0, 1}, {1, 1}), {6});
    QCOMPARE(y.distribution().name(), std::string("Mixture"));
    QCOMPARE(y.shape(), (variate::Shape{6}));
    QCOMPARE(y.log_prob().sizes(), (c10::IntArrayRef{6}));
  }

  void invalidArgumentsThrow_data() {
    QTest::addColumn<QList<double>>("w");
    QTest::addColumn<QList<double>>("mu");  // one Normal(mu, 1) component per entry
    QTest::addColumn<QString>("message");
    QTest::newRow("weights not summing to 1") << QList<double>{0.25, 0.5} << QList<double>{0, 1}
        << QString("Mixture: argument 'weights' must be a simplex (entries summing to 1); its sum is, got 0.75");
    QTest::newRow("negative weight") << QList<double>{-0.5, 1.5} << QList<double>{0, 1}
        << QString("Mixture: argument 'weights' must be a simplex (non-negative entries), got -0.5 (at index [0])");
    QTest::newRow("fewer components than weights") << QList<double>{0.25, 0.25, 0.5} << QList<double>{0, 1}
        << QString("Mixture: argument 'component' must have a batch shape ending in 3 (the number of weights), got batch shape [2]");
    QTest::newRow("more components than weights") << QList<double>{0.5, 0.5} << QList<double>{0, 1, 2}
        << QString("Mixture: argument 'component' must have a batch shape ending in 2 (the number of weights), got batch shape [3]");
  }
  void invalidArgumentsThrow() {
    QFETCH(QList<double>, w);
    QFETCH(QList<double>, mu);
    QFETCH(QString, message);
    const auto component = std::make_shared<const Normal>(vector(mu), at::ones({mu.size()}, at::kDouble));
    expect_error([&] { Mixture(vector(w), component); }, message);
  }

  void invalidComponentsThrow() {
    expect_error([] { Mixture(vector({1}), std::make_shared<const Normal>(at::scalar_tensor(0.0), at::scalar_tensor(1.0))); },
                 "Mixture: argument 'component' must have a batch shape ending in 1 (the number of weights), got batch shape []");
    expect_error([] { Mixture(vector({1}), nullptr); }, "Mixture: argument 'component' is null");
    const auto rows = std::make_shared<const Normal>(at::zeros({4, 3}, at::kDouble), at::ones({4, 3}, at::kDouble));
    expect_error([&] { Mixture(at::full({2, 3}, 1.0 / 3, at::kDouble), rows); },
                 "Mixture: the batch shapes of 'weights' [2, 3] and 'component' [4, 3] do not broadcast");
    expect_error([] { Mixture(at::scalar_tensor(1.0, at::kDouble), nullptr); },
                 "Mixture: argument 'component' is null");
  }

  // The CDF of a Normal mixture is the weighted sum of the components' CDFs.
  void samplerPassesKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(31);
    const std::vector<double> w = {0.2, 0.5, 0.3}, mu = {-3.0, 0.0, 4.0}, sd = {0.5, 1.0, 2.0};
    const auto component = std::make_shared<Normal>(at::tensor(mu, at::kDouble), at::tensor(sd, at::kDouble));
    const at::Tensor draws = Mixture(at::tensor(w, at::kDouble), component).sample({20000}, generator);
    const auto ks = vtest::ks_test(draws, [&](double x) {
      double cdf = 0;
      for (size_t c = 0; c < w.size(); ++c) cdf += w[c] * vtest::normal_cdf((x - mu[c]) / sd[c]);
      return cdf;
    });
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS p-value %1").arg(ks.p_value)));
  }
};

QTEST_APPLESS_MAIN(TestMixture)
#include "tst_mixture.moc"
