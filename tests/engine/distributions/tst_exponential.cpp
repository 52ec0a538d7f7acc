// Exponential(beta): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/exponential.h"

using namespace variate::testing;
using variate::distributions::Exponential;

namespace {

double naive_log_density(double x, double beta) { return std::log(beta) - beta * x; }

DensityCase density(const char* name, double x, double beta) {
  return {name, scalars({beta}), scalar(x), naive_log_density(x, beta)};
}

Family exponential() {
  Family f;
  f.name = "Exponential";
  f.parameters = {{"beta"}};
  f.make = [](const Parameters& p) { return std::make_shared<Exponential>(p[0]); };
  f.reference = density("reference", 0.3, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::Exponential(std::move(name), 2.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("edge x = 0", 0.0, 2.5), density("edge x = 0, tiny rate", 0.0, 1e-8),
      density("moderate", 1.3, 0.4),   density("far tail", 1e3, 1.0),
      density("tiny rate", 3e7, 1e-8), density("huge rate", 1e-9, 1e8),
  };
  f.gradients = {
      {"near zero", scalars({1.0}), scalar(0.1)},
      {"tail", scalars({0.7}), scalar(5.0)},
      {"large rate", scalars({50.0}), scalar(0.01)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero beta", scalars({0}), "Exponential: argument 'beta' must be positive, got 0"},
      {"negative beta", scalars({-2}), "Exponential: argument 'beta' must be positive, got -2"},
      {"nan beta", scalars({kNaN}), "Exponential: argument 'beta' must be positive, got nan"},
      {"element located", {vector({1, 2, -1})},
       "Exponential: argument 'beta' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"beta [3, 4]", {at::linspace(0.5, 6.0, 12, at::kDouble).reshape({3, 4})}, {3, 4},
               {}, scalar(0.8)}};
  // beta is a rate: mean 1 / beta (a scale would give beta).
  f.moments = {{"beta 2.5", scalars({2.5}), scalar(1 / 2.5), scalar(1 / (2.5 * 2.5))}};
  f.fits = {{"beta 0.5", scalars({0.5}), [](double x) { return 1 - std::exp(-0.5 * x); }}};
  return f;
}

}  // namespace

class TestExponential : public DistributionConformance {
  Q_OBJECT

 public:
  TestExponential() : DistributionConformance({exponential()}) {}
};

QTEST_APPLESS_MAIN(TestExponential)
#include "tst_exponential.moc"
