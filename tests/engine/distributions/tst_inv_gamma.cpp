// InvGamma(alpha, beta) with beta a SCALE: the family's table for the conformance fixture,
// and the pathwise derivatives of its draws.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/inv_gamma.h"

using namespace variate::testing;
using variate::distributions::InvGamma;

namespace {

double naive_log_density(double x, double alpha, double beta) {
  return alpha * std::log(beta) - std::lgamma(alpha) - (alpha + 1) * std::log(x) - beta / x;
}

DensityCase density(const char* name, double x, double alpha, double beta) {
  return {name, scalars({alpha, beta}), scalar(x), naive_log_density(x, alpha, beta)};
}

// P(X <= x) = P(G >= beta / x) for G ~ Gamma(alpha, 1).
FitCase fit(const char* name, double alpha, double beta) {
  return {name, scalars({alpha, beta}),
          [=](double x) { return 1 - incomplete_gamma(alpha, beta / x); }};
}

Family inv_gamma() {
  Family f;
  f.name = "InvGamma";
  f.parameters = {{"alpha"}, {"beta"}};
  f.make = [](const Parameters& p) { return std::make_shared<InvGamma>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 2.0, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) { return variate::InvGamma(std::move(name), 2.0, 0.5, {3}); };
  f.factory_shape = {3};
  f.densities = {
      density("moderate", 1.3, 2.0, 3.0),     density("near 0", 1e-3, 2.0, 1.0),
      density("alpha < 1", 0.7, 0.3, 2.0),    density("large alpha", 1.01, 50.0, 50.0),
      density("far tail", 1e6, 3.0, 2.0),     density("tiny scale", 1e-8, 3.0, 1e-8),
      density("huge scale", 1e8, 2.0, 1e8),
  };
  f.gradients = {
      {"moderate", scalars({2.0, 1.0}), scalar(0.8)},
      {"alpha < 1", scalars({0.4, 0.3}), scalar(0.05)},
      {"tail", scalars({5.0, 0.5}), scalar(40.0)},
  };
  f.outside = outside_at({{"zero (density limit)", 0.0}, {"just below 0", -1e-300},
                          {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero alpha", scalars({0, 1}), "InvGamma: argument 'alpha' must be positive, got 0"},
      {"negative alpha", scalars({-1.5, 1}),
       "InvGamma: argument 'alpha' must be positive, got -1.5"},
      {"nan alpha", scalars({kNaN, 1}), "InvGamma: argument 'alpha' must be positive, got nan"},
      {"zero beta", scalars({2, 0}), "InvGamma: argument 'beta' must be positive, got 0"},
      {"negative beta", scalars({2, -2}), "InvGamma: argument 'beta' must be positive, got -2"},
      {"element located", {vector({1, 2, -1}), scalar(2)},
       "InvGamma: argument 'alpha' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"alpha [3, 1], beta [4]",
               {vector({0.5, 2, 9}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  // alpha = 10: moments up to the ninth exist, so the variance's standard error is sound.
  // beta is a scale: mean beta / (alpha - 1) (a rate would give 1 / (beta (alpha - 1))).
  const double mean = 3.0 / 9;
  f.moments = {{"alpha 10, beta 3", scalars({10, 3}), scalar(mean), scalar(mean * mean / 8)}};
  f.fits = {fit("alpha > 1", 3, 2), fit("alpha < 1", 0.8, 0.5)};
  return f;
}

}  // namespace

class TestInvGamma : public DistributionConformance {
  Q_OBJECT

 public:
  TestInvGamma() : DistributionConformance({inv_gamma()}) {}

 private slots:
  void samplesAreReparameterized() {
    // Each draw gets its own copy of the parameters, so the per-draw pathwise derivatives
    // average to d E[X] / d theta: E[X] = beta / (alpha - 1).
    const double alpha = 10.0;
    const double beta = 3.0;
    const int64_t n = 100000;
    const at::Tensor alphas = at::full({n}, alpha, at::kDouble).requires_grad_(true);
    const at::Tensor betas = at::full({n}, beta, at::kDouble).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    InvGamma(alphas, betas).sample({}, generator).sum().backward();
    std::string error =
        check_mean_derivative(alphas.grad(), -beta / ((alpha - 1) * (alpha - 1)));
    QVERIFY2(error.empty(), ("alpha: " + error).c_str());
    error = check_mean_derivative(betas.grad(), 1 / (alpha - 1));
    QVERIFY2(error.empty(), ("beta: " + error).c_str());
  }
};

QTEST_APPLESS_MAIN(TestInvGamma)
#include "tst_inv_gamma.moc"
