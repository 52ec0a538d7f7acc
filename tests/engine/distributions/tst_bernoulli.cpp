// Bernoulli(theta) and Bernoulli(logits): mass against the textbook formula in both
// parameterizations, gradients, sampling frequencies, errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/bernoulli.h"

using variate::distributions::Bernoulli;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double naive_bernoulli_log_mass(double y, double theta) {
  return std::log(y == 1 ? theta : 1 - theta);
}

// log inv_logit(eta) = -log(1 + exp(-eta)) and log(1 - inv_logit(eta)) = -log(1 + exp(eta)).
double naive_bernoulli_logit_log_mass(double y, double eta) {
  return y == 1 ? -std::log1p(std::exp(-eta)) : -std::log1p(std::exp(eta));
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

class TestBernoulli : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("theta");
    QTest::newRow("one") << 1.0 << 0.3;
    QTest::newRow("zero") << 0.0 << 0.3;
    QTest::newRow("one, theta near 0") << 1.0 << 1e-12;
    QTest::newRow("zero, theta near 0") << 0.0 << 1e-12;
    QTest::newRow("one, theta near 1") << 1.0 << 1 - 1e-12;
    QTest::newRow("zero, theta near 1") << 0.0 << 1 - 1e-12;
    QTest::newRow("zero, theta 0") << 0.0 << 0.0;
    QTest::newRow("one, theta 0") << 1.0 << 0.0;
    QTest::newRow("one, theta 1") << 1.0 << 1.0;
    QTest::newRow("zero, theta 1") << 0.0 << 1.0;
  }
  void logProbMatchesFormula() {
    QFETCH(double, y);
    QFETCH(double, theta);
    const double got = Bernoulli(scalar(theta)).log_prob(scalar(y)).item<double>();
    const double expected = naive_bernoulli_log_mass(y, theta);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  // Tiny probabilities keep their precision in log(1 - theta).
  void logOneMinusThetaIsAccurate() {
    const double got = Bernoulli(scalar(1e-20)).log_prob(scalar(0.0)).item<double>();
    QVERIFY2(near(got, -1e-20, 1e-12 * 1e-20), qPrintable(mismatch(got, -1e-20)));
  }

  void logitLogProbMatchesFormula_data() {
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("eta");
    QTest::newRow("one at 0") << 1.0 << 0.0;
    QTest::newRow("zero at 0") << 0.0 << 0.0;
    QTest::newRow("one, positive") << 1.0 << 2.5;
    QTest::newRow("zero, negative") << 0.0 << -1.25;
    QTest::newRow("one at +30") << 1.0 << 30.0;
    QTest::newRow("zero at +30") << 0.0 << 30.0;
    QTest::newRow("one at -30") << 1.0 << -30.0;
    QTest::newRow("zero at -30") << 0.0 << -30.0;
    QTest::newRow("one at -700") << 1.0 << -700.0;
  }
  void logitLogProbMatchesFormula() {
    QFETCH(double, y);
    QFETCH(double, eta);
    const double got =
        Bernoulli(variate::Logits{scalar(eta)}).log_prob(scalar(y)).item<double>();
    const double expected = naive_bernoulli_logit_log_mass(y, eta);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  void parameterizationsAgree_data() {
    QTest::addColumn<double>("eta");
    QTest::newRow("negative") << -3.0;
    QTest::newRow("small") << 0.4;
    QTest::newRow("positive") << 5.0;
  }
  void parameterizationsAgree() {
    QFETCH(double, eta);
    const at::Tensor y = at::tensor({0.0, 1.0}, at::kDouble);
    const at::Tensor by_theta = Bernoulli(at::sigmoid(scalar(eta))).log_prob(y);
    const at::Tensor by_logits = Bernoulli(variate::Logits{scalar(eta)}).log_prob(y);
    QVERIFY(at::allclose(by_theta, by_logits, 1e-12, 1e-14));
  }

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("y");
    QTest::newRow("two") << 2.0;
    QTest::newRow("minus one") << -1.0;
    QTest::newRow("half") << 0.5;
    QTest::newRow("nan") << std::nan("");
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, y);
    const at::Tensor theta = scalar(0.4).requires_grad_(true);
    const at::Tensor lp = Bernoulli(theta).log_prob(scalar(y));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QCOMPARE(theta.grad().item<double>(), 0.0);
    QCOMPARE(Bernoulli(variate::Logits{scalar(1.0)}).log_prob(scalar(y)).item<double>(), -kInf);
  }

  void integerValuesWork() {
    const at::Tensor y = at::tensor({0, 1, 1, 2}, at::kLong);
    const at::Tensor lp = Bernoulli(scalar(0.25)).log_prob(y);
    const at::Tensor expected =
        at::tensor({std::log(0.75), std::log(0.25), std::log(0.25), -kInf}, at::kDouble);
    QVERIFY(at::allclose(lp, expected, 1e-14, 0.0, /*equal_nan=*/false));
    QVERIFY(at::allclose(Bernoulli(variate::Logits{scalar(0.0)}).log_prob(y).slice(0, 0, 3),
                         at::full({3}, -std::log(2.0), at::kDouble)));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta, one") << 1.0 << 0.3 << false;
    QTest::newRow("theta, zero") << 0.0 << 0.9 << false;
    QTest::newRow("logits, one") << 1.0 << -2.0 << true;
    QTest::newRow("logits, zero") << 0.0 << 1.5 << true;
    QTest::newRow("logits, zero, far") << 0.0 << 25.0 << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, y);
    QFETCH(double, parameter);
    QFETCH(bool, logits);
    const auto log_prob = [&](const at::Tensor& p) {
      const Bernoulli d = logits ? Bernoulli(variate::Logits{p[0]}) : Bernoulli(p[0]);
      return d.log_prob(scalar(y));
    };
    const std::string error =
        vtest::compare_gradients(log_prob, at::tensor({parameter}, at::kDouble));
    QVERIFY2(error.empty(), error.c_str());
  }

  // At theta = 0 the mass of 0 is 1 and its gradient is -1, with no NaN from log(theta).
  void gradientAtBoundaryIsFinite() {
    const at::Tensor theta = scalar(0.0).requires_grad_(true);
    Bernoulli(theta).log_prob(scalar(0.0)).backward();
    QCOMPARE(theta.grad().item<double>(), -1.0);
  }

  void batchShapesBroadcast() {
    Bernoulli bernoulli(at::full({3, 4}, 0.5, at::kDouble));
    QCOMPARE(bernoulli.batch_shape(), (variate::Shape{3, 4}));
    QVERIFY(bernoulli.event_shape().empty());
    QCOMPARE(bernoulli.log_prob(at::zeros({2, 3, 4}, at::kDouble)).sizes(),
             (c10::IntArrayRef{2, 3, 4}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(bernoulli.sample({5}, generator).sizes(), (c10::IntArrayRef{5, 3, 4}));
    QCOMPARE(bernoulli.support().to_string(), std::string("boolean"));
  }

  void samplesUseParameterDtype() {
    at::Generator generator = at::detail::createCPUGenerator(2);
    const at::Tensor draws = Bernoulli(at::full({2}, 0.5, at::kFloat)).sample({3}, generator);
    QCOMPARE(draws.scalar_type(), at::kFloat);
    QCOMPARE(Bernoulli(variate::Logits{at::zeros({2}, at::kDouble)}).sample({3}, generator)
                 .scalar_type(),
             at::kDouble);
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<double>("theta");
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta") << 0.3 << false;
    QTest::newRow("logits") << 0.85 << true;
  }
  void samplerMatchesMoments() {
    QFETCH(double, theta);
    QFETCH(bool, logits);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const Bernoulli bernoulli = logits
        ? Bernoulli(variate::Logits{scalar(std::log(theta / (1 - theta)))})
        : Bernoulli(scalar(theta));
    const at::Tensor draws = bernoulli.sample({100000}, generator);
    QVERIFY(((draws == 0) | (draws == 1)).all().item<bool>());
    const std::string error =
        vtest::check_moments(draws, scalar(theta), scalar(theta * (1 - theta)));
    QVERIFY2(error.empty(), error.c_str());
    // The mass of each value, within five standard errors.
    for (const double value : {0.0, 1.0}) {
      const double p = value == 1 ? theta : 1 - theta;
      const double share = (draws == value).to(at::kDouble).mean().item<double>();
      QVERIFY2(std::abs(share - p) <= 5 * std::sqrt(p * (1 - p) / 100000),
               qPrintable(QString("value %1: share %2, mass %3").arg(value).arg(share).arg(p)));
    }
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Bernoulli bernoulli(scalar(0.5));
    QVERIFY(at::equal(bernoulli.sample({50}, a), bernoulli.sample({50}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<double>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative theta") << -0.5 << false << QString("Bernoulli: argument 'theta' must be in [0, 1], got -0.5");
    QTest::newRow("theta above 1") << 1.5 << false << QString("Bernoulli: argument 'theta' must be in [0, 1], got 1.5");
    QTest::newRow("nan theta") << std::nan("") << false << QString("Bernoulli: argument 'theta' must be in [0, 1], got nan");
    QTest::newRow("infinite logit") << kInf << true << QString("Bernoulli: argument 'logits' must be finite, got inf");
    QTest::newRow("nan logit") << std::nan("") << true << QString("Bernoulli: argument 'logits' must be finite, got nan");
  }
  void invalidParametersThrow() {
    QFETCH(double, parameter);
    QFETCH(bool, logits);
    QFETCH(QString, message);
    try {
      if (logits) {
        Bernoulli(variate::Logits{scalar(parameter)});
      } else {
        Bernoulli(scalar(parameter));
      }
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void factoriesBuildRandomVariables() {
    const auto y = variate::Bernoulli("y", 0.2, {5});
    QCOMPARE(y.name(), std::string("y"));
    QCOMPARE(y.shape(), (variate::Shape{5}));
    const auto& by_theta = dynamic_cast<const Bernoulli&>(y.distribution());
    QVERIFY(!by_theta.has_logits());
    QCOMPARE(by_theta.theta().item<double>(), 0.2);
    const auto z = variate::Bernoulli("z", variate::logits(at::zeros({3}, at::kDouble)));
    const auto& by_logits = dynamic_cast<const Bernoulli&>(z.distribution());
    QVERIFY(by_logits.has_logits());
    QCOMPARE(z.shape(), (variate::Shape{3}));
    QVERIFY(at::allclose(by_logits.theta(), at::full({3}, 0.5, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestBernoulli)
#include "tst_bernoulli.moc"
