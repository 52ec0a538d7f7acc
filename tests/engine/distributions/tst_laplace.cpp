// Laplace(mu, sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/laplace.h"

using namespace variate::testing;
using variate::distributions::Laplace;

namespace {

double naive_log_density(double x, double mu, double sigma) {
  return -std::log(2 * sigma) - std::abs(x - mu) / sigma;
}

double cdf(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return z < 0 ? 0.5 * std::exp(z) : 1 - 0.5 * std::exp(-z);
}

DensityCase density(const char* name, double x, double mu, double sigma) {
  return {name, scalars({mu, sigma}), scalar(x), naive_log_density(x, mu, sigma)};
}

Family laplace() {
  Family f;
  f.name = "Laplace";
  f.parameters = {{"mu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<Laplace>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 0.2, 1.5);
  f.support = "real";
  f.factory = [](std::string name) { return variate::Laplace(std::move(name), 0.0, 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("at the location", 0.5, 0.5, 1.0), density("shifted and scaled", 1.3, -0.4, 2.5),
      density("below the location", -4.0, 1.0, 0.5), density("far tail", 1e6, 0.0, 1.0),
      density("tiny sigma", 3e-8, 0.0, 1e-8),     density("huge sigma", -3.0, 7.0, 1e8),
  };
  // Away from x = mu, where |x - mu| has a kink.
  f.gradients = {
      {"above the location", scalars({0.0, 1.0}), scalar(0.4)},
      {"below the location", scalars({-1.0, 0.7}), scalar(-5.0)},
      {"wide", scalars({3.0, 50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0, 0}), "Laplace: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({0, -2}), "Laplace: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({0, kNaN}), "Laplace: argument 'sigma' must be positive, got nan"},
      {"infinite mu", scalars({kInf, 1}), "Laplace: argument 'mu' must be finite, got inf"},
      {"element located", {scalar(0), vector({1, 2, -1})},
       "Laplace: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"mu [3, 1], sigma [4]",
               {vector({-1, 0, 2}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  // sigma is a scale: variance 2 sigma^2 (a rate would give 2 / sigma^2).
  f.moments = {{"mu 1.5, sigma 0.8", scalars({1.5, 0.8}), scalar(1.5), scalar(2 * 0.8 * 0.8)}};
  f.fits = {{"mu -2, sigma 3", scalars({-2, 3}), [](double x) { return cdf(x, -2, 3); }}};
  return f;
}

}  // namespace

class TestLaplace : public DistributionConformance {
  Q_OBJECT

 public:
  TestLaplace() : DistributionConformance({laplace()}) {}
};

QTEST_APPLESS_MAIN(TestLaplace)
#include "tst_laplace.moc"
