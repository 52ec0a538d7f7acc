// Gamma(alpha, beta) with beta a RATE: the family's table for the conformance fixture, and
// the pathwise derivatives of its draws.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/gamma.h"

using namespace variate::testing;
using variate::distributions::Gamma;

namespace {

double naive_log_density(double x, double alpha, double beta) {
  return alpha * std::log(beta) - std::lgamma(alpha) + (alpha - 1) * std::log(x) - beta * x;
}

DensityCase density(const char* name, double x, double alpha, double beta) {
  return {name, scalars({alpha, beta}), scalar(x), naive_log_density(x, alpha, beta)};
}

FitCase fit(const char* name, double alpha, double beta) {
  return {name, scalars({alpha, beta}),
          [=](double x) { return incomplete_gamma(alpha, beta * x); }};
}

Family gamma() {
  Family f;
  f.name = "Gamma";
  f.parameters = {{"alpha"}, {"beta"}};
  f.make = [](const Parameters& p) { return std::make_shared<Gamma>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 2.0, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::Gamma(std::move(name), 2.0, 0.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("moderate", 1.3, 2.0, 3.0),   density("alpha < 1 near 0", 1e-5, 0.3, 2.0),
      density("tiny alpha", 0.5, 1e-3, 1.0), density("large alpha", 1.01, 50.0, 50.0),
      density("far tail", 200.0, 2.0, 1.5), density("tiny rate", 1e8, 3.0, 1e-8),
      density("huge rate", 1e-8, 2.0, 1e8),
      // At x = 0 the density's limits.
      {"at 0, alpha = 1 is Exponential(beta)", scalars({1, 2.5}), scalar(0), std::log(2.5)},
      {"at 0, alpha > 1 vanishes", scalars({2, 1}), scalar(0), -kInf},
      {"at 0, alpha < 1 diverges", scalars({0.5, 1}), scalar(0), kInf},
  };
  f.gradients = {
      {"moderate", scalars({2.0, 1.0}), scalar(0.8)},
      {"alpha < 1", scalars({0.4, 3.0}), scalar(0.05)},
      {"tail", scalars({5.0, 0.5}), scalar(40.0)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero alpha", scalars({0, 1}), "Gamma: argument 'alpha' must be positive, got 0"},
      {"negative alpha", scalars({-1.5, 1}), "Gamma: argument 'alpha' must be positive, got -1.5"},
      {"nan alpha", scalars({kNaN, 1}), "Gamma: argument 'alpha' must be positive, got nan"},
      {"zero beta", scalars({2, 0}), "Gamma: argument 'beta' must be positive, got 0"},
      {"negative beta", scalars({2, -2}), "Gamma: argument 'beta' must be positive, got -2"},
      {"element located", {scalar(2), vector({1, 2, -1})},
       "Gamma: argument 'beta' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"alpha [3, 1], beta [4]",
               {vector({0.5, 2, 9}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  // beta is a rate: mean alpha / beta (a scale would give alpha beta).
  f.moments = {{"alpha > 1", scalars({3, 2}), scalar(3.0 / 2), scalar(3.0 / 4)},
               {"alpha < 1", scalars({0.5, 4}), scalar(0.5 / 4), scalar(0.5 / 16)}};
  f.fits = {fit("alpha > 1", 2.5, 4), fit("alpha < 1", 0.4, 0.5), fit("large alpha", 30, 2)};
  // Tiny shapes underflow float's range often; draws must still be positive.
  f.stress = {{"alpha 0.02", scalars({0.02, 1})}};
  return f;
}

}  // namespace

class TestGamma : public DistributionConformance {
  Q_OBJECT

 public:
  TestGamma() : DistributionConformance({gamma()}) {}

 private slots:
  void samplesAreReparameterized_data() {
    QTest::addColumn<double>("alpha");
    QTest::addColumn<double>("beta");
    QTest::newRow("alpha > 1") << 3.0 << 2.0;
    QTest::newRow("alpha < 1") << 0.4 << 1.5;
  }
  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta: E[X] = alpha / beta.
    QFETCH(double, alpha);
    QFETCH(double, beta);
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor betas = at::full({n}, beta, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Gamma(alphas, betas).sample({}, generator).sum().backward();
    std::string error = check_mean_derivative(alphas.grad(), 1 / beta);
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = check_mean_derivative(betas.grad(), -alpha / (beta * beta));
    QVERIFY2(error.empty(), ("beta: " + error).c_str());
  }
};

QTEST_APPLESS_MAIN(TestGamma)
#include "tst_gamma.moc"
