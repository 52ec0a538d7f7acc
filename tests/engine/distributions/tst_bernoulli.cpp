// Bernoulli(theta) and Bernoulli(logits): the family's tables for the conformance fixture,
// and what is specific to it: the two forms agree, log(1 - theta) keeps its precision,
// theta = 0 has a finite gradient, and factories keep their form.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/bernoulli.h"

using namespace variate::testing;
using variate::distributions::Bernoulli;

namespace {

double naive_log_mass(double y, double theta) { return std::log(y == 1 ? theta : 1 - theta); }

// log inv_logit(eta) = -log(1 + exp(-eta)) and log(1 - inv_logit(eta)) = -log(1 + exp(eta)).
double naive_logit_log_mass(double y, double eta) {
  return y == 1 ? -std::log1p(std::exp(-eta)) : -std::log1p(std::exp(eta));
}

// What both forms share; `parameter` is theta or the logit of the same probability.
Family common(const char* label, const char* parameter, double theta) {
  Family f;
  f.label = label;
  f.name = "Bernoulli";
  f.parameters = {{parameter}};
  f.support = "boolean";
  f.factory_shape = {5};
  f.outside = outside_at({{"two", 2.0}, {"minus one", -1.0}, {"half", 0.5}, {"nan", kNaN}});
  const bool logits = std::string(label) == "logits";
  const auto member = [logits](double p) {
    return scalars({logits ? std::log(p / (1 - p)) : p});
  };
  f.moments = {{"theta " + std::to_string(theta), member(theta), scalar(theta),
                scalar(theta * (1 - theta))}};
  f.fits = {{"theta " + std::to_string(theta), member(theta), {},
             [theta](double y) { return y == 1 ? theta : 1 - theta; }, {0, 1}}};
  f.shapes = {{"[3, 4]", {logits ? at::linspace(-3, 3, 12, at::kDouble).reshape({3, 4})
                                 : at::linspace(0.05, 0.95, 12, at::kDouble).reshape({3, 4})},
               {3, 4}, {}, scalar(0)}};
  return f;
}

Family by_theta() {
  Family f = common("theta", "theta", 0.3);
  f.make = [](const Parameters& p) { return std::make_shared<Bernoulli>(p[0]); };
  const auto density = [](const char* name, double y, double theta) {
    return DensityCase{name, scalars({theta}), scalar(y), naive_log_mass(y, theta)};
  };
  f.reference = density("reference", 1, 0.3);
  // The mass is log(theta) or log1p(-theta) in the parameter's dtype; y only selects it.
  f.float64_value_gives = at::kFloat;
  f.factory = [](std::string name) { return variate::Bernoulli(std::move(name), 0.2, {5}); };
  f.densities = {
      density("one", 1, 0.3),                  density("zero", 0, 0.3),
      density("one, theta near 0", 1, 1e-12),  density("zero, theta near 0", 0, 1e-12),
      density("one, theta near 1", 1, 1 - 1e-12), density("zero, theta near 1", 0, 1 - 1e-12),
      density("zero, theta 0", 0, 0),          density("one, theta 0", 1, 0),
      density("one, theta 1", 1, 1),           density("zero, theta 1", 0, 1),
  };
  f.gradients = {{"one", scalars({0.3}), scalar(1)}, {"zero", scalars({0.9}), scalar(0)}};
  f.invalid = {
      {"negative theta", scalars({-0.5}), "Bernoulli: argument 'theta' must be in [0, 1], got -0.5"},
      {"theta above 1", scalars({1.5}), "Bernoulli: argument 'theta' must be in [0, 1], got 1.5"},
      {"nan theta", scalars({kNaN}), "Bernoulli: argument 'theta' must be in [0, 1], got nan"},
      {"element located", {vector({0.5, 0.2, 1.5})},
       "Bernoulli: argument 'theta' must be in [0, 1], got 1.5 (at index [2])"},
  };
  return f;
}

Family by_logits() {
  Family f = common("logits", "logits", 0.85);
  f.make = [](const Parameters& p) { return std::make_shared<Bernoulli>(variate::Logits{p[0]}); };
  const auto density = [](const char* name, double y, double eta) {
    return DensityCase{name, scalars({eta}), scalar(y), naive_logit_log_mass(y, eta)};
  };
  f.reference = density("reference", 1, 0.4);
  f.factory = [](std::string name) {
    return variate::Bernoulli(std::move(name), variate::logits(at::zeros({5}, at::kDouble)));
  };
  f.densities = {
      density("one at 0", 1, 0),        density("zero at 0", 0, 0),
      density("one, positive", 1, 2.5), density("zero, negative", 0, -1.25),
      density("one at +30", 1, 30),     density("zero at +30", 0, 30),
      density("one at -30", 1, -30),    density("zero at -30", 0, -30),
      density("one at -700", 1, -700),
  };
  f.gradients = {{"one", scalars({-2.0}), scalar(1)},
                 {"zero", scalars({1.5}), scalar(0)},
                 {"zero, far", scalars({25.0}), scalar(0)}};
  f.invalid = {
      {"infinite logit", scalars({kInf}), "Bernoulli: argument 'logits' must be finite, got inf"},
      {"nan logit", scalars({kNaN}), "Bernoulli: argument 'logits' must be finite, got nan"},
      {"element located", {vector({0, -kInf})},
       "Bernoulli: argument 'logits' must be finite, got -inf (at index [1])"},
  };
  return f;
}

}  // namespace

class TestBernoulli : public DistributionConformance {
  Q_OBJECT

 public:
  TestBernoulli() : DistributionConformance({by_theta(), by_logits()}) {}

 private slots:
  void parameterizationsAgree_data() {
    QTest::addColumn<double>("eta");
    QTest::newRow("negative") << -3.0;
    QTest::newRow("small") << 0.4;
    QTest::newRow("positive") << 5.0;
  }
  void parameterizationsAgree() {
    QFETCH(double, eta);
    const at::Tensor y = vector({0.0, 1.0});
    const at::Tensor by_theta = Bernoulli(at::sigmoid(scalar(eta))).log_prob(y);
    const at::Tensor by_logits = Bernoulli(variate::Logits{scalar(eta)}).log_prob(y);
    QVERIFY(at::allclose(by_theta, by_logits, 1e-12, 1e-14));
  }

  // Tiny probabilities keep their precision in log(1 - theta).
  void logOneMinusThetaIsAccurate() {
    const double got = Bernoulli(scalar(1e-20)).log_prob(scalar(0.0)).item<double>();
    QVERIFY2(std::abs(got + 1e-20) <= 1e-12 * 1e-20, qPrintable(QString::number(got, 'g', 17)));
  }

  // At theta = 0 the mass of 0 is 1 and its gradient is -1, with no NaN from log(theta).
  void gradientAtBoundaryIsFinite() {
    const at::Tensor theta = scalar(0.0).requires_grad_(true);
    Bernoulli(theta).log_prob(scalar(0.0)).backward();
    QCOMPARE(theta.grad().item<double>(), -1.0);
  }

  void factoriesKeepTheirForm() {
    const auto y = variate::Bernoulli("y", 0.2);
    const auto& by_theta = dynamic_cast<const Bernoulli&>(y.distribution());
    QVERIFY(!by_theta.has_logits());
    QCOMPARE(by_theta.theta().item<double>(), 0.2);
    const auto z = variate::Bernoulli("z", variate::logits(at::zeros({3}, at::kDouble)));
    const auto& by_logits = dynamic_cast<const Bernoulli&>(z.distribution());
    QVERIFY(by_logits.has_logits());
    QVERIFY(at::allclose(by_logits.theta(), at::full({3}, 0.5, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestBernoulli)
#include "tst_bernoulli.moc"
