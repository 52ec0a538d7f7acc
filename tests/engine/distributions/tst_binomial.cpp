// Binomial(N, theta) and Binomial(N, logits): the family's tables for the conformance
// fixture, and what is specific to it: the two forms agree, masses known by hand, a
// finite gradient at theta = 0, per-element support bounds, factories keep their form.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/binomial.h"

using namespace variate::testing;
using variate::distributions::Binomial;

namespace {

// log C(N, k) as a sum of logs, independent of lgamma.
double naive_log_choose(double N, double k) {
  double total = 0;
  for (int i = 1; i <= static_cast<int>(k); ++i) total += std::log((N - k + i) / i);
  return total;
}

// k log(theta) with 0 log 0 = 0.
double times_log(double k, double theta) { return k == 0 ? 0.0 : k * std::log(theta); }

double naive_log_mass(double k, double N, double theta) {
  return naive_log_choose(N, k) + times_log(k, theta) + times_log(N - k, 1 - theta);
}

double naive_logit_log_mass(double k, double N, double eta) {
  return naive_log_choose(N, k) - k * std::log1p(std::exp(-eta)) -
         (N - k) * std::log1p(std::exp(eta));
}

// What both forms share; members are given by (N, theta) and converted for the logits form.
Family common(const char* label) {
  Family f;
  f.label = label;
  f.name = "Binomial";
  const bool logits = std::string(label) == "logits";
  f.parameters = {{"N", 0, Parameter::Role::Count}, {label}};
  f.support = "integer_interval(0, 5)";
  f.tolerance = 1e-11;
  f.factory_shape = {4};
  const auto member = [logits](double N, double theta) {
    return scalars({N, logits ? std::log(theta / (1 - theta)) : theta});
  };
  // Moments, and the mass of the values around the mean.
  for (const auto& [name, N, theta] : {std::tuple{"N 20, theta 0.3", 20.0, 0.3},
                                       std::tuple{"N 12, theta 0.8", 12.0, 0.8},
                                       std::tuple{"many trials", 500.0, 0.05}}) {
    f.moments.push_back({name, member(N, theta), scalar(N * theta), scalar(N * theta * (1 - theta))});
    std::vector<double> values;
    const double mode = std::floor(N * theta);
    for (double k = std::max(0.0, mode - 3); k <= std::min(N, mode + 3); ++k) values.push_back(k);
    const auto mass = [N = N, theta = theta](double k) {
      return std::exp(naive_log_mass(k, N, theta));
    };
    f.fits.push_back({name, member(N, theta), {}, mass, values});
  }
  f.shapes = {{"N [3, 1], [4]", {vector({5, 10, 20}).reshape({3, 1}),
                                 logits ? vector({-2, 0, 1, 3}) : vector({0.1, 0.5, 0.7, 0.9})},
               {3, 4}, {}, scalar(2)}};
  return f;
}

Family by_theta() {
  Family f = common("theta");
  f.make = [](const Parameters& p) { return std::make_shared<Binomial>(p[0], p[1]); };
  const auto density = [](const char* name, double k, double N, double theta) {
    return DensityCase{name, scalars({N, theta}), scalar(k), naive_log_mass(k, N, theta)};
  };
  f.reference = density("reference", 2, 5, 0.4);
  f.factory = [](std::string name) { return variate::Binomial(std::move(name), 10, 0.3, {4}); };
  f.densities = {
      density("k = 0", 0, 10, 0.3),
      density("k = N", 10, 10, 0.3),
      density("interior", 3, 10, 0.3),
      density("one trial", 1, 1, 0.75),
      density("theta near 0, k = 0", 0, 50, 1e-12),
      density("theta near 0, k = 2", 2, 50, 1e-12),
      density("theta near 1, k = N", 50, 50, 1 - 1e-12),
      density("many trials", 470, 1000, 0.47),
      density("theta 0, k = 0", 0, 5, 0),
      density("theta 0, k = 1", 1, 5, 0),
      density("theta 1, k = N", 5, 5, 1),
      density("theta 1, k = N - 1", 4, 5, 1),
      density("no trials", 0, 0, 0.6),
      // Masses worked out by hand: C(4, 2) / 16 and C(5, 1) 0.2 0.8^4.
      {"known C(4, 2) / 16", scalars({4, 0.5}), scalar(2), std::log(0.375), 1e-14},
      {"known C(5, 1) 0.2 0.8^4", scalars({5, 0.2}), scalar(1), std::log(0.4096), 1e-14},
      // Trial counts given as integers work too.
      {"int64 trial count", {at::tensor({4}, at::kLong), vector({0.5})}, scalar(2),
       std::log(0.375), 1e-14},
  };
  f.gradients = {
      {"interior", scalars({10, 0.35}), scalar(3)},
      {"k = 0", scalars({6, 0.8}), scalar(0)},
      {"k = N", scalars({6, 0.1}), scalar(6)},
  };
  f.outside = outside_at({{"negative", -1.0}, {"above N", 6.0}, {"fraction", 2.5},
                          {"infinity", kInf}, {"nan", kNaN}});
  f.invalid = {
      {"negative N", scalars({-1, 0.5}),
       "Binomial: argument 'N' must be a non-negative integer, got -1"},
      {"fractional N", scalars({2.5, 0.5}),
       "Binomial: argument 'N' must be a non-negative integer, got 2.5"},
      {"infinite N", scalars({kInf, 0.5}), "Binomial: argument 'N' must be finite, got inf"},
      {"theta above 1", scalars({3, 1.5}), "Binomial: argument 'theta' must be in [0, 1], got 1.5"},
      {"negative theta", scalars({3, -0.25}),
       "Binomial: argument 'theta' must be in [0, 1], got -0.25"},
      {"element located", {vector({3, 4, 1.5}), scalar(0.5)},
       "Binomial: argument 'N' must be a non-negative integer, got 1.5 (at index [2])"},
  };
  return f;
}

Family by_logits() {
  Family f = common("logits");
  f.make = [](const Parameters& p) {
    return std::make_shared<Binomial>(p[0], variate::Logits{p[1]});
  };
  const auto density = [](const char* name, double k, double N, double eta) {
    return DensityCase{name, scalars({N, eta}), scalar(k), naive_logit_log_mass(k, N, eta)};
  };
  f.reference = density("reference", 2, 5, 0.5);
  f.factory = [](std::string name) {
    return variate::Binomial(std::move(name), at::tensor({3, 5, 2, 1}, at::kLong),
                             variate::logits(0.0));
  };
  f.densities = {
      density("k = 0", 0, 8, 0.4),
      density("k = N", 8, 8, 0.4),
      density("interior, negative", 2, 12, -1.7),
      density("k = 0 at -30", 0, 20, -30),
      density("k = N at +30", 20, 20, 30),
      density("k = 3 at +30", 3, 20, 30),
      density("k = 3 at -30", 3, 20, -30),
      {"known C(4, 2) / 16", scalars({4, 0}), scalar(2), std::log(0.375), 1e-14},
  };
  f.gradients = {{"interior", scalars({9, -0.6}), scalar(7)}, {"far", scalars({9, 20}), scalar(2)}};
  f.outside = outside_at({{"above N", 6.0}, {"fraction", 0.5}});
  f.invalid = {
      {"fractional N", scalars({0.5, 0}),
       "Binomial: argument 'N' must be a non-negative integer, got 0.5"},
      {"nan logit", scalars({3, kNaN}), "Binomial: argument 'logits' must be finite, got nan"},
      {"element located", {scalar(3), vector({0, kInf})},
       "Binomial: argument 'logits' must be finite, got inf (at index [1])"},
  };
  return f;
}

}  // namespace

class TestBinomial : public DistributionConformance {
  Q_OBJECT

 public:
  TestBinomial() : DistributionConformance({by_theta(), by_logits()}) {}

 private slots:
  void parameterizationsAgree_data() {
    QTest::addColumn<double>("eta");
    QTest::newRow("negative") << -2.2;
    QTest::newRow("small") << 0.3;
    QTest::newRow("positive") << 4.0;
  }
  void parameterizationsAgree() {
    QFETCH(double, eta);
    const at::Tensor k = at::arange(0, 8, at::kDouble);
    const at::Tensor by_theta = Binomial(scalar(7), at::sigmoid(scalar(eta))).log_prob(k);
    const at::Tensor by_logits = Binomial(scalar(7), variate::Logits{scalar(eta)}).log_prob(k);
    QVERIFY(at::allclose(by_theta, by_logits, 1e-12, 1e-12));
  }

  // At theta = 0 and k = 0, log mass N log(1 - theta) has gradient -N, with no NaN.
  void gradientAtBoundaryIsFinite() {
    const at::Tensor theta = scalar(0.0).requires_grad_(true);
    Binomial(scalar(7), theta).log_prob(scalar(0)).backward();
    QCOMPARE(theta.grad().item<double>(), -7.0);
  }

  void supportBoundsArePerElement() {
    const variate::Support support =
        Binomial(at::full({3, 1}, 10.0, at::kDouble), at::full({4}, 0.5, at::kDouble)).support();
    QCOMPARE(support.kind(), variate::Support::Kind::IntegerInterval);
    QCOMPARE(support.lower().item<double>(), 0.0);
    QCOMPARE(support.upper().sizes(), (c10::IntArrayRef{3, 4}));
    QCOMPARE(support.upper()[2][1].item<double>(), 10.0);
  }

  void factoriesKeepTheirForm() {
    const auto k = variate::Binomial("k", 10, 0.3, {4});
    QVERIFY(!dynamic_cast<const Binomial&>(k.distribution()).has_logits());
    const auto j = variate::Binomial("j", at::tensor({3, 5}, at::kLong), variate::logits(0.0));
    const auto& by_logits = dynamic_cast<const Binomial&>(j.distribution());
    QVERIFY(by_logits.has_logits());
    QVERIFY(at::equal(by_logits.N(), vector({3.0, 5.0})));
  }
};

QTEST_APPLESS_MAIN(TestBinomial)
#include "tst_binomial.moc"
