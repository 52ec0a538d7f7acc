// Categorical(theta) and Categorical(logits): 1-based mass against the textbook formula
// in both parameterizations, batch shapes over the last dimension, gradients, sampling
// frequencies, errors.

#include <algorithm>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/categorical.h"

using variate::distributions::Categorical;
namespace vtest = variate::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

double naive_categorical_log_mass(double k, const QList<double>& theta) {
  return std::log(theta[static_cast<int>(k) - 1]);
}

double naive_categorical_logit_log_mass(double k, const QList<double>& eta) {
  double normalizer = 0;
  for (const double e : eta) normalizer += std::exp(e);
  return eta[static_cast<int>(k) - 1] - std::log(normalizer);
}

at::Tensor vector(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
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

class TestCategorical : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<QList<double>>("theta");
    QTest::newRow("first") << 1.0 << QList<double>{0.2, 0.5, 0.3};
    QTest::newRow("middle") << 2.0 << QList<double>{0.2, 0.5, 0.3};
    QTest::newRow("last") << 3.0 << QList<double>{0.2, 0.5, 0.3};
    QTest::newRow("probability near 0") << 1.0 << QList<double>{1e-12, 1 - 1e-12};
    QTest::newRow("probability near 1") << 2.0 << QList<double>{1e-12, 1 - 1e-12};
    QTest::newRow("one category") << 1.0 << QList<double>{1.0};
    QTest::newRow("zero probability") << 2.0 << QList<double>{0.5, 0.0, 0.5};
  }
  void logProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(QList<double>, theta);
    const double got = Categorical(vector(theta)).log_prob(scalar(k)).item<double>();
    const double expected = naive_categorical_log_mass(k, theta);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  void logitLogProbMatchesFormula_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<QList<double>>("eta");
    QTest::newRow("uniform") << 2.0 << QList<double>{0.0, 0.0, 0.0, 0.0};
    QTest::newRow("first") << 1.0 << QList<double>{1.0, -2.0, 0.5};
    QTest::newRow("last") << 3.0 << QList<double>{1.0, -2.0, 0.5};
    QTest::newRow("dominant at +30") << 3.0 << QList<double>{1.0, -2.0, 30.0};
    QTest::newRow("dominated at -30") << 1.0 << QList<double>{-30.0, 0.0, 2.0};
    QTest::newRow("shifted") << 2.0 << QList<double>{101.0, 98.0, 100.0};
  }
  void logitLogProbMatchesFormula() {
    QFETCH(double, k);
    QFETCH(QList<double>, eta);
    const double got =
        Categorical(variate::Logits{vector(eta)}).log_prob(scalar(k)).item<double>();
    const double expected = naive_categorical_logit_log_mass(k, eta);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(mismatch(got, expected)));
  }

  void parameterizationsAgree() {
    const at::Tensor eta = at::tensor({0.3, -1.2, 2.0, 0.0}, at::kDouble);
    const at::Tensor k = at::arange(1, 5, at::kDouble);
    const at::Tensor by_theta = Categorical(at::softmax(eta, -1)).log_prob(k);
    const at::Tensor by_logits = Categorical(variate::Logits{eta}).log_prob(k);
    QVERIFY(at::allclose(by_theta, by_logits, 1e-12, 1e-14));
    // Logits are unnormalized: adding a constant changes nothing.
    QVERIFY(at::allclose(Categorical(variate::Logits{eta + 7.5}).log_prob(k), by_logits,
                         1e-12, 1e-14));
  }

  void outsideSupportIsMinusInfinity_data() {
    QTest::addColumn<double>("k");
    QTest::newRow("zero (values are 1-based)") << 0.0;
    QTest::newRow("K + 1") << 4.0;
    QTest::newRow("negative") << -1.0;
    QTest::newRow("fraction") << 1.5;
    QTest::newRow("infinity") << kInf;
    QTest::newRow("nan") << std::nan("");
  }
  void outsideSupportIsMinusInfinity() {
    QFETCH(double, k);
    const at::Tensor theta = at::tensor({0.2, 0.5, 0.3}, at::kDouble).requires_grad_(true);
    const at::Tensor lp = Categorical(theta).log_prob(scalar(k));
    QCOMPARE(lp.item<double>(), -kInf);
    lp.backward();
    QVERIFY(at::equal(theta.grad(), at::zeros({3}, at::kDouble)));
    const at::Tensor eta = at::zeros({3}, at::kDouble);
    QCOMPARE(Categorical(variate::Logits{eta}).log_prob(scalar(k)).item<double>(), -kInf);
  }

  void integerValuesWork() {
    const at::Tensor k = at::tensor({1, 3, 2, 0}, at::kLong);
    const at::Tensor lp = Categorical(at::tensor({0.2, 0.5, 0.3}, at::kDouble)).log_prob(k);
    QCOMPARE(lp.scalar_type(), at::kDouble);
    const at::Tensor expected =
        at::tensor({std::log(0.2), std::log(0.3), std::log(0.5), -kInf}, at::kDouble);
    QVERIFY(at::allclose(lp, expected, 1e-14, 0.0));
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<double>("k");
    QTest::addColumn<QList<double>>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta") << 2.0 << QList<double>{0.2, 0.5, 0.3} << false;
    QTest::newRow("theta, small entry") << 1.0 << QList<double>{0.01, 0.99} << false;
    QTest::newRow("logits") << 3.0 << QList<double>{1.0, -2.0, 0.5} << true;
    QTest::newRow("logits, far") << 1.0 << QList<double>{-20.0, 3.0} << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(double, k);
    QFETCH(QList<double>, parameter);
    QFETCH(bool, logits);
    // Finite differences step off the simplex, so validation is off for theta.
    const variate::ValidationGuard no_validation(false);
    const auto log_prob = [&](const at::Tensor& p) {
      const Categorical d = logits ? Categorical(variate::Logits{p}) : Categorical(p);
      return d.log_prob(scalar(k));
    };
    const std::string error = vtest::compare_gradients(log_prob, vector(parameter));
    QVERIFY2(error.empty(), error.c_str());
  }

  // A zero probability that is not picked leaves the gradient finite: d/dtheta is 1/theta_k
  // at the picked entry and 0 elsewhere.
  void gradientWithZeroProbabilityIsFinite() {
    const at::Tensor theta = at::tensor({0.0, 0.4, 0.6}, at::kDouble).requires_grad_(true);
    Categorical(theta).log_prob(scalar(2)).backward();
    QVERIFY(at::allclose(theta.grad(), at::tensor({0.0, 2.5, 0.0}, at::kDouble)));
  }

  void batchShapesUseAllButTheLastDimension() {
    const at::Tensor theta = at::full({4, 2, 3}, 1.0 / 3, at::kDouble);
    Categorical categorical(theta);
    QCOMPARE(categorical.batch_shape(), (variate::Shape{4, 2}));
    QVERIFY(categorical.event_shape().empty());
    QCOMPARE(categorical.num_categories(), int64_t{3});
    QCOMPARE(categorical.log_prob(at::ones({5, 4, 2}, at::kDouble)).sizes(),
             (c10::IntArrayRef{5, 4, 2}));
    // A value broadcasts against the batch.
    QCOMPARE(categorical.log_prob(scalar(2)).sizes(), (c10::IntArrayRef{4, 2}));
    at::Generator generator = at::detail::createCPUGenerator(1);
    QCOMPARE(categorical.sample({6}, generator).sizes(), (c10::IntArrayRef{6, 4, 2}));
    QCOMPARE(categorical.sample({}, generator).sizes(), (c10::IntArrayRef{4, 2}));
    QCOMPARE(categorical.support().to_string(), std::string("integer_interval(1, 3)"));
  }

  // Each batch member reads its own row of theta.
  void batchMembersUseTheirOwnProbabilities() {
    const at::Tensor theta = at::tensor({0.1, 0.9, 0.7, 0.3}, at::kDouble).reshape({2, 2});
    const at::Tensor lp = Categorical(theta).log_prob(at::tensor({2.0, 2.0}, at::kDouble));
    QVERIFY(at::allclose(lp, at::tensor({std::log(0.9), std::log(0.3)}, at::kDouble)));
  }

  void samplesUseParameterDtype() {
    at::Generator generator = at::detail::createCPUGenerator(2);
    const Categorical categorical(at::full({2}, 0.5, at::kFloat));
    QCOMPARE(categorical.sample({3}, generator).scalar_type(), at::kFloat);
    QCOMPARE(categorical.log_prob(at::ones({2}, at::kLong)).scalar_type(), at::kFloat);
  }

  void samplerMatchesMassFunction_data() {
    QTest::addColumn<bool>("logits");
    QTest::newRow("theta") << false;
    QTest::newRow("logits") << true;
  }
  void samplerMatchesMassFunction() {
    QFETCH(bool, logits);
    // Two batch members with different probabilities, so rows cannot be mixed up.
    const at::Tensor theta =
        at::tensor({0.2, 0.5, 0.3, 0.6, 0.1, 0.3}, at::kDouble).reshape({2, 3});
    const Categorical categorical =
        logits ? Categorical(variate::Logits{at::log(theta)}) : Categorical(theta);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const int64_t n = 100000;
    const at::Tensor draws = categorical.sample({n}, generator);
    QCOMPARE(draws.sizes(), (c10::IntArrayRef{n, 2}));
    const at::Tensor values = at::arange(1, 4, at::kDouble);
    const at::Tensor mean = (theta * values).sum(-1);
    const at::Tensor variance = (theta * values * values).sum(-1) - mean * mean;
    const std::string error = vtest::check_moments(draws, mean, variance);
    QVERIFY2(error.empty(), error.c_str());
    for (int64_t row = 0; row < 2; ++row) {
      for (int64_t k = 1; k <= 3; ++k) {
        const double p = theta[row][k - 1].item<double>();
        const double share = (draws.select(1, row) == k).to(at::kDouble).mean().item<double>();
        QVERIFY2(std::abs(share - p) <= 5 * std::sqrt(p * (1 - p) / n),
                 qPrintable(QString("row %1, k = %2: share %3, mass %4")
                                .arg(row).arg(k).arg(share).arg(p)));
      }
    }
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Categorical categorical(at::full({4}, 0.25, at::kDouble));
    QVERIFY(at::equal(categorical.sample({50}, a), categorical.sample({50}, b)));
  }

  void invalidParametersThrow_data() {
    QTest::addColumn<QList<double>>("parameter");
    QTest::addColumn<bool>("logits");
    QTest::addColumn<QString>("message");
    QTest::newRow("sum above 1") << QList<double>{0.5, 0.75} << false
        << QString("Categorical: argument 'theta' must be a simplex (entries summing to 1); its sum is, got 1.25");
    QTest::newRow("negative entry") << QList<double>{-0.5, 1.5} << false
        << QString("Categorical: argument 'theta' must be a simplex (non-negative entries), got -0.5 (at index [0])");
    QTest::newRow("infinite logit") << QList<double>{0.0, kInf} << true
        << QString("Categorical: argument 'logits' must be finite, got inf (at index [1])");
  }
  void invalidParametersThrow() {
    QFETCH(QList<double>, parameter);
    QFETCH(bool, logits);
    QFETCH(QString, message);
    try {
      if (logits) {
        Categorical(variate::Logits{vector(parameter)});
      } else {
        Categorical(vector(parameter));
      }
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void scalarParameterThrows() {
    try {
      Categorical(scalar(1.0));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("Categorical: argument 'theta' must have at least 1 dimension(s), got shape []"));
    }
  }

  void factoriesBuildRandomVariables() {
    const auto z = variate::Categorical("z", at::full({3}, 1.0 / 3, at::kDouble), {7});
    QCOMPARE(z.name(), std::string("z"));
    QCOMPARE(z.shape(), (variate::Shape{7}));
    QVERIFY(!dynamic_cast<const Categorical&>(z.distribution()).has_logits());
    const auto w = variate::Categorical("w", variate::logits(at::zeros({5, 4}, at::kDouble)));
    const auto& by_logits = dynamic_cast<const Categorical&>(w.distribution());
    QVERIFY(by_logits.has_logits());
    QCOMPARE(w.shape(), (variate::Shape{5}));
    QVERIFY(at::allclose(by_logits.theta(), at::full({5, 4}, 0.25, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestCategorical)
#include "tst_categorical.moc"
