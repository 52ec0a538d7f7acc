// Weibull(alpha, sigma) with alpha the shape and sigma the scale: the family's table for the
// conformance fixture, and the pathwise derivatives of its draws.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/weibull.h"

using namespace variate::testing;
using variate::distributions::Weibull;

namespace {

double naive_log_density(double x, double alpha, double sigma) {
  return std::log(alpha / sigma) + (alpha - 1) * std::log(x / sigma) - std::pow(x / sigma, alpha);
}

double mean(double alpha, double sigma) { return sigma * std::tgamma(1 + 1 / alpha); }

DensityCase density(const char* name, double x, double alpha, double sigma) {
  return {name, scalars({alpha, sigma}), scalar(x), naive_log_density(x, alpha, sigma)};
}

// Shape then scale: swapping them changes the mean (2, 3 gives 2.66; 3, 2 gives 1.79).
MomentCase moments(const char* name, double alpha, double sigma) {
  const double m = mean(alpha, sigma);
  return {name, scalars({alpha, sigma}), scalar(m),
          scalar(sigma * sigma * std::tgamma(1 + 2 / alpha) - m * m)};
}

FitCase fit(const char* name, double alpha, double sigma) {
  return {name, scalars({alpha, sigma}),
          [=](double x) { return 1 - std::exp(-std::pow(x / sigma, alpha)); }};
}

Family weibull() {
  Family f;
  f.name = "Weibull";
  f.parameters = {{"alpha"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<Weibull>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 2.0, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::Weibull(std::move(name), 2.0, 0.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("moderate", 1.3, 2.0, 3.0),     density("alpha < 1 near 0", 0.01, 0.5, 2.0),
      density("large alpha", 1.02, 20.0, 1.0), density("far tail", 50.0, 1.5, 2.0),
      density("tiny sigma", 3e-8, 2.0, 1e-8), density("huge sigma", 5e7, 3.0, 1e8),
      // At x = 0 the density's limits.
      {"at 0, alpha = 1 is Exponential(1 / sigma)", scalars({1, 2.5}), scalar(0), -std::log(2.5)},
      {"at 0, alpha > 1 vanishes", scalars({2, 1}), scalar(0), -kInf},
      {"at 0, alpha < 1 diverges", scalars({0.5, 1}), scalar(0), kInf},
  };
  f.gradients = {
      {"moderate", scalars({2.0, 1.0}), scalar(0.8)},
      {"alpha < 1", scalars({0.4, 3.0}), scalar(0.05)},
      {"tail", scalars({5.0, 4.0}), scalar(6.0)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero alpha", scalars({0, 1}), "Weibull: argument 'alpha' must be positive, got 0"},
      {"negative alpha", scalars({-1.5, 1}), "Weibull: argument 'alpha' must be positive, got -1.5"},
      {"nan alpha", scalars({kNaN, 1}), "Weibull: argument 'alpha' must be positive, got nan"},
      {"zero sigma", scalars({2, 0}), "Weibull: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({2, -2}), "Weibull: argument 'sigma' must be positive, got -2"},
      {"element located", {scalar(2), vector({1, 2, -1})},
       "Weibull: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"alpha [3, 1], sigma [4]",
               {vector({0.5, 2, 9}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  f.moments = {moments("alpha > 1", 2, 3), moments("alpha < 1", 0.8, 0.5)};
  f.fits = {fit("alpha > 1", 2, 3), fit("alpha < 1", 0.6, 0.5)};
  // Small shapes push E^(1 / alpha) below float's range; draws must still be positive.
  f.stress = {{"alpha 0.05", scalars({0.05, 1})}};
  return f;
}

}  // namespace

class TestWeibull : public DistributionConformance {
  Q_OBJECT

 public:
  TestWeibull() : DistributionConformance({weibull()}) {}

 private slots:
  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta, with E[X] = sigma Gamma(1 + 1 / alpha); d/dalpha of the
    // closed form by central differences.
    const double alpha = 2.0;
    const double sigma = 3.0;
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor sigmas = at::full({n}, sigma, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Weibull(alphas, sigmas).sample({}, generator).sum().backward();
    const double h = 1e-5;
    const double dmean_dalpha = (mean(alpha + h, sigma) - mean(alpha - h, sigma)) / (2 * h);
    std::string error = check_mean_derivative(alphas.grad(), dmean_dalpha);
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = check_mean_derivative(sigmas.grad(), mean(alpha, 1.0));
    QVERIFY2(error.empty(), ("sigma: " + error).c_str());
  }
};

QTEST_APPLESS_MAIN(TestWeibull)
#include "tst_weibull.moc"
