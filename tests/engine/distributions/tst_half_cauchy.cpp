// HalfCauchy(sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/half_cauchy.h"

using namespace variate::testing;
using variate::distributions::HalfCauchy;

namespace {

double naive_log_density(double x, double sigma) {
  const double z = x / sigma;
  return std::log(2.0) - std::log(M_PI) - std::log(sigma) - std::log(1 + z * z);
}

DensityCase density(const char* name, double x, double sigma) {
  return {name, scalars({sigma}), scalar(x), naive_log_density(x, sigma)};
}

Family half_cauchy() {
  Family f;
  f.name = "HalfCauchy";
  f.parameters = {{"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<HalfCauchy>(p[0]); };
  f.reference = density("reference", 0.3, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::HalfCauchy(std::move(name), 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("edge x = 0", 0.0, 1.0),   density("edge x = 0, wide", 0.0, 250.0),
      density("near mode", 0.7, 1.3),    density("far tail", 1e10, 1.0),
      density("tiny sigma", 3e-8, 1e-8), density("huge sigma", 5.0, 1e8),
  };
  f.gradients = {
      {"near mode", scalars({1.0}), scalar(0.1)},
      {"tail", scalars({0.7}), scalar(5.0)},
      {"wide", scalars({50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0}), "HalfCauchy: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({-2}), "HalfCauchy: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({kNaN}), "HalfCauchy: argument 'sigma' must be positive, got nan"},
      {"element located", {vector({1, 2, -1})},
       "HalfCauchy: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"sigma [3, 4]", {at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4})}, {3, 4},
               {}, scalar(0.8)}};
  // No mean or variance: the quartiles sigma tan(pi p / 2) stand in.
  const auto quantile = [](double p) { return 2.0 * std::tan(M_PI * p / 2); };
  f.moments = {{"quartiles of sigma 2", scalars({2}), {}, {}, {},
                {{0.25, quantile(0.25)}, {0.5, quantile(0.5)}, {0.75, quantile(0.75)}}}};
  f.fits = {{"sigma 3", scalars({3}), [](double x) { return 2 / M_PI * std::atan(x / 3); }}};
  return f;
}

}  // namespace

class TestHalfCauchy : public DistributionConformance {
  Q_OBJECT

 public:
  TestHalfCauchy() : DistributionConformance({half_cauchy()}) {}
};

QTEST_APPLESS_MAIN(TestHalfCauchy)
#include "tst_half_cauchy.moc"
