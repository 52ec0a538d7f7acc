// Categorical(theta) and Categorical(logits) over the 1-based categories 1..K: the family's
// tables for the conformance fixture, and what is specific to it: the forms agree (logits
// are unnormalized), a zero probability leaves the gradient finite, and factories keep
// their form.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/categorical.h"

using namespace variate::testing;
using variate::distributions::Categorical;

namespace {

double naive_log_mass(double k, const std::vector<double>& theta) {
  return std::log(theta[static_cast<size_t>(k) - 1]);
}

double naive_logit_log_mass(double k, const std::vector<double>& eta) {
  double normalizer = 0;
  for (const double e : eta) normalizer += std::exp(e);
  return eta[static_cast<size_t>(k) - 1] - std::log(normalizer);
}

// Two batch members with different probabilities, so that rows cannot be mixed up.
const std::vector<std::vector<double>> kRows = {{0.2, 0.5, 0.3}, {0.6, 0.1, 0.3}};

Family common(const char* label, const char* parameter) {
  Family f;
  f.label = label;
  f.name = "Categorical";
  f.parameters = {{parameter, 1}};
  f.support = "integer_interval(1, 3)";
  // The mass is gathered from the parameter's table in its dtype; x only indexes it.
  f.float64_value_gives = at::kFloat;
  f.factory_shape = {7};
  const bool logits = std::string(label) == "logits";
  const at::Tensor theta = at::stack({vector(kRows[0]), vector(kRows[1])});
  const Parameters member = {logits ? at::log(theta) : theta};
  const at::Tensor values = at::arange(1, 4, at::kDouble);
  const at::Tensor mean = (theta * values).sum(-1);
  f.moments = {{"two rows", member, mean, (theta * values * values).sum(-1) - mean * mean}};
  for (int64_t row = 0; row < 2; ++row) {
    f.fits.push_back({"row " + std::to_string(row), member, {},
                      [row](double k) { return kRows[row][static_cast<size_t>(k) - 1]; },
                      {1, 2, 3},
                      [row](const at::Tensor& draws) { return draws.select(1, row); }});
  }
  const at::Tensor shape_theta =
      at::softmax(at::linspace(-2, 2, 24, at::kDouble).sin().reshape({4, 2, 3}), -1);
  f.shapes = {{"[4, 2, 3]", {logits ? at::log(shape_theta) + 1.5 : shape_theta}, {4, 2}, {},
               scalar(2)}};
  f.outside = outside_at({{"zero (values are 1-based)", 0.0}, {"K + 1", 4.0}, {"negative", -1.0},
                          {"fraction", 1.5}, {"infinity", kInf}, {"nan", kNaN}});
  return f;
}

Family by_theta() {
  Family f = common("theta", "theta");
  f.make = [](const Parameters& p) { return std::make_shared<Categorical>(p[0]); };
  // Finite differences step off the simplex; normalizing brings them back.
  f.constrain = [](Parameters& p, at::Tensor&) { p[0] = p[0] / p[0].sum(-1, true); };
  const auto density = [](const char* name, double k, const std::vector<double>& theta) {
    return DensityCase{name, {vector(theta)}, scalar(k), naive_log_mass(k, theta)};
  };
  f.reference = density("reference", 2, {0.2, 0.5, 0.3});
  f.factory = [](std::string name) {
    return variate::Categorical(std::move(name), at::full({3}, 1.0 / 3, at::kDouble), {7});
  };
  f.densities = {
      density("first", 1, {0.2, 0.5, 0.3}),
      density("middle", 2, {0.2, 0.5, 0.3}),
      density("last", 3, {0.2, 0.5, 0.3}),
      density("probability near 0", 1, {1e-12, 1 - 1e-12}),
      density("probability near 1", 2, {1e-12, 1 - 1e-12}),
      density("one category", 1, {1.0}),
      density("zero probability", 2, {0.5, 0.0, 0.5}),
  };
  f.gradients = {{"theta", {vector({0.2, 0.5, 0.3})}, scalar(2)},
                 {"small entry", {vector({0.01, 0.99})}, scalar(1)}};
  f.invalid = {
      {"sum above 1", {vector({0.5, 0.75})},
       "Categorical: argument 'theta' must be a simplex (entries summing to 1), got sum 1.25"},
      {"negative entry", {vector({-0.5, 1.5})},
       "Categorical: argument 'theta' must be a simplex (non-negative entries), got -0.5 (at index [0])"},
      {"scalar theta", {scalar(1)},
       "Categorical: argument 'theta' must have at least 1 dimension(s), got shape []"},
  };
  return f;
}

Family by_logits() {
  Family f = common("logits", "logits");
  f.make = [](const Parameters& p) { return std::make_shared<Categorical>(variate::Logits{p[0]}); };
  const auto density = [](const char* name, double k, const std::vector<double>& eta) {
    return DensityCase{name, {vector(eta)}, scalar(k), naive_logit_log_mass(k, eta)};
  };
  f.reference = density("reference", 3, {1.0, -2.0, 0.5});
  f.factory = [](std::string name) {
    return variate::Categorical(std::move(name), variate::logits(at::zeros({7, 4}, at::kDouble)));
  };
  f.densities = {
      density("uniform", 2, {0.0, 0.0, 0.0, 0.0}),
      density("first", 1, {1.0, -2.0, 0.5}),
      density("last", 3, {1.0, -2.0, 0.5}),
      density("dominant at +30", 3, {1.0, -2.0, 30.0}),
      density("dominated at -30", 1, {-30.0, 0.0, 2.0}),
      density("shifted", 2, {101.0, 98.0, 100.0}),
  };
  f.gradients = {{"logits", {vector({1.0, -2.0, 0.5})}, scalar(3)},
                 {"far", {vector({-20.0, 3.0})}, scalar(1)}};
  f.invalid = {
      {"infinite logit", {vector({0, kInf})},
       "Categorical: argument 'logits' must be finite, got inf (at index [1])"},
      {"scalar logits", {scalar(1)},
       "Categorical: argument 'logits' must have at least 1 dimension(s), got shape []"},
  };
  return f;
}

}  // namespace

class TestCategorical : public DistributionConformance {
  Q_OBJECT

 public:
  TestCategorical() : DistributionConformance({by_theta(), by_logits()}) {}

 private slots:
  void parameterizationsAgree() {
    const at::Tensor eta = vector({0.3, -1.2, 2.0, 0.0});
    const at::Tensor k = at::arange(1, 5, at::kDouble);
    const at::Tensor by_theta = Categorical(at::softmax(eta, -1)).log_prob(k);
    const at::Tensor by_logits = Categorical(variate::Logits{eta}).log_prob(k);
    QVERIFY(at::allclose(by_theta, by_logits, 1e-12, 1e-14));
    // Logits are unnormalized: adding a constant changes nothing.
    QVERIFY(at::allclose(Categorical(variate::Logits{eta + 7.5}).log_prob(k), by_logits,
                         1e-12, 1e-14));
  }

  // A zero probability that is not picked leaves the gradient finite: d/dtheta is 1/theta_k
  // at the picked entry and 0 elsewhere.
  void gradientWithZeroProbabilityIsFinite() {
    const at::Tensor theta = vector({0.0, 0.4, 0.6}).requires_grad_(true);
    Categorical(theta).log_prob(scalar(2)).backward();
    QVERIFY(at::allclose(theta.grad(), vector({0.0, 2.5, 0.0})));
  }

  void factoriesKeepTheirForm() {
    const auto z = variate::Categorical("z", at::full({3}, 1.0 / 3, at::kDouble), {7});
    QVERIFY(!dynamic_cast<const Categorical&>(z.distribution()).has_logits());
    const auto w = variate::Categorical("w", variate::logits(at::zeros({5, 4}, at::kDouble)));
    const auto& by_logits = dynamic_cast<const Categorical&>(w.distribution());
    QVERIFY(by_logits.has_logits());
    QCOMPARE(by_logits.num_categories(), int64_t{4});
    QVERIFY(at::allclose(by_logits.theta(), at::full({5, 4}, 0.25, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestCategorical)
#include "tst_categorical.moc"
