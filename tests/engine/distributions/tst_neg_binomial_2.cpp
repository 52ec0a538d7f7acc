// NegBinomial2(mu, phi): mass against the textbook formula, gradients, the gamma-Poisson
// sampler (moments and frequencies), errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/neg_binomial_2.h"

using variate::distributions::NegBinomial2;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// log [Gamma(k + phi) / (Gamma(k + 1) Gamma(phi))] as a sum of logs, independent of lgamma:
// the product of (phi + i) / (i + 1) for i = 0..k-1.
double naive_log_choose(double k, double phi) {
  double total = 0;
  for (int i = 0; i < static_cast<int>(k); ++i) total += std::log((phi + i) / (i + 1));
  return total;
}

double naive_neg_binomial_2_log_mass(double k, double mu, double phi) {
  return naive_log_choose(k, phi) + k * std::log(mu / (mu + phi)) +
         phi * std::log(phi / (mu + phi));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

bool near(double got, double expected, double tolerance) {
  if (std::isinf(got) || std::isinf(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QString mismatch(double got, double expected) {
  return QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

}  // namespace

class TestNegBinomial2 : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("phi");
    QTest::newRow("k = 0") << 0.0 << 2.0 << 3.0;
    QTest::newRow("interior") << 5.0 << 2.0 << 3.0;
    QTest::newRow("parameters swapped") << 5.0 << 3.0 << 2.0;
    QTest::newRow("overdispersed tail") << 20.0 << 10.0 << 0.5;
    QTest::newRow("tiny mean, k = 0") << 0.0 << 1e-3 << 100.0;
    QTest::newRow("tiny mean, k = 1") << 1.0 << 1e-3 << 100.0;
    QTest::newRow("near Poisson") << 3.0 << 4.0 << 1e4;
    QTest::newRow("large counts") << 50.0 << 40.0 << 1e3;
    QTest::newRow("tiny phi") << 7.0 << 5.0 << 0.01;
  }
  void logProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(double, mu);
    QFETCH(double, phi);
    const double got = NegBinomial2(scalar(mu), scalar(phi)).log_prob(scalar(k)).item<double>();
    const double expected = naive_neg_binomial_2_log_mass(k, mu, phi);
    QVERIFY2(near(got, expected, 1e-11), qPrintable(mismatch(got, expected)));
  }

  // Masses worked out by hand. phi = 1 is the geometric distribution:
  // P(k) = (1 / (1 + mu)) (mu / (1 + mu))^k, so P(3 | mu = 2) = 8 / 81.
  // P(1 | mu = 1, phi = 2) = 2 (1/3) (2/3)^2 = 8 / 27.
  void logProbMatchesKnownValues() {
    QVERIFY(near(NegBinomial2(scalar(2), scalar(1)).log_prob(scalar(3)).item<double>(),
                 std::log(8.0 / 81), 1e-14));
    QVERIFY(near(NegBinomial2(scalar(1), scalar(2)).log_prob(scalar(1)).item<double>(),
                 std::log(8.0 / 27), 1e-14));
  }

  // As phi grows the distribution tends to Poisson(mu).
  void largePhiApproachesPoisson() {
    const double mu = 3.0;
    const double got = NegBinomial2(scalar(mu), scalar(1e9)).log_prob(scalar(4)).item<double>();
    const double poisson = 4 * std::log(mu) - mu - std::log(24.0);
    // lgamma(k + phi) - lgamma(phi) computed naively would be off by ~1e-6 here.
    QVERIFY2(std::abs(got - poisson) < 1e-7, qPrintable(mismatch(got, poisson)));
  }

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("k");
    QTest::newRow("negative") << -1.0;
    QTest::newRow("fraction") << 1.5;
    QTest::newRow("infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, k);
    const at::Tensor parameters = at::tensor({2.0, 3.0}, at::kDouble).requires_grad_(true);
    const at::Tensor lp = NegBinomial2(parameters[0], parameters[1]).log_prob(scalar(k));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QVERIFY(at::equal(parameters.grad(), at::zeros({2}, at::kDouble)));
  }

  void integerValuesWork() {
    const at::Tensor k = at::tensor({0, 3, 9, -2}, at::kLong);
    const at::Tensor lp = NegBinomial2(scalar(2.5), scalar(1.5)).log_prob(k);
    QCOMPARE(lp.scalar_type(), at::kDouble);
    const at::Tensor expected = at::tensor(
        {naive_neg_binomial_2_log_mass(0, 2.5, 1.5), naive_neg_binomial_2_log_mass(3, 2.5, 1.5),
         naive_neg_binomial_2_log_mass(9, 2.5, 1.5), -kInf},
        at::kDouble);
    QVERIFY(at::allclose(lp, expected, 1e-12, 0.0));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("phi");
    QTest::newRow("k = 0") << 0.0 << 2.0 << 3.0;
    QTest::newRow("interior") << 6.0 << 4.0 << 1.5;
    QTest::newRow("overdispersed") << 30.0 << 10.0 << 0.3;
    QTest::newRow("near Poisson") << 2.0 << 5.0 << 500.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, k);
    QFETCH(double, mu);
    QFETCH(double, phi);
    const auto log_prob = [&](const at::Tensor& p) {
      return NegBinomial2(p[0], p[1]).log_prob(scalar(k));
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({mu, phi}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchShapesBroadcast() {
    NegBinomial2 nb(at::full({3, 1}, 2.0, at::kDouble), at::full({4}, 5.0, at::kDouble));
    QCOMPARE(nb.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(nb.event_shape().empty());
    QCOMPARE(nb.log_prob(at::zeros({2, 3, 4}, at::kDouble)).sizes(), (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(nb.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    QCOMPARE(nb.support().to_string(), std::string("nonnegative_integer"));
  }

  void samplesUseParameterDtype() {
    at::Generator generator = at::detail::createCPUGenerator(2);
    const NegBinomial2 nb(at::full({2}, 3.0, at::kFloat), at::full({2}, 2.0, at::kFloat));
    QCOMPARE(nb.sample({3}, generator).scalar_type(), at::kFloat);
    QCOMPARE(nb.log_prob(at::ones({2}, at::kLong)).scalar_type(), at::kFloat);
  }

  void samplerMatchesMassFunction_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("phi");
    QTest::newRow("moderate") << 3.0 << 2.0;
    QTest::newRow("overdispersed") << 8.0 << 0.7;
    QTest::newRow("near Poisson") << 5.0 << 200.0;
  }
  void samplerMatchesMassFunction() {
    QFETCH(double, mu);
    QFETCH(double, phi);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const int64_t n = 100000;
    const at::Tensor draws = NegBinomial2(scalar(mu), scalar(phi)).sample({n}, generator);
    const std::string error =
        vtest::check_moments(draws, scalar(mu), scalar(mu + mu * mu / phi));
    QVERIFY2(error.empty(), error.c_str());
    for (double k = 0; k <= 6; ++k) {
      const double p = std::exp(naive_neg_binomial_2_log_mass(k, mu, phi));
      const double share = (draws == k).to(at::kDouble).mean().item<double>();
      QVERIFY2(std::abs(share - p) <= 5 * std::sqrt(p * (1 - p) / n),
               qPrintable(QString("k = %1: share %2, mass %3").arg(k).arg(share).arg(p)));
    }
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const NegBinomial2 nb(scalar(4.0), scalar(1.0));
    QVERIFY(at::equal(nb.sample({50}, a), nb.sample({50}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("phi");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero mu") << 0.0 << 1.0 << QString("NegBinomial2: argument 'mu' must be positive, got 0");
    QTest::newRow("negative mu") << -3.0 << 1.0 << QString("NegBinomial2: argument 'mu' must be positive, got -3");
    QTest::newRow("infinite mu") << kInf << 1.0 << QString("NegBinomial2: argument 'mu' must be finite, got inf");
    QTest::newRow("zero phi") << 1.0 << 0.0 << QString("NegBinomial2: argument 'phi' must be positive, got 0");
    QTest::newRow("infinite phi") << 1.0 << kInf << QString("NegBinomial2: argument 'phi' must be finite, got inf");
    QTest::newRow("nan phi") << 1.0 << std::nan("") << QString("NegBinomial2: argument 'phi' must be positive, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, mu);
    QFETCH(double, phi);
    QFETCH(QString, message);
    try {
      NegBinomial2(scalar(mu), scalar(phi));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void factoryBuildsRandomVariable() {
    const auto y = variate::NegBinomial2("y", 3.0, 2.0, {6});
    QCOMPARE(y.name(), std::string("y"));
    QCOMPARE(y.distribution().name(), std::string("NegBinomial2"));
    QCOMPARE(y.shape(), (variate::Shape{6}));
  }
};

QTEST_APPLESS_MAIN(TestNegBinomial2)
#include "tst_neg_binomial_2.moc"
