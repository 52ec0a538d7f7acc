// Poisson(lambda) and Poisson(log_rate): the family's tables for the conformance fixture,
// and what is specific to it: the two forms agree, a finite gradient at lambda = 0, and
// factories keep their form.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/poisson.h"

using namespace variate::testing;
using variate::distributions::Poisson;

namespace {

// log k! as a sum of logs, independent of lgamma.
double naive_log_factorial(double k) {
  double total = 0;
  for (int i = 2; i <= static_cast<int>(k); ++i) total += std::log(static_cast<double>(i));
  return total;
}

double naive_log_mass(double k, double lambda) {
  const double k_log_lambda = k == 0 ? 0.0 : k * std::log(lambda);  // 0 log 0 = 0
  return k_log_lambda - lambda - naive_log_factorial(k);
}

double naive_log_rate_log_mass(double k, double alpha) {
  return k * alpha - std::exp(alpha) - naive_log_factorial(k);
}

// What both forms share; members are given by lambda and converted for the log-rate form.
Family common(const char* label, const char* parameter) {
  Family f;
  f.label = label;
  f.name = "Poisson";
  f.parameters = {{parameter}};
  f.support = "nonnegative_integer";
  f.factory_shape = {4};
  const bool log_rate = std::string(label) == "log rate";
  const auto member = [log_rate](double lambda) {
    return scalars({log_rate ? std::log(lambda) : lambda});
  };
  f.outside = outside_at({{"negative", -1.0}, {"fraction", 2.5}, {"infinity", kInf},
                          {"nan", kNaN}, {"far negative", -3.0}, {"half", 0.5}});
  // Moments, and the mass of the values around the mean.
  for (const auto& [name, lambda] : {std::pair{"lambda 4.5", 4.5}, std::pair{"lambda 0.8", 0.8},
                                     std::pair{"lambda 60", 60.0}}) {
    f.moments.push_back({name, member(lambda), scalar(lambda), scalar(lambda)});
    std::vector<double> values;
    for (double k = std::max(0.0, std::floor(lambda) - 3); k <= std::floor(lambda) + 3; ++k) {
      values.push_back(k);
    }
    f.fits.push_back({name, member(lambda), {},
                      [lambda = lambda](double k) { return std::exp(naive_log_mass(k, lambda)); },
                      values});
  }
  f.shapes = {{"[3, 4]", {(log_rate ? at::linspace(-1, 2, 12, at::kDouble)
                                    : at::linspace(0.5, 6, 12, at::kDouble)).reshape({3, 4})},
               {3, 4}, {}, scalar(2)}};
  return f;
}

Family by_rate() {
  Family f = common("rate", "lambda");
  f.make = [](const Parameters& p) { return std::make_shared<Poisson>(p[0]); };
  const auto density = [](const char* name, double k, double lambda) {
    return DensityCase{name, scalars({lambda}), scalar(k), naive_log_mass(k, lambda)};
  };
  f.reference = density("reference", 2, 1.5);
  f.factory = [](std::string name) { return variate::Poisson(std::move(name), 3.0, {4}); };
  f.densities = {
      density("k = 0", 0, 3.5),           density("k = 1", 1, 3.5),
      density("upper tail", 12, 3.5),     density("tiny rate, k = 0", 0, 1e-10),
      density("tiny rate, k = 2", 2, 1e-10), density("large rate", 100, 80),
      density("huge rate", 1000, 1e5),    density("rate 0, k = 0", 0, 0),
      density("rate 0, k = 3", 3, 0),
      // A mass worked out by hand: P(2 | 3) = e^-3 3^2 / 2.
      {"known P(2 | 3)", scalars({3}), scalar(2), -3 + std::log(4.5), 1e-14},
  };
  f.gradients = {{"k = 0", scalars({2.0}), scalar(0)},
                 {"interior", scalars({4.5}), scalar(7)},
                 {"small", scalars({0.01}), scalar(1)}};
  f.invalid = {
      {"negative rate", scalars({-1}), "Poisson: argument 'lambda' must be non-negative, got -1"},
      {"nan rate", scalars({kNaN}), "Poisson: argument 'lambda' must be non-negative, got nan"},
      {"infinite rate", scalars({kInf}), "Poisson: argument 'lambda' must be finite, got inf"},
      {"element located", {vector({1, 2, -1})},
       "Poisson: argument 'lambda' must be non-negative, got -1 (at index [2])"},
  };
  return f;
}

Family by_log_rate() {
  Family f = common("log rate", "log_rate");
  f.make = [](const Parameters& p) { return std::make_shared<Poisson>(variate::LogRate{p[0]}); };
  const auto density = [](const char* name, double k, double alpha) {
    return DensityCase{name, scalars({alpha}), scalar(k), naive_log_rate_log_mass(k, alpha)};
  };
  f.reference = density("reference", 2, 1.5);
  f.factory = [](std::string name) {
    return variate::Poisson(std::move(name), variate::log_rate(at::zeros({4}, at::kDouble)));
  };
  f.densities = {
      density("k = 0 at 0", 0, 0),     density("interior", 4, 1.2),
      density("k = 0 at -30", 0, -30), density("k = 2 at -30", 2, -30),
      density("k = 5 at +30", 5, 30),  density("large count", 250, 5.5),
      {"known P(2 | 3)", scalars({std::log(3.0)}), scalar(2), -3 + std::log(4.5), 1e-14},
  };
  f.gradients = {{"interior", scalars({0.7}), scalar(3)}, {"negative", scalars({-4.0}), scalar(0)}};
  f.invalid = {
      {"infinite log rate", scalars({kInf}), "Poisson: argument 'log_rate' must be finite, got inf"},
      {"nan log rate", scalars({kNaN}), "Poisson: argument 'log_rate' must be finite, got nan"},
      {"element located", {vector({0, -kInf})},
       "Poisson: argument 'log_rate' must be finite, got -inf (at index [1])"},
  };
  return f;
}

}  // namespace

class TestPoisson : public DistributionConformance {
  Q_OBJECT

 public:
  TestPoisson() : DistributionConformance({by_rate(), by_log_rate()}) {}

 private slots:
  void parameterizationsAgree_data() {
    QTest::addColumn<double>("alpha");
    QTest::newRow("negative") << -2.0;
    QTest::newRow("small") << 0.1;
    QTest::newRow("positive") << 3.0;
  }
  void parameterizationsAgree() {
    QFETCH(double, alpha);
    const at::Tensor k = at::arange(0, 30, at::kDouble);
    const at::Tensor by_rate = Poisson(at::exp(scalar(alpha))).log_prob(k);
    const at::Tensor by_log_rate = Poisson(variate::LogRate{scalar(alpha)}).log_prob(k);
    QVERIFY(at::allclose(by_rate, by_log_rate, 1e-12, 1e-12));
  }

  // At lambda = 0 the mass of 0 is 1 and its gradient -1, with no NaN from log(lambda).
  void gradientAtZeroRateIsFinite() {
    const at::Tensor lambda = scalar(0.0).requires_grad_(true);
    Poisson(lambda).log_prob(scalar(0)).backward();
    QCOMPARE(lambda.grad().item<double>(), -1.0);
  }

  void factoriesKeepTheirForm() {
    const auto k = variate::Poisson("k", 3.0, {4});
    QVERIFY(!dynamic_cast<const Poisson&>(k.distribution()).has_log_rate());
    const auto j = variate::Poisson("j", variate::log_rate(at::zeros({2}, at::kDouble)));
    const auto& by_log_rate = dynamic_cast<const Poisson&>(j.distribution());
    QVERIFY(by_log_rate.has_log_rate());
    QVERIFY(at::allclose(by_log_rate.lambda(), at::ones({2}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestPoisson)
#include "tst_poisson.moc"
