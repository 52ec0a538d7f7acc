// NegBinomial2(mu, phi): the family's table for the conformance fixture, including the
// large-phi limit where it nears Poisson(mu).

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/neg_binomial_2.h"

using namespace variate::testing;
using variate::distributions::NegBinomial2;

namespace {

// log [Gamma(k + phi) / (Gamma(k + 1) Gamma(phi))] as a sum of logs, independent of lgamma:
// the product of (phi + i) / (i + 1) for i = 0..k-1.
double naive_log_choose(double k, double phi) {
  double total = 0;
  for (int i = 0; i < static_cast<int>(k); ++i) total += std::log((phi + i) / (i + 1));
  return total;
}

double naive_log_mass(double k, double mu, double phi) {
  return naive_log_choose(k, phi) + k * std::log(mu / (mu + phi)) + phi * std::log(phi / (mu + phi));
}

DensityCase density(const char* name, double k, double mu, double phi) {
  return {name, scalars({mu, phi}), scalar(k), naive_log_mass(k, mu, phi)};
}

Family neg_binomial_2() {
  Family f;
  f.name = "NegBinomial2";
  f.parameters = {{"mu"}, {"phi"}};
  f.make = [](const Parameters& p) { return std::make_shared<NegBinomial2>(p[0], p[1]); };
  f.reference = density("reference", 3, 2.0, 3.0);
  f.support = "nonnegative_integer";
  f.tolerance = 1e-11;
  f.factory = [](std::string name) {
    return variate::NegBinomial2(std::move(name), 3.0, 2.0, {6});
  };
  f.factory_shape = {6};
  // As phi grows the distribution tends to Poisson(mu); lgamma(k + phi) - lgamma(phi)
  // computed naively would be off by ~1e-6 here.
  const double poisson = 4 * std::log(3.0) - 3 - std::log(24.0);
  f.densities = {
      density("k = 0", 0, 2, 3),               density("interior", 5, 2, 3),
      density("parameters swapped", 5, 3, 2),  density("overdispersed tail", 20, 10, 0.5),
      density("tiny mean, k = 0", 0, 1e-3, 100), density("tiny mean, k = 1", 1, 1e-3, 100),
      density("near Poisson", 3, 4, 1e4),      density("large counts", 50, 40, 1e3),
      density("tiny phi", 7, 5, 0.01),
      // Masses worked out by hand. phi = 1 is the geometric distribution:
      // P(k) = (1 / (1 + mu)) (mu / (1 + mu))^k, so P(3 | mu = 2) = 8 / 81.
      // P(1 | mu = 1, phi = 2) = 2 (1/3) (2/3)^2 = 8 / 27.
      {"known geometric P(3 | 2)", scalars({2, 1}), scalar(3), std::log(8.0 / 81), 1e-14},
      {"known P(1 | 1, 2)", scalars({1, 2}), scalar(1), std::log(8.0 / 27), 1e-14},
      {"phi 1e9 is Poisson(3)", scalars({3, 1e9}), scalar(4), poisson, 1e-7 / std::abs(poisson)},
  };
  f.gradients = {
      {"k = 0", scalars({2.0, 3.0}), scalar(0)},
      {"interior", scalars({4.0, 1.5}), scalar(6)},
      {"overdispersed", scalars({10.0, 0.3}), scalar(30)},
      {"near Poisson", scalars({5.0, 500.0}), scalar(2)},
  };
  f.outside = outside_at({{"negative", -1.0}, {"fraction", 1.5}, {"infinity", kInf},
                          {"nan", kNaN}, {"far negative", -2.0}});
  f.invalid = {
      {"zero mu", scalars({0, 1}), "NegBinomial2: argument 'mu' must be positive, got 0"},
      {"negative mu", scalars({-3, 1}), "NegBinomial2: argument 'mu' must be positive, got -3"},
      {"infinite mu", scalars({kInf, 1}), "NegBinomial2: argument 'mu' must be finite, got inf"},
      {"zero phi", scalars({1, 0}), "NegBinomial2: argument 'phi' must be positive, got 0"},
      {"infinite phi", scalars({1, kInf}), "NegBinomial2: argument 'phi' must be finite, got inf"},
      {"nan phi", scalars({1, kNaN}), "NegBinomial2: argument 'phi' must be positive, got nan"},
      {"element located", {scalar(2), vector({1, 2, -1})},
       "NegBinomial2: argument 'phi' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"mu [3, 1], phi [4]", {vector({0.5, 2, 9}).reshape({3, 1}), vector({0.5, 1, 5, 40})},
               {3, 4}, {}, scalar(2)}};
  // Moments, and the mass of the values 0..6, of the gamma-Poisson sampler.
  for (const auto& [name, mu, phi] : {std::tuple{"moderate", 3.0, 2.0},
                                      std::tuple{"overdispersed", 8.0, 0.7},
                                      std::tuple{"near Poisson", 5.0, 200.0}}) {
    f.moments.push_back({name, scalars({mu, phi}), scalar(mu), scalar(mu + mu * mu / phi)});
    f.fits.push_back({name, scalars({mu, phi}), {},
                      [mu = mu, phi = phi](double k) { return std::exp(naive_log_mass(k, mu, phi)); },
                      {0, 1, 2, 3, 4, 5, 6}});
  }
  return f;
}

}  // namespace

class TestNegBinomial2 : public DistributionConformance {
  Q_OBJECT

 public:
  TestNegBinomial2() : DistributionConformance({neg_binomial_2()}) {}
};

QTEST_APPLESS_MAIN(TestNegBinomial2)
#include "tst_neg_binomial_2.moc"
