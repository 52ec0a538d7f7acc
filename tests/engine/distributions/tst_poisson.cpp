// Poisson(lambda) and Poisson(log_rate): mass against the textbook formula in both
// parameterizations, gradients, sampling frequencies, errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/poisson.h"

using variate::distributions::Poisson;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// log k! as a sum of logs, independent of lgamma.
double naive_log_factorial(double k) {
  double total = 0;
  for (int i = 2; i <= static_cast<int>(k); ++i) total += std::log(static_cast<double>(i));
  return total;
}

double naive_poisson_log_mass(double k, double lambda) {
  const double k_log_lambda = k == 0 ? 0.0 : k * std::log(lambda);  // 0 log 0 = 0
  return k_log_lambda - lambda - naive_log_factorial(k);
}

double naive_poisson_log_rate_log_mass(double k, double alpha) {
  return k * alpha - std::exp(alpha) - naive_log_factorial(k);
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

bool near(double got, double expected, double tolerance) {
  if (std::isinf(got) || std::isinf(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QString mismatch(double got, double expected) {
  return QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

Poisson make(double parameter, bool log_rate) {
  return log_rate ? Poisson(variate::LogRate{scalar(parameter)}) : Poisson(scalar(parameter));
}

}  // namespace

class TestPoisson : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("lambda");
    QTest::newRow("k = 0") << 0.0 << 3.5;
    QTest::newRow("k = 1") << 1.0 << 3.5;
    QTest::newRow("upper tail") << 12.0 << 3.5;
    QTest::newRow("tiny rate, k = 0") << 0.0 << 1e-10;
    QTest::newRow("tiny rate, k = 2") << 2.0 << 1e-10;
    QTest::newRow("large rate") << 100.0 << 80.0;
    QTest::newRow("huge rate") << 1000.0 << 1e5;
    QTest::newRow("rate 0, k = 0") << 0.0 << 0.0;
    QTest::newRow("rate 0, k = 3") << 3.0 << 0.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(double, lambda);
    const double got = make(lambda, false).log_prob(scalar(k)).item<double>();
    const double expected = naive_poisson_log_mass(k, lambda);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  void logRateLogProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("alpha");
    QTest::newRow("k = 0 at 0") << 0.0 << 0.0;
    QTest::newRow("interior") << 4.0 << 1.2;
    QTest::newRow("k = 0 at -30") << 0.0 << -30.0;
    QTest::newRow("k = 2 at -30") << 2.0 << -30.0;
    QTest::newRow("k = 5 at +30") << 5.0 << 30.0;
    QTest::newRow("large count") << 250.0 << 5.5;
  }
  void logRateLogProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(double, alpha);
    const double got = make(alpha, true).log_prob(scalar(k)).item<double>();
    const double expected = naive_poisson_log_rate_log_mass(k, alpha);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  // A mass worked out by hand: P(2 | 3) = e^-3 3^2 / 2.
  void logProbMatchesKnownValue() {
    const double expected = -3 + std::log(4.5);
    QVERIFY(near(make(3.0, false).log_prob(scalar(2)).item<double>(), expected, 1e-14));
    QVERIFY(near(make(std::log(3.0), true).log_prob(scalar(2)).item<double>(), expected, 1e-14));
  }

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

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<bool>("log_rate");
    QTest::newRow("negative") << -1.0 << false;
    QTest::newRow("fraction") << 2.5 << false;
    QTest::newRow("infinity") << kInf << false;
    QTest::newRow("nan") << std::nan("") << false;
    QTest::newRow("log rate, negative") << -3.0 << true;
    QTest::newRow("log rate, fraction") << 0.5 << true;
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, k);
    QFETCH(bool, log_rate);
    const at::Tensor parameter = scalar(1.5).requires_grad_(true);
    const Poisson poisson =
        log_rate ? Poisson(variate::LogRate{parameter}) : Poisson(parameter);
    const at::Tensor lp = poisson.log_prob(scalar(k));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QCOMPARE(parameter.grad().item<double>(), 0.0);
  }

  void integerValuesWork() {
    const at::Tensor k = at::tensor({0, 2, 5, -1}, at::kLong);
    const at::Tensor lp = make(2.0, false).log_prob(k);
    QCOMPARE(lp.scalar_type(), at::kDouble);
    const at::Tensor expected =
        at::tensor({naive_poisson_log_mass(0, 2), naive_poisson_log_mass(2, 2),
                    naive_poisson_log_mass(5, 2), -kInf},
                   at::kDouble);
    QVERIFY(at::allclose(lp, expected, 1e-13, 0.0));
    QVERIFY(at::allclose(make(std::log(2.0), true).log_prob(k), expected, 1e-13, 0.0));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("log_rate");
    QTest::newRow("rate, k = 0") << 0.0 << 2.0 << false;
    QTest::newRow("rate, interior") << 7.0 << 4.5 << false;
    QTest::newRow("rate, small") << 1.0 << 0.01 << false;
    QTest::newRow("log rate, interior") << 3.0 << 0.7 << true;
    QTest::newRow("log rate, negative") << 0.0 << -4.0 << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, k);
    QFETCH(double, parameter);
    QFETCH(bool, log_rate);
    const auto log_prob = [&](const at::Tensor& p) {
      const Poisson d = log_rate ? Poisson(variate::LogRate{p[0]}) : Poisson(p[0]);
      return d.log_prob(scalar(k));
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({parameter}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  // At lambda = 0 the mass of 0 is 1 and its gradient -1, with no NaN from log(lambda).
  void gradientAtZeroRateIsFinite() {
    const at::Tensor lambda = scalar(0.0).requires_grad_(true);
    Poisson(lambda).log_prob(scalar(0)).backward();
    QCOMPARE(lambda.grad().item<double>(), -1.0);
  }

  void batchShapesBroadcast() {
    Poisson poisson(at::full({3, 4}, 2.0, at::kDouble));
    QCOMPARE(poisson.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(poisson.event_shape().empty());
    QCOMPARE(poisson.log_prob(at::zeros({2, 3, 4}, at::kLong)).sizes(),
             (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(poisson.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    QCOMPARE(poisson.support().to_string(), std::string("nonnegative_integer"));
  }

  void samplesUseParameterDtype() {
    at::Generator generator = at::detail::createCPUGenerator(2);
    QCOMPARE(Poisson(at::full({2}, 3.0, at::kFloat)).sample({3}, generator).scalar_type(),
             at::kFloat);
    QCOMPARE(Poisson(variate::LogRate{at::zeros({2}, at::kDouble)})
                 .sample({3}, generator)
                 .scalar_type(),
             at::kDouble);
  }

  void samplerMatchesMassFunction_data() {
    QTest::addColumn<double>("lambda");
    QTest::addColumn<bool>("log_rate");
    QTest::newRow("rate") << 4.5 << false;
    QTest::newRow("log rate") << 0.8 << true;
    QTest::newRow("large rate") << 60.0 << false;
  }
  void samplerMatchesMassFunction() {
    QFETCH(double, lambda);
    QFETCH(bool, log_rate);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const int64_t n = 100000;
    const at::Tensor draws =
        make(log_rate ? std::log(lambda) : lambda, log_rate).sample({n}, generator);
    const std::string error = vtest::check_moments(draws, scalar(lambda), scalar(lambda));
    QVERIFY2(error.empty(), error.c_str());
    // The mass of values around the mean, each within five standard errors.
    const double mode = std::floor(lambda);
    for (double k = std::max(0.0, mode - 3); k <= mode + 3; ++k) {
      const double p = std::exp(naive_poisson_log_mass(k, lambda));
      const double share = (draws == k).to(at::kDouble).mean().item<double>();
      QVERIFY2(std::abs(share - p) <= 5 * std::sqrt(p * (1 - p) / n),
               qPrintable(QString("k = %1: share %2, mass %3").arg(k).arg(share).arg(p)));
    }
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Poisson poisson(scalar(6.0));
    QVERIFY(at::equal(poisson.sample({50}, a), poisson.sample({50}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("log_rate");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative rate") << -1.0 << false << QString("Poisson: argument 'lambda' must be non-negative, got -1");
    QTest::newRow("nan rate") << std::nan("") << false << QString("Poisson: argument 'lambda' must be non-negative, got nan");
    QTest::newRow("infinite rate") << kInf << false << QString("Poisson: argument 'lambda' must be finite, got inf");
    QTest::newRow("infinite log rate") << kInf << true << QString("Poisson: argument 'log_rate' must be finite, got inf");
    QTest::newRow("nan log rate") << std::nan("") << true << QString("Poisson: argument 'log_rate' must be finite, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, parameter);
    QFETCH(bool, log_rate);
    QFETCH(QString, message);
    try {
      make(parameter, log_rate);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void factoriesBuildRandomVariables() {
    const auto k = variate::Poisson("k", 3.0, {4});
    QCOMPARE(k.name(), std::string("k"));
    QCOMPARE(k.shape(), (variate::Shape{4}));
    QVERIFY(!dynamic_cast<const Poisson&>(k.distribution()).has_log_rate());
    const auto j = variate::Poisson("j", variate::log_rate(at::zeros({2}, at::kDouble)));
    const auto& by_log_rate = dynamic_cast<const Poisson&>(j.distribution());
    QVERIFY(by_log_rate.has_log_rate());
    QCOMPARE(j.shape(), (variate::Shape{2}));
    QVERIFY(at::allclose(by_log_rate.lambda(), at::ones({2}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestPoisson)
#include "tst_poisson.moc"
