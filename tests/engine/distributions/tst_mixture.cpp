// Mixture(weights, component) of Normal components: the family's table for the
// conformance fixture (the density against an explicit weighted sum of component
// densities), and what is specific to it: multivariate and simplex components, component
// batches broadcast against the weights, and invalid components.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/core/checks.h"
#include "engine/distributions/dirichlet.h"
#include "engine/distributions/mixture.h"
#include "engine/distributions/multi_normal.h"
#include "engine/distributions/normal.h"

using namespace variate::testing;
using variate::distributions::Dirichlet;
using variate::distributions::Mixture;
using variate::distributions::MultiNormal;
using variate::distributions::Normal;

namespace {

using List = std::vector<double>;

std::shared_ptr<const Normal> normals(const List& mu, const List& sigma) {
  return std::make_shared<const Normal>(vector(mu), vector(sigma));
}

// log sum_c w_c N(x; mu_c, sigma_c), each density written out; the largest term is
// factored out so that far points, whose densities underflow, still have a finite log.
double naive_mixture_log_density(double x, const List& w, const List& mu,
                                 const List& sigma) {
  std::vector<double> terms;
  double largest = -std::numeric_limits<double>::infinity();
  for (size_t c = 0; c < w.size(); ++c) {
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

DensityCase density(const char* name, double x, const List& w, const List& mu, const List& sigma) {
  return {name, {vector(w), vector(mu), vector(sigma)}, scalar(x),
          naive_mixture_log_density(x, w, mu, sigma)};
}

MomentCase moments(const char* name, const List& w, const List& mu, const List& sigma) {
  double mean = 0, second = 0;
  for (size_t c = 0; c < w.size(); ++c) {
    mean += w[c] * mu[c];
    second += w[c] * (sigma[c] * sigma[c] + mu[c] * mu[c]);
  }
  return {name, {vector(w), vector(mu), vector(sigma)}, scalar(mean), scalar(second - mean * mean)};
}

Family mixture() {
  Family f;
  f.name = "Mixture";
  f.parameters = {{"weights", 1}, {"mu", 1, Parameter::Role::Real, "Normal"},
                  {"sigma", 1, Parameter::Role::Real, "Normal"}};
  f.make = [](const Parameters& p) {
    return std::make_shared<Mixture>(p[0], std::make_shared<const Normal>(p[1], p[2]));
  };
  // The weights move along the simplex.
  f.constrain = [](Parameters& p, at::Tensor&) { p[0] = p[0] / p[0].sum(-1, true); };
  f.reference = density("reference", 0.3, {0.4, 0.6}, {-1, 2}, {1, 0.5});
  f.support = "real";
  f.factory = [](std::string name) {
    return variate::Mixture(std::move(name), vector({0.5, 0.5}), normals({0, 1}, {1, 1}), {6});
  };
  f.factory_shape = {6};
  f.densities = {
      density("two components", 0.3, {0.4, 0.6}, {-1, 2}, {1, 0.5}),
      density("three components", 1.7, {0.2, 0.5, 0.3}, {0, 1, 3}, {0.3, 2, 1}),
      density("far away", 1e3, {0.5, 0.5}, {0, 1}, {1, 2}),
      density("weight near 0", -1.0, {1e-12, 1 - 1e-12}, {-1, 5}, {0.1, 1}),
      density("one component", 0.7, {1}, {0.2}, {1.5}),
      density("tiny and huge sigma", 1e-9, {0.3, 0.7}, {0, 0}, {1e-8, 1e8}),
  };
  f.gradients = {
      {"between modes", {vector({0.3, 0.7}), vector({-1, 2}), vector({1, 0.8})}, scalar(0.5)},
      {"one dominant", {vector({0.9, 0.1}), vector({-2.5, 4}), vector({0.5, 2})}, scalar(-3)},
      {"small weight", {vector({1e-3, 1 - 1e-3}), vector({0, 3}), vector({1, 1})}, scalar(3)},
  };
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  const auto invalid = [](const char* name, const List& w, const List& mu, const char* message) {
    const at::Tensor sigma = at::ones({static_cast<int64_t>(mu.size())}, at::kDouble);
    return InvalidCase{name, {vector(w), vector(mu), sigma}, message};
  };
  f.invalid = {
      invalid("weights not summing to 1", {0.25, 0.5}, {0, 1},
              "Mixture: argument 'weights' must be a simplex (entries summing to 1), got sum 0.75"),
      invalid("negative weight", {-0.5, 1.5}, {0, 1},
              "Mixture: argument 'weights' must be a simplex (non-negative entries), got -0.5 (at index [0])"),
      invalid("fewer components than weights", {0.25, 0.25, 0.5}, {0, 1},
              "Mixture: argument 'component' must have a batch shape ending in 3 (the number of "
              "weights), got batch shape [2]"),
      invalid("more components than weights", {0.5, 0.5}, {0, 1, 2},
              "Mixture: argument 'component' must have a batch shape ending in 2 (the number of "
              "weights), got batch shape [3]"),
  };
  f.shapes = {
      // Weights [3, 2] (one row per batch element) over components of batch [2].
      {"weights [3, 2]", {vector({0.1, 0.9, 0.5, 0.5, 0.8, 0.2}).reshape({3, 2}), vector({-1, 2}),
                          vector({1, 0.5})},
       {3}, {}, scalar(0.4)},
      // Components with their own batch [4, 2] and shared weights [2].
      {"components [4, 2]", {vector({0.3, 0.7}), at::arange(8, at::kDouble).reshape({4, 2}),
                             at::ones({4, 2}, at::kDouble)},
       {4}, {}, scalar(0.0)},
  };
  f.moments = {moments("two components", {0.3, 0.7}, {-2, 1}, {0.5, 1.5}),
               moments("three components", {0.2, 0.5, 0.3}, {0, 4, -3}, {1, 0.2, 2}),
               moments("weight near 0", {1e-3, 1 - 1e-3}, {10, 0}, {1, 1})};
  // The CDF of a Normal mixture is the weighted sum of the components' CDFs.
  const List w = {0.2, 0.5, 0.3}, mu = {-3.0, 0.0, 4.0}, sd = {0.5, 1.0, 2.0};
  f.fits = {{"three components", {vector(w), vector(mu), vector(sd)}, [=](double x) {
               double cdf = 0;
               for (size_t c = 0; c < w.size(); ++c) cdf += w[c] * normal_cdf((x - mu[c]) / sd[c]);
               return cdf;
             }}};
  return f;
}

}  // namespace

class TestMixture : public DistributionConformance {
  Q_OBJECT

 public:
  TestMixture() : DistributionConformance({mixture()}) {}

 private slots:
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
    const std::string error = check_moments(draws, mean, variance);
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
    const std::string error = check_moments(draws, mean, variance);
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

};

QTEST_APPLESS_MAIN(TestMixture)
#include "tst_mixture.moc"
