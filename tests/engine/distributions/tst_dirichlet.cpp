// Dirichlet(alpha) on the simplex: the family's table for the conformance fixture, and the
// exactness of its draws' sums and its pathwise derivatives.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/dirichlet.h"

using namespace variate::testing;
using variate::distributions::Dirichlet;

namespace {

// The textbook density, term by term in double. The tolerance follows the terms'
// magnitude, since lgamma sums of huge alpha cancel: 1e-13 of it, relative to the result.
DensityCase density(const char* name, const std::vector<double>& alpha,
                    const std::vector<double>& x) {
  double total_alpha = 0, log_density = 0, magnitude = 0;
  for (size_t i = 0; i < alpha.size(); ++i) {
    total_alpha += alpha[i];
    log_density += -std::lgamma(alpha[i]) + (alpha[i] - 1) * std::log(x[i]);
    magnitude += std::abs(std::lgamma(alpha[i])) + std::abs((alpha[i] - 1) * std::log(x[i]));
  }
  log_density += std::lgamma(total_alpha);
  magnitude += std::abs(std::lgamma(total_alpha));
  return {name, {vector(alpha)}, vector(x), log_density,
          1e-13 * std::max(1.0, magnitude) / std::max(1.0, std::abs(log_density))};
}

MomentCase moments(const char* name, const std::vector<double>& alpha) {
  const at::Tensor a = vector(alpha);
  const at::Tensor total = a.sum();
  return {name, {a}, a / total, a * (total - a) / (total * total * (total + 1))};
}

Family dirichlet() {
  Family f;
  f.name = "Dirichlet";
  f.parameters = {{"alpha", 1}};
  f.make = [](const Parameters& p) { return std::make_shared<Dirichlet>(p[0]); };
  // The value moves only inside the simplex: its last entry closes the sum.
  f.constrain = [](Parameters&, at::Tensor& x) {
    const at::Tensor head = x.narrow(-1, 0, x.size(-1) - 1);
    x = at::cat({head, 1 - head.sum(-1, true)}, -1);
  };
  f.reference = density("reference", {1, 2, 3}, {0.2, 0.3, 0.5});
  f.support = "simplex";
  f.factory = [](std::string name) {
    return variate::Dirichlet(std::move(name), vector({1, 2, 3}), {4});
  };
  f.factory_shape = {4, 3};
  f.densities = {
      density("uniform", {1, 1, 1}, {0.2, 0.3, 0.5}),
      density("asymmetric", {2.5, 0.7, 4}, {0.1, 0.6, 0.3}),
      density("two entries (beta)", {2, 5}, {0.3, 0.7}),
      density("tiny alpha", {1e-3, 1e-3, 1e-3}, {0.998, 1e-3, 1e-3}),
      density("huge alpha", {1e4, 2e4, 3e4}, {1.0 / 6, 1.0 / 3, 0.5}),
      density("near a vertex", {0.5, 1.5, 3, 1, 2}, {1e-10, 0.25, 0.25, 0.25, 0.25 - 1e-10}),
      // The sum tolerance is that of a simplex: 1e-10 off is inside.
      density("sum off by 1e-10", {1, 2, 3}, {0.2, 0.3, 0.5 + 1e-10}),
      // A zero entry with alpha = 1 contributes 0 (not 0 log 0 = NaN).
      {"a zero entry with alpha 1", {vector({1, 2, 3})}, vector({0.0, 0.4, 0.6}),
       std::lgamma(6.0) - std::lgamma(2.0) - std::lgamma(3.0) + std::log(0.4) + 2 * std::log(0.6)},
  };
  f.gradients = {
      {"moderate", {vector({2.0, 3.0, 0.5})}, vector({0.2, 0.3, 0.5})},
      {"small alpha", {vector({0.1, 0.4, 0.05})}, vector({0.7, 0.25, 0.05})},
      {"large alpha", {vector({40.0, 15.0, 80.0})}, vector({0.3, 0.1, 0.6})},
  };
  f.outside = {{"sum above 1", vector({0.5, 0.6, 0.1})},
               {"negative entry", vector({-0.1, 0.6, 0.5})},
               {"sum off by 1e-7", vector({0.2, 0.3, 0.5 + 1e-7})}};
  f.invalid = {
      {"zero alpha", {vector({1, 0, 2})},
       "Dirichlet: argument 'alpha' must be positive, got 0 (at index [1])"},
      {"negative alpha", {vector({-1, 1})},
       "Dirichlet: argument 'alpha' must be positive, got -1 (at index [0])"},
      {"nan alpha", {vector({1, kNaN})},
       "Dirichlet: argument 'alpha' must be positive, got nan (at index [1])"},
      {"infinite alpha", {vector({1, kInf})},
       "Dirichlet: argument 'alpha' must be finite, got inf (at index [1])"},
      {"scalar alpha", {scalar(2)},
       "Dirichlet: argument 'alpha' must have at least 1 dimension(s), got shape []"},
      {"value of the wrong size", {vector({1, 2, 3})},
       "Dirichlet: value must end in 3 entries, got shape [2]", vector({0.5, 0.5})},
  };
  f.shapes = {{"alpha [4, 3]", {vector({1, 1, 1, 2, 3, 4, 0.5, 0.5, 0.5, 9, 1, 2}).reshape({4, 3})},
               {4}, {3}, vector({0.2, 0.3, 0.5})}};
  f.moments = {moments("moderate", {2, 3, 5}), moments("small", {0.1, 0.2, 0.3}),
               moments("large, two entries", {50, 150})};
  // Each coordinate of a Dirichlet(a) draw is Beta(a_i, sum(a) - a_i).
  const std::vector<double> a = {0.7, 2.0, 4.5};
  for (int64_t i = 0; i < 3; ++i) {
    const double rest = 7.2 - a[i];
    f.fits.push_back({"coordinate " + std::to_string(i), {vector(a)},
                      [ai = a[i], rest](double x) { return incomplete_beta(ai, rest, x); }, {}, {},
                      [i](const at::Tensor& draws) { return draws.select(-1, i); }});
  }
  f.stress = {{"four entries", {vector({1.5, 2.0, 0.5, 4.0})}}};
  return f;
}

}  // namespace

class TestDirichlet : public DistributionConformance {
  Q_OBJECT

 public:
  TestDirichlet() : DistributionConformance({dirichlet()}) {}

 private slots:
  // Normalized gammas sum to 1 to rounding, far inside the support's 1e-8.
  void drawsSumToOneToRounding() {
    for (const auto& alpha : {vector({2, 3, 5}), vector({0.1, 0.2, 0.3}), vector({50, 150})}) {
      at::Generator generator = at::detail::createCPUGenerator(42);
      const at::Tensor draws = Dirichlet(alpha).sample({100000}, generator);
      QVERIFY((at::abs(draws.sum(-1) - 1) < 1e-12).all().item<bool>());
    }
  }

  void samplerIsReparameterized() {
    // d E[x_1] / d alpha_j = (delta_1j A - alpha_1) / A^2 with A = sum alpha, estimated from
    // pathwise gradients in 100 independent batches so the standard error is known.
    at::Generator generator = at::detail::createCPUGenerator(11);
    std::vector<at::Tensor> estimates;
    for (int batch = 0; batch < 100; ++batch) {
      const at::Tensor a = vector({2.0, 3.0, 5.0}).requires_grad_(true);
      Dirichlet(a).sample({2000}, generator).select(-1, 0).mean().backward();
      estimates.push_back(a.grad().clone());
    }
    const at::Tensor all = at::stack(estimates);
    const at::Tensor mean = all.mean(0);
    const at::Tensor standard_error = all.std(0) / std::sqrt(100.0);
    const at::Tensor expected = vector({8.0 / 100, -2.0 / 100, -2.0 / 100});
    QVERIFY2((at::abs(mean - expected) <= 5 * standard_error).all().item<bool>(),
             qPrintable(QString("pathwise gradient %1 %2 %3")
                            .arg(mean[0].item<double>()).arg(mean[1].item<double>())
                            .arg(mean[2].item<double>())));
  }
};

QTEST_APPLESS_MAIN(TestDirichlet)
#include "tst_dirichlet.moc"
