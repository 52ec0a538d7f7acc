// Binomial(N, theta) and Binomial(N, logits): mass against the textbook formula in both
// parameterizations, gradients, sampling frequencies, errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/binomial.h"

using variate::distributions::Binomial;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// log C(N, k) as a sum of logs, independent of lgamma.
double naive_log_choose(double N, double k) {
  double total = 0;
  for (int i = 1; i <= static_cast<int>(k); ++i) total += std::log((N - k + i) / i);
  return total;
}

// k log(theta) with 0 log 0 = 0.
double times_log(double k, double theta) { return k == 0 ? 0.0 : k * std::log(theta); }

double naive_binomial_log_mass(double k, double N, double theta) {
  return naive_log_choose(N, k) + times_log(k, theta) + times_log(N - k, 1 - theta);
}

double naive_binomial_logit_log_mass(double k, double N, double eta) {
  return naive_log_choose(N, k) - k * std::log1p(std::exp(-eta)) -
         (N - k) * std::log1p(std::exp(eta));
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

bool near(double got, double expected, double tolerance) {
  if (std::isinf(got) || std::isinf(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QString mismatch(double got, double expected) {
  return QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17);
}

Binomial make(double N, double parameter, bool logits) {
  return logits ? Binomial(scalar(N), variate::Logits{scalar(parameter)})
                : Binomial(scalar(N), scalar(parameter));
}

}  // namespace

class TestBinomial : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("N");
    QTest::addColumn<double>("theta");
    QTest::newRow("k = 0") << 0.0 << 10.0 << 0.3;
    QTest::newRow("k = N") << 10.0 << 10.0 << 0.3;
    QTest::newRow("interior") << 3.0 << 10.0 << 0.3;
    QTest::newRow("one trial") << 1.0 << 1.0 << 0.75;
    QTest::newRow("theta near 0, k = 0") << 0.0 << 50.0 << 1e-12;
    QTest::newRow("theta near 0, k = 2") << 2.0 << 50.0 << 1e-12;
    QTest::newRow("theta near 1, k = N") << 50.0 << 50.0 << 1 - 1e-12;
    QTest::newRow("many trials") << 470.0 << 1000.0 << 0.47;
    QTest::newRow("theta 0, k = 0") << 0.0 << 5.0 << 0.0;
    QTest::newRow("theta 0, k = 1") << 1.0 << 5.0 << 0.0;
    QTest::newRow("theta 1, k = N") << 5.0 << 5.0 << 1.0;
    QTest::newRow("theta 1, k = N - 1") << 4.0 << 5.0 << 1.0;
    QTest::newRow("no trials") << 0.0 << 0.0 << 0.6;
  }
  void logProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(double, N);
    QFETCH(double, theta);
    const double got = make(N, theta, false).log_prob(scalar(k)).item<double>();
    const double expected = naive_binomial_log_mass(k, N, theta);
    QVERIFY2(near(got, expected, 1e-11), qPrintable(mismatch(got, expected)));
  }

  void logitLogProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("N");
    QTest::addColumn<double>("eta");
    QTest::newRow("k = 0") << 0.0 << 8.0 << 0.4;
    QTest::newRow("k = N") << 8.0 << 8.0 << 0.4;
    QTest::newRow("interior, negative") << 2.0 << 12.0 << -1.7;
    QTest::newRow("k = 0 at -30") << 0.0 << 20.0 << -30.0;
    QTest::newRow("k = N at +30") << 20.0 << 20.0 << 30.0;
    QTest::newRow("k = 3 at +30") << 3.0 << 20.0 << 30.0;
    QTest::newRow("k = 3 at -30") << 3.0 << 20.0 << -30.0;
  }
  void logitLogProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(double, N);
    QFETCH(double, eta);
    const double got = make(N, eta, true).log_prob(scalar(k)).item<double>();
    const double expected = naive_binomial_logit_log_mass(k, N, eta);
    QVERIFY2(near(got, expected, 1e-11), qPrintable(mismatch(got, expected)));
  }

  // Masses worked out by hand: C(4, 2) / 16 and C(5, 1) 0.2 0.8^4.
  void logProbMatchesKnownValues() {
    QVERIFY(near(make(4, 0.5, false).log_prob(scalar(2)).item<double>(), std::log(0.375), 1e-14));
    QVERIFY(near(make(5, 0.2, false).log_prob(scalar(1)).item<double>(), std::log(0.4096), 1e-14));
    QVERIFY(near(make(4, 0.0, true).log_prob(scalar(2)).item<double>(), std::log(0.375), 1e-14));
  }

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

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<bool>("logits");
    QTest::newRow("negative") << -1.0 << false;
    QTest::newRow("above N") << 6.0 << false;
    QTest::newRow("fraction") << 2.5 << false;
    QTest::newRow("infinity") << kInf << false;
    QTest::newRow("nan") << std::nan("") << false;
    QTest::newRow("logits, above N") << 6.0 << true;
    QTest::newRow("logits, fraction") << 0.5 << true;
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, k);
    QFETCH(bool, logits);
    const at::Tensor parameter = scalar(logits ? 0.5 : 0.4).requires_grad_(true);
    const Binomial binomial = logits ? Binomial(scalar(5), variate::Logits{parameter})
                                     : Binomial(scalar(5), parameter);
    const at::Tensor lp = binomial.log_prob(scalar(k));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QCOMPARE(parameter.grad().item<double>(), 0.0);
  }

  void integerValuesWork() {
    const at::Tensor k = at::tensor({0, 2, 4, 5}, at::kLong);
    const at::Tensor lp = make(4, 0.5, false).log_prob(k);
    QCOMPARE(lp.scalar_type(), at::kDouble);
    const at::Tensor expected =
        at::tensor({std::log(1.0 / 16), std::log(0.375), std::log(1.0 / 16), -kInf}, at::kDouble);
    QVERIFY(at::allclose(lp, expected, 1e-14, 0.0));
    // Trial counts given as integers work too.
    const Binomial integer_trials(at::tensor({4}, at::kLong), at::tensor({0.5}, at::kDouble));
    QVERIFY(at::allclose(integer_trials.log_prob(k), expected, 1e-14, 0.0));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("N");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta, interior") << 3.0 << 10.0 << 0.35 << false;
    QTest::newRow("theta, k = 0") << 0.0 << 6.0 << 0.8 << false;
    QTest::newRow("theta, k = N") << 6.0 << 6.0 << 0.1 << false;
    QTest::newRow("logits, interior") << 7.0 << 9.0 << -0.6 << true;
    QTest::newRow("logits, far") << 2.0 << 9.0 << 20.0 << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, k);
    QFETCH(double, N);
    QFETCH(double, parameter);
    QFETCH(bool, logits);
    const auto log_prob = [&](const at::Tensor& p) {
      const Binomial d = logits ? Binomial(scalar(N), variate::Logits{p[0]})
                                : Binomial(scalar(N), p[0]);
      return d.log_prob(scalar(k));
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({parameter}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  // At theta = 0 and k = 0, log mass N log(1 - theta) has gradient -N, with no NaN.
  void gradientAtBoundaryIsFinite() {
    const at::Tensor theta = scalar(0.0).requires_grad_(true);
    Binomial(scalar(7), theta).log_prob(scalar(0)).backward();
    QCOMPARE(theta.grad().item<double>(), -7.0);
  }

  void batchShapesBroadcast() {
    Binomial binomial(at::full({3, 1}, 10.0, at::kDouble), at::full({4}, 0.5, at::kDouble));
    QCOMPARE(binomial.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(binomial.event_shape().empty());
    QCOMPARE(binomial.log_prob(at::zeros({2, 3, 4}, at::kDouble)).sizes(),
             (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(binomial.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    const variate::Support support = binomial.support();
    QCOMPARE(support.kind(), variate::Support::Kind::IntegerInterval);
    QCOMPARE(support.lower().item<double>(), 0.0);
    QCOMPARE(support.upper().sizes(), (c10::IntArrayRef{3, 4}));
    QCOMPARE(support.upper()[2][1].item<double>(), 10.0);
  }

  void samplesUseParameterDtype() {
    at::Generator generator = at::detail::createCPUGenerator(2);
    const Binomial binomial(at::full({2}, 5.0, at::kFloat), at::full({2}, 0.5, at::kFloat));
    QCOMPARE(binomial.sample({3}, generator).scalar_type(), at::kFloat);
    QCOMPARE(binomial.log_prob(at::ones({2}, at::kLong)).scalar_type(), at::kFloat);
  }

  void samplerMatchesMassFunction_data() {
    QTest::addColumn<double>("N");
    QTest::addColumn<double>("theta");
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta") << 20.0 << 0.3 << false;
    QTest::newRow("logits") << 12.0 << 0.8 << true;
    QTest::newRow("many trials") << 500.0 << 0.05 << false;
  }
  void samplerMatchesMassFunction() {
    QFETCH(double, N);
    QFETCH(double, theta);
    QFETCH(bool, logits);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const int64_t n = 100000;
    const at::Tensor draws =
        make(N, logits ? std::log(theta / (1 - theta)) : theta, logits).sample({n}, generator);
    const std::string error = vtest::check_moments(draws, scalar(N * theta),
                                                   scalar(N * theta * (1 - theta)));
    QVERIFY2(error.empty(), error.c_str());
    // The mass of values around the mean, each within five standard errors.
    const double mode = std::floor(N * theta);
    for (double k = std::max(0.0, mode - 3); k <= std::min(N, mode + 3); ++k) {
      const double p = std::exp(naive_binomial_log_mass(k, N, theta));
      const double share = (draws == k).to(at::kDouble).mean().item<double>();
      QVERIFY2(std::abs(share - p) <= 5 * std::sqrt(p * (1 - p) / n),
               qPrintable(QString("k = %1: share %2, mass %3").arg(k).arg(share).arg(p)));
    }
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Binomial binomial(scalar(30), scalar(0.4));
    QVERIFY(at::equal(binomial.sample({50}, a), binomial.sample({50}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("N");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative N") << -1.0 << 0.5 << false << QString("Binomial: argument 'N' must be a non-negative integer, got -1");
    QTest::newRow("fractional N") << 2.5 << 0.5 << false << QString("Binomial: argument 'N' must be a non-negative integer, got 2.5");
    QTest::newRow("infinite N") << kInf << 0.5 << false << QString("Binomial: argument 'N' must be finite, got inf");
    QTest::newRow("theta above 1") << 3.0 << 1.5 << false << QString("Binomial: argument 'theta' must be in [0, 1], got 1.5");
    QTest::newRow("negative theta") << 3.0 << -0.25 << false << QString("Binomial: argument 'theta' must be in [0, 1], got -0.25");
    QTest::newRow("fractional N, logits") << 0.5 << 0.0 << true << QString("Binomial: argument 'N' must be a non-negative integer, got 0.5");
    QTest::newRow("nan logit") << 3.0 << std::nan("") << true << QString("Binomial: argument 'logits' must be finite, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, N);
    QFETCH(double, parameter);
    QFETCH(bool, logits);
    QFETCH(QString, message);
    try {
      make(N, parameter, logits);
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void factoriesBuildRandomVariables() {
    const auto k = variate::Binomial("k", 10, 0.3, {4});
    QCOMPARE(k.name(), std::string("k"));
    QCOMPARE(k.shape(), (variate::Shape{4}));
    QVERIFY(!dynamic_cast<const Binomial&>(k.distribution()).has_logits());
    const auto j = variate::Binomial("j", at::tensor({3, 5}, at::kLong), variate::logits(0.0));
    const auto& by_logits = dynamic_cast<const Binomial&>(j.distribution());
    QVERIFY(by_logits.has_logits());
    QCOMPARE(j.shape(), (variate::Shape{2}));
    QVERIFY(at::equal(by_logits.N(), at::tensor({3.0, 5.0}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestBinomial)
#include "tst_binomial.moc"
