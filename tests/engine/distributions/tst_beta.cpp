// Beta(alpha, beta): the family's table for the conformance fixture, and the pathwise
// derivatives of its gamma-ratio draws.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/beta.h"

using namespace variate::testing;
using variate::distributions::Beta;

namespace {

double naive_log_density(double x, double a, double b) {
  const double log_beta_function = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
  return (a - 1) * std::log(x) + (b - 1) * std::log(1 - x) - log_beta_function;
}

DensityCase density(const char* name, double x, double alpha, double beta) {
  return {name, scalars({alpha, beta}), scalar(x), naive_log_density(x, alpha, beta)};
}

MomentCase moments(const char* name, double alpha, double beta) {
  const double total = alpha + beta;
  return {name, scalars({alpha, beta}), scalar(alpha / total),
          scalar(alpha * beta / (total * total * (total + 1)))};
}

FitCase fit(const char* name, double alpha, double beta) {
  return {name, scalars({alpha, beta}),
          [=](double x) { return incomplete_beta(alpha, beta, x); }};
}

Family beta() {
  Family f;
  f.name = "Beta";
  f.parameters = {{"alpha"}, {"beta"}};
  f.make = [](const Parameters& p) { return std::make_shared<Beta>(p[0], p[1]); };
  f.reference = density("reference", 0.5, 2.0, 3.0);
  f.support = "interval(0, 1)";
  f.tolerance = 1e-11;
  f.factory = [](std::string name) { return variate::Beta(std::move(name), 2.0, 3.0, {4}); };
  f.factory_shape = {4};
  f.densities = {
      density("uniform", 0.3, 1.0, 1.0),        density("skewed left", 0.2, 2.0, 5.0),
      density("skewed right", 0.2, 5.0, 2.0),   density("U-shaped near 0", 1e-10, 0.5, 0.5),
      density("near 1", 0.999999, 3.0, 0.7),    density("concentrated", 0.7, 50.0, 20.0),
      density("small shapes", 0.5, 0.1, 0.2),   density("large shapes tail", 0.01, 300.0, 200.0),
      // Densities worked out by hand, so that a slip shared with the formula cannot hide:
      // Beta(2, 3) is 12 x (1 - x)^2, Beta(3, 1) is 3 x^2.
      {"known Beta(2, 3) at 1/2", scalars({2, 3}), scalar(0.5), std::log(1.5), 1e-14},
      {"known Beta(3, 1) at 1/2", scalars({3, 1}), scalar(0.5), std::log(0.75), 1e-14},
      {"known Beta(1, 1) at 0.9", scalars({1, 1}), scalar(0.9), 0.0, 1e-14},
  };
  f.gradients = {
      {"interior", scalars({2.0, 5.0}), scalar(0.3)},
      {"small shapes", scalars({0.4, 0.6}), scalar(0.8)},
      {"large shapes", scalars({40.0, 30.0}), scalar(0.55)},
  };
  // The endpoints have probability zero; the density there is 0, finite or infinite.
  f.outside = outside_at({{"zero", 0.0}, {"one", 1.0}, {"negative", -0.25}, {"above one", 1.5},
                          {"infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"zero alpha", scalars({0, 1}), "Beta: argument 'alpha' must be positive, got 0"},
      {"negative alpha", scalars({-2, 1}), "Beta: argument 'alpha' must be positive, got -2"},
      {"infinite alpha", scalars({kInf, 1}), "Beta: argument 'alpha' must be finite, got inf"},
      {"zero beta", scalars({1, 0}), "Beta: argument 'beta' must be positive, got 0"},
      {"nan beta", scalars({1, kNaN}), "Beta: argument 'beta' must be positive, got nan"},
      {"element located", {scalar(2), vector({1, 2, -1})},
       "Beta: argument 'beta' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"alpha [3, 1], beta [4]",
               {vector({2, 0.5, 9}).reshape({3, 1}), vector({3, 1, 0.3, 4})}, {3, 4}, {},
               scalar(0.5)}};
  f.moments = {moments("skewed", 2, 5), moments("U-shaped", 0.3, 0.6),
               moments("concentrated", 40, 10)};
  f.fits = {fit("skewed", 2, 5), fit("U-shaped", 0.5, 0.8)};
  // Tiny shapes make both gammas underflow; draws must stay inside (0, 1).
  f.stress = {{"tiny shapes", scalars({1e-3, 2e-3})}};
  return f;
}

}  // namespace

class TestBeta : public DistributionConformance {
  Q_OBJECT

 public:
  TestBeta() : DistributionConformance({beta()}) {}

 private slots:
  // Draws are differentiable in the shapes: the pathwise gradient of the sample mean
  // estimates d/dalpha of alpha / (alpha + beta) = beta / (alpha + beta)^2.
  void samplerIsReparameterized() {
    const at::Tensor alpha = scalar(2.0).requires_grad_(true);
    const at::Tensor beta = scalar(3.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    Beta(alpha, beta).sample({100000}, generator).mean().backward();
    QVERIFY(alpha.grad().defined() && beta.grad().defined());
    const double expected_alpha = 3.0 / 25.0;
    const double expected_beta = -2.0 / 25.0;
    QVERIFY2(std::abs(alpha.grad().item<double>() - expected_alpha) < 0.05 * expected_alpha,
             qPrintable(QString::number(alpha.grad().item<double>(), 'g', 17)));
    QVERIFY2(std::abs(beta.grad().item<double>() - expected_beta) < 0.05 * -expected_beta,
             qPrintable(QString::number(beta.grad().item<double>(), 'g', 17)));
  }
};

QTEST_APPLESS_MAIN(TestBeta)
#include "tst_beta.moc"
