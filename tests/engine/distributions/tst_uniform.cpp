// Uniform(alpha, beta) on the closed interval: the family's table for the conformance
// fixture, its per-element support, and the pathwise derivatives of its draws.

#include <algorithm>

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "tests/support/gradient_check.h"
#include "engine/distributions/uniform.h"

using namespace variate::testing;
using variate::distributions::Uniform;

namespace {

double naive_log_density(double lower, double upper) { return std::log(1.0 / (upper - lower)); }

DensityCase density(const char* name, double x, double alpha, double beta) {
  return {name, scalars({alpha, beta}), scalar(x), naive_log_density(alpha, beta)};
}

OutsideCase outside(const char* name, double x, double alpha, double beta) {
  return {name, scalar(x), scalars({alpha, beta})};
}

Family uniform() {
  Family f;
  f.name = "Uniform";
  f.parameters = {{"alpha"}, {"beta"}};
  f.make = [](const Parameters& p) { return std::make_shared<Uniform>(p[0], p[1]); };
  f.reference = density("reference", 0.3, -1.0, 3.0);
  f.support = "interval(-1, 3)";
  // The density is -log(beta - alpha) in the parameters' dtype; x only selects it.
  f.float64_value_gives = at::kFloat;
  f.factory = [](std::string name) { return variate::Uniform(std::move(name), -1.0, 1.0, {2, 3}); };
  f.factory_shape = {2, 3};
  f.densities = {
      density("unit interval", 0.3, 0.0, 1.0),
      density("wide", -7.0, -10.0, 90.0),
      density("narrow", 1.0 + 1e-7, 1.0, 1.0 + 1e-6),
      density("lower endpoint", 2.0, 2.0, 5.0),
      density("upper endpoint", 5.0, 2.0, 5.0),
      // A density given by hand, so a wrong sign or a swapped bound cannot agree with it.
      {"known value", scalars({-1, 3}), scalar(0.0), -std::log(4.0)},
  };
  f.gradients = {
      {"unit", scalars({0.0, 1.0}), scalar(0.4)},
      {"shifted", scalars({-5.0, 2.5}), scalar(-3.0)},
      {"narrow", scalars({9.9, 10.2}), scalar(10.0)},
  };
  f.outside = {outside("below", 1.999, 2, 5),    outside("above", 5.001, 2, 5),
               outside("infinity", kInf, 2, 5),  outside("nan", kNaN, 2, 5),
               outside("above the unit interval", 2.0, 0, 1)};
  f.invalid = {
      {"equal bounds", scalars({1, 1}), "Uniform: argument 'alpha' must be less than 'beta', got 1"},
      {"swapped bounds", scalars({3, -2}),
       "Uniform: argument 'alpha' must be less than 'beta', got 3"},
      {"infinite alpha", scalars({-kInf, 1}), "Uniform: argument 'alpha' must be finite, got -inf"},
      {"nan beta", scalars({0, kNaN}), "Uniform: argument 'beta' must be finite, got nan"},
      {"element located", {at::zeros({3}, at::kDouble), vector({1, 0, 2})},
       "Uniform: argument 'alpha' must be less than 'beta', got 0 (at index [1])"},
  };
  f.shapes = {{"alpha [3, 1], beta [4]", {at::zeros({3, 1}, at::kDouble), vector({1, 2, 3, 4})},
               {3, 4}, {}, scalar(0.5)}};
  f.moments = {{"alpha -2, beta 6", scalars({-2, 6}), scalar(2.0), scalar(64.0 / 12.0)}};
  f.fits = {{"alpha 1, beta 4", scalars({1, 4}),
             [](double x) { return std::clamp((x - 1) / 3, 0.0, 1.0); }}};
  return f;
}

}  // namespace

class TestUniform : public DistributionConformance {
  Q_OBJECT

 public:
  TestUniform() : DistributionConformance({uniform()}) {}

 private slots:
  // d/dalpha = 1 / (beta - alpha): nonzero, so the finite-difference comparison is not
  // vacuous for a density that does not depend on x.
  void gradientInAlphaIsTheInverseWidth() {
    const auto log_prob = [](const at::Tensor& p) { return Uniform(p[1], p[2]).log_prob(p[0]); };
    for (const auto& point : {vector({0.4, 0.0, 1.0}), vector({-3.0, -5.0, 2.5}),
                              vector({10.0, 9.9, 10.2})}) {
      const double width = (point[2] - point[1]).item<double>();
      const at::Tensor gradient = autograd_gradient(log_prob, point);
      QVERIFY(std::abs(gradient[1].item<double>() - 1.0 / width) < 1e-9 / width);
    }
  }

  void supportBoundsArePerElement() {
    const variate::Support support =
        Uniform(at::zeros({3, 1}, at::kDouble), vector({1, 2, 3, 4})).support();
    QCOMPARE(support.kind(), variate::Support::Kind::Interval);
    QCOMPARE(support.upper().sizes(), (c10::IntArrayRef{3, 4}));
    QCOMPARE(support.upper()[0][3].item<double>(), 4.0);
  }

  // x = alpha + (beta - alpha) u: dx/dalpha = 1 - u and dx/dbeta = u.
  void samplerIsReparameterized() {
    const at::Tensor alpha = scalar(1.0).requires_grad_(true);
    const at::Tensor beta = scalar(4.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor draws = Uniform(alpha, beta).sample({1000}, generator);
    draws.sum().backward();
    const at::Tensor u = (draws.detach() - 1.0) / 3.0;
    QVERIFY(at::allclose(alpha.grad(), (1 - u).sum()));
    QVERIFY(at::allclose(beta.grad(), u.sum()));
  }
};

QTEST_APPLESS_MAIN(TestUniform)
#include "tst_uniform.moc"
