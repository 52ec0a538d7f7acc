// Logistic(mu, sigma): the family's table for the conformance fixture, and the two places
// its |z| form could go wrong: the far left tail and the location.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/logistic.h"

using namespace variate::testing;
using variate::distributions::Logistic;

namespace {

// The density as printed, exp(-z) / (sigma (1 + exp(-z))^2), then its log.
double naive_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  const double e = std::exp(-z);
  return std::log(e / (sigma * (1 + e) * (1 + e)));
}

DensityCase density(const char* name, double x, double mu, double sigma) {
  return {name, scalars({mu, sigma}), scalar(x), naive_log_density(x, mu, sigma)};
}

Family logistic() {
  Family f;
  f.name = "Logistic";
  f.parameters = {{"mu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<Logistic>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 0.2, 1.5);
  f.support = "real";
  f.factory = [](std::string name) { return variate::Logistic(std::move(name), 0.0, 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("at the location", 0.5, 0.5, 1.0), density("shifted and scaled", 1.3, -0.4, 2.5),
      density("right tail", 31.0, 1.0, 1.0),     density("far right tail", 600.0, 0.0, 1.0),
      density("far left tail", -300.0, 0.0, 1.0), density("tiny sigma", 3e-8, 0.0, 1e-8),
      density("huge sigma", -3.0, 7.0, 1e8),
      // exp(-z) overflows for z < -710, where the naive formula fails; the density is
      // still exp(z) / sigma there.
      {"beyond the naive formula's overflow", scalars({0, 1}), scalar(-1000.0), -1000.0},
  };
  f.gradients = {
      {"near mode", scalars({0.0, 1.0}), scalar(0.1)},
      {"left", scalars({-1.0, 0.7}), scalar(-5.0)},
      {"wide", scalars({3.0, 50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0, 0}), "Logistic: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({0, -2}), "Logistic: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({0, kNaN}), "Logistic: argument 'sigma' must be positive, got nan"},
      {"infinite mu", scalars({-kInf, 1}), "Logistic: argument 'mu' must be finite, got -inf"},
      {"element located", {scalar(0), vector({1, 2, -1})},
       "Logistic: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"mu [3, 1], sigma [4]",
               {vector({-1, 0, 2}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  f.moments = {{"mu 1.5, sigma 0.8", scalars({1.5, 0.8}), scalar(1.5),
                scalar(0.8 * 0.8 * M_PI * M_PI / 3)}};
  f.fits = {{"mu -2, sigma 3", scalars({-2, 3}),
             [](double x) { return 1 / (1 + std::exp(-(x + 2) / 3)); }}};
  return f;
}

}  // namespace

class TestLogistic : public DistributionConformance {
  Q_OBJECT

 public:
  TestLogistic() : DistributionConformance({logistic()}) {}

 private slots:
  void gradientAtTheLocationIsZeroInX() {
    // The density is symmetric, so d/dx vanishes at x = mu (the |z| form must not break it).
    const at::Tensor x = scalar(0.5).requires_grad_(true);
    Logistic(scalar(0.5), scalar(2.0)).log_prob(x).backward();
    QCOMPARE(x.grad().item<double>(), 0.0);
  }
};

QTEST_APPLESS_MAIN(TestLogistic)
#include "tst_logistic.moc"
