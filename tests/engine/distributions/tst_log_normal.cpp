// LogNormal(mu, sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/log_normal.h"

using namespace variate::testing;
using variate::distributions::LogNormal;

namespace {

double naive_log_density(double x, double mu, double sigma) {
  const double z = (std::log(x) - mu) / sigma;
  return -std::log(x) - std::log(sigma) - 0.5 * std::log(2 * M_PI) - 0.5 * z * z;
}

DensityCase density(const char* name, double x, double mu, double sigma) {
  return {name, scalars({mu, sigma}), scalar(x), naive_log_density(x, mu, sigma)};
}

Family log_normal() {
  Family f;
  f.name = "LogNormal";
  f.parameters = {{"mu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<LogNormal>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 0.2, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::LogNormal(std::move(name), 0.0, 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("standard at 1", 1.0, 0.0, 1.0), density("shifted and scaled", 1.3, -0.4, 2.5),
      density("tiny x", 1e-300, 0.0, 1.0),     density("huge x", 1e300, 2.0, 3.0),
      density("tiny sigma", 2.0, 0.6931, 1e-4), density("huge sigma", 5.0, 7.0, 1e8),
  };
  f.gradients = {
      {"near mode", scalars({0.0, 1.0}), scalar(0.5)},
      {"tail", scalars({-1.0, 0.7}), scalar(50.0)},
      {"wide", scalars({3.0, 5.0}), scalar(0.01)},
  };
  f.outside = outside_at({{"zero (density limit)", 0.0}, {"negative", -2.0},
                          {"minus infinity", -kInf}, {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0, 0}), "LogNormal: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({0, -2}), "LogNormal: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({0, kNaN}), "LogNormal: argument 'sigma' must be positive, got nan"},
      {"infinite mu", scalars({kInf, 1}), "LogNormal: argument 'mu' must be finite, got inf"},
      {"element located", {scalar(0), vector({1, 2, -1})},
       "LogNormal: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"mu [3, 1], sigma [4]",
               {vector({-1, 0, 2}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  const double mu = 0.5, sigma = 0.25;
  f.moments = {{"mu 0.5, sigma 0.25", scalars({mu, sigma}),
                scalar(std::exp(mu + sigma * sigma / 2)),
                scalar(std::expm1(sigma * sigma) * std::exp(2 * mu + sigma * sigma))}};
  f.fits = {{"mu -2, sigma 3", scalars({-2, 3}),
             [](double x) { return normal_cdf((std::log(x) + 2) / 3); }}};
  return f;
}

}  // namespace

class TestLogNormal : public DistributionConformance {
  Q_OBJECT

 public:
  TestLogNormal() : DistributionConformance({log_normal()}) {}
};

QTEST_APPLESS_MAIN(TestLogNormal)
#include "tst_log_normal.moc"
