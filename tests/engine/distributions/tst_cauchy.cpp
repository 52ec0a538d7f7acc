// Cauchy(mu, sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/cauchy.h"

using namespace variate::testing;
using variate::distributions::Cauchy;

namespace {

double naive_log_density(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -std::log(M_PI) - std::log(sigma) - std::log(1 + z * z);
}

DensityCase density(const char* name, double x, double mu, double sigma) {
  return {name, scalars({mu, sigma}), scalar(x), naive_log_density(x, mu, sigma)};
}

Family cauchy() {
  Family f;
  f.name = "Cauchy";
  f.parameters = {{"mu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<Cauchy>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 0.2, 1.5);
  f.support = "real";
  f.factory = [](std::string name) { return variate::Cauchy(std::move(name), 0.0, 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("standard at 0", 0.0, 0.0, 1.0), density("shifted and scaled", 1.3, -0.4, 2.5),
      density("far tail", 1e10, 0.0, 1.0),     density("tiny sigma", 3e-8, 0.0, 1e-8),
      density("huge sigma", -3.0, 7.0, 1e8),   density("far negative", -1e6, 2.0, 3.0),
  };
  f.gradients = {
      {"near mode", scalars({0.0, 1.0}), scalar(0.1)},
      {"tail", scalars({-1.0, 0.7}), scalar(5.0)},
      {"wide", scalars({3.0, 50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero sigma", scalars({0, 0}), "Cauchy: argument 'sigma' must be positive, got 0"},
      {"negative sigma", scalars({0, -2}), "Cauchy: argument 'sigma' must be positive, got -2"},
      {"nan sigma", scalars({0, kNaN}), "Cauchy: argument 'sigma' must be positive, got nan"},
      {"infinite mu", scalars({kInf, 1}), "Cauchy: argument 'mu' must be finite, got inf"},
      {"nan mu", scalars({kNaN, 1}), "Cauchy: argument 'mu' must be finite, got nan"},
      {"element located", {scalar(0), vector({1, 2, -1})},
       "Cauchy: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"mu [3, 1], sigma [4]",
               {vector({-1, 0, 2}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  // The Cauchy has no mean or variance: its quartiles mu + sigma tan(pi (p - 1/2)) stand in.
  const auto quantile = [](double p) { return 1.5 + 0.3 * std::tan(M_PI * (p - 0.5)); };
  f.moments = {{"quartiles of mu 1.5, sigma 0.3", scalars({1.5, 0.3}), {}, {}, {},
                {{0.25, quantile(0.25)}, {0.5, quantile(0.5)}, {0.75, quantile(0.75)}}}};
  f.fits = {{"mu -2, sigma 3", scalars({-2, 3}),
             [](double x) { return 0.5 + std::atan((x + 2) / 3) / M_PI; }}};
  return f;
}

}  // namespace

class TestCauchy : public DistributionConformance {
  Q_OBJECT

 public:
  TestCauchy() : DistributionConformance({cauchy()}) {}
};

QTEST_APPLESS_MAIN(TestCauchy)
#include "tst_cauchy.moc"
