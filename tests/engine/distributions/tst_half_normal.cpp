// HalfNormal(sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/half_normal.h"

using namespace variate::testing;
using variate::distributions::HalfNormal;

namespace {

double naive_log_density(double x, double sigma) {
  return std::log(2.0) - std::log(sigma) - 0.5 * std::log(2 * M_PI) - x * x / (2 * sigma * sigma);
}

DensityCase density(const char* name, double x, double sigma) {
  return {name, scalars({sigma}), scalar(x), naive_log_density(x, sigma)};
}

Family half_normal() {
  Family f;
  f.name = "HalfNormal";
  f.parameters = {{"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<HalfNormal>(p[0]); };
  f.reference = density("reference", 0.3, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::HalfNormal(std::move(name), 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("edge x = 0", 0.0, 1.0), density("edge x = 0, wide", 0.0, 250.0),
      density("near mode", 0.7, 1.3),  density("far tail", 40.0, 1.0),
      density("tiny sigma", 3e-9, 1e-8), density("huge sigma", 5.0, 1e8),
      density("large x", 1e6, 3e5),
  };
  f.gradients = {
      {"near mode", scalars({1.0}), scalar(0.1)},
      {"tail", scalars({0.7}), scalar(5.0)},
      {"wide", scalars({50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0}), "HalfNormal: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({-2}), "HalfNormal: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({kNaN}), "HalfNormal: argument 'sigma' must be positive, got nan"},
      {"element located", {vector({1, 2, -1})},
       "HalfNormal: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"sigma [3, 4]", {at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4})}, {3, 4},
               {}, scalar(0.8)}};
  const double sigma = 2.0;
  f.moments = {{"sigma 2", scalars({sigma}), scalar(sigma * std::sqrt(2 / M_PI)),
                scalar(sigma * sigma * (1 - 2 / M_PI))}};
  f.fits = {{"sigma 3", scalars({3}), [](double x) { return std::erf(x / (3 * M_SQRT2)); }}};
  return f;
}

}  // namespace

class TestHalfNormal : public DistributionConformance {
  Q_OBJECT

 public:
  TestHalfNormal() : DistributionConformance({half_normal()}) {}
};

QTEST_APPLESS_MAIN(TestHalfNormal)
#include "tst_half_normal.moc"
