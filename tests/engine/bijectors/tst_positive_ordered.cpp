// PositiveOrdered, x1 = exp(y1), xk = x(k-1) + exp(yk): Stan's loop as the reference, round
// trips within the conditioning, log|J| against the autograd Jacobian for K = 1, 2, 3, 5,
// outputs inside the support, batches, shapes and errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "engine/bijectors/positive_ordered.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

using variate::bijectors::PositiveOrdered;
namespace vtest = variate::testing;

namespace {

at::Tensor vec(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}
at::Tensor flat(const at::Tensor& x) { return x.reshape(-1); }

// Ordinary and extreme (|y| up to 30) unconstrained points.
void addPoints() {
  QTest::addColumn<QList<double>>("y");
  QTest::newRow("K = 1") << QList<double>{0.7};
  QTest::newRow("K = 1, y = 30") << QList<double>{30.0};
  QTest::newRow("K = 1, y = -30") << QList<double>{-30.0};
  QTest::newRow("K = 2") << QList<double>{0.3, -1.2};
  QTest::newRow("K = 2, tiny") << QList<double>{-30.0, -30.0};
  QTest::newRow("K = 2, huge step") << QList<double>{-30.0, 30.0};
  // x = (4.9e8, 4.9e8 + 6.7e-3): the step keeps ~5 digits, and so does y2; the tolerance
  // is the conditioning, not slack.
  QTest::newRow("K = 2, small step at 4.9e8") << QList<double>{20.0, -5.0};
  QTest::newRow("K = 3") << QList<double>{-0.5, 0.1, 1.9};
  QTest::newRow("K = 3, large") << QList<double>{20.0, 25.0, 30.0};
  QTest::newRow("K = 5") << QList<double>{1.0, -2.0, 0.5, 0.0, -0.7};
  // A step of exp(yk) below an ulp of x(k-1) would vanish (x no longer increasing):
  // extremes are chosen so that every step survives in double precision.
  QTest::newRow("K = 5, extreme") << QList<double>{-20.0, 20.0, -8.0, 25.0, -2.0};
}

// Stan's positive_ordered_constrain, one element at a time.
std::vector<double> stan_positive_ordered(const std::vector<double>& y) {
  std::vector<double> x(y.size());
  for (size_t k = 0; k < y.size(); ++k) x[k] = (k == 0 ? 0.0 : x[k - 1]) + std::exp(y[k]);
  return x;
}

}  // namespace

class TestPositiveOrdered : public QObject {
  Q_OBJECT

 private slots:
  void forwardMatchesStan_data() { addPoints(); }
  void forwardMatchesStan() {
    QFETCH(QList<double>, y);
    const std::vector<double> expected = stan_positive_ordered({y.begin(), y.end()});
    const at::Tensor reference = at::tensor(expected, at::kDouble);
    // The same additions in the same order; allow an ulp or two per step for exp.
    const std::string error = vtest::compare_close(
        PositiveOrdered().forward(vec(y)), reference,
        4 * vtest::kEps * reference.abs().cumsum(0), "forward against Stan's loop");
    QVERIFY2(error.empty(), error.c_str());
  }

  void roundTrip_data() { addPoints(); }
  void roundTrip() {
    QFETCH(QList<double>, y);
    const std::string error = vtest::check_cumulative_round_trip(PositiveOrdered(), vec(y));
    QVERIFY2(error.empty(), error.c_str());
  }

  void inverseRoundTrip_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::newRow("K = 1") << QList<double>{1.5};
    QTest::newRow("wide range") << QList<double>{1e-300, 1e-3, 1.0, 1e6};
    QTest::newRow("tiny steps") << QList<double>{1e-10, 2e-10, 3e-10};
    QTest::newRow("close at 1e6") << QList<double>{1e6, 1e6 + 1e-3};
    QTest::newRow("integers") << QList<double>{1.0, 2.0, 3.0, 4.0, 5.0};
  }
  void inverseRoundTrip() {
    QFETCH(QList<double>, x);
    const std::string error = vtest::check_cumulative_inverse_round_trip(PositiveOrdered(), vec(x));
    QVERIFY2(error.empty(), error.c_str());
  }

  void logDetMatchesAutograd_data() { addPoints(); }
  void logDetMatchesAutograd() {
    QFETCH(QList<double>, y);
    const std::string error = vtest::check_log_det(PositiveOrdered(), vec(y), flat, 1e-15);
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardStaysInSupport_data() { addPoints(); }
  void forwardStaysInSupport() {
    QFETCH(QList<double>, y);
    const at::Tensor x = PositiveOrdered().forward(vec(y));
    QVERIFY2(variate::Support::positive_ordered().contains(x).item<bool>(), c10::str(x).c_str());
  }

  void randomPoints_data() {
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("seed");
    QTest::newRow("K = 2") << 2 << 41;
    QTest::newRow("K = 3") << 3 << 42;
    QTest::newRow("K = 5") << 5 << 43;
  }
  void randomPoints() {
    QFETCH(int, K);
    QFETCH(int, seed);
    at::Generator generator = at::detail::createCPUGenerator(seed);
    const PositiveOrdered bijector;
    for (int draw = 0; draw < 20; ++draw) {
      const at::Tensor y = 3 * at::randn({K}, generator, at::kDouble);
      std::string error = vtest::check_cumulative_round_trip(bijector, y);
      QVERIFY2(error.empty(), error.c_str());
      error = vtest::check_log_det(bijector, y, flat, 1e-15);
      QVERIFY2(error.empty(), error.c_str());
      QVERIFY(variate::Support::positive_ordered().contains(bijector.forward(y)).item<bool>());
    }
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(44);
    const at::Tensor y = 2 * at::randn({3, 2, 5}, generator, at::kDouble);
    const std::string error = vtest::check_batch_matches_singles(PositiveOrdered(), y);
    QVERIFY2(error.empty(), error.c_str());
  }

  void shapes() {
    const PositiveOrdered bijector;
    QCOMPARE(QString::fromStdString(bijector.name()), QString("positive_ordered"));
    QCOMPARE(bijector.unconstrained_event_rank(), int64_t{1});
    QCOMPARE(bijector.unconstrained_shape({4, 3}), (variate::Shape{4, 3}));
    QCOMPARE(bijector.forward_log_det_jacobian(at::zeros({3, 2, 4}, at::kDouble)).sizes(),
             (c10::IntArrayRef{3, 2}));
    QCOMPARE(bijector.forward(at::zeros({3, 4}, at::kDouble)).sizes(), (c10::IntArrayRef{3, 4}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, bijector.unconstrained_shape({}));
  }

  void float32KeepsDtype() {
    const PositiveOrdered bijector;
    const at::Tensor y = at::tensor({-1.0f, 0.5f, -2.0f});
    const at::Tensor x = bijector.forward(y);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward_log_det_jacobian(y).scalar_type(), at::kFloat);
    QVERIFY(at::allclose(x.to(at::kDouble), bijector.forward(y.to(at::kDouble)), 1e-6, 1e-6));
    QVERIFY(at::allclose(bijector.inverse(x), y, 1e-5, 1e-5));
  }

  void invalidInputsThrow_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::addColumn<QString>("message");
    QTest::newRow("decreasing") << QList<double>{0.5, 1.0, 0.75}
        << QString("PositiveOrdered: argument 'x' must be strictly increasing (positive steps between consecutive entries), got -0.25 (at index [1])");
    QTest::newRow("tie") << QList<double>{2.0, 2.0}
        << QString("PositiveOrdered: argument 'x' must be strictly increasing (positive steps between consecutive entries), got 0 (at index [0])");
    QTest::newRow("zero first") << QList<double>{0.0, 1.0}
        << QString("PositiveOrdered: argument 'x' must be positive, got 0 (at index [0])");
    QTest::newRow("negative first") << QList<double>{-1.0, 1.0}
        << QString("PositiveOrdered: argument 'x' must be positive, got -1 (at index [0])");
    QTest::newRow("infinite") << QList<double>{1.0, std::numeric_limits<double>::infinity()}
        << QString("PositiveOrdered: argument 'x' must be finite, got inf (at index [1])");
  }
  void invalidInputsThrow() {
    QFETCH(QList<double>, x);
    QFETCH(QString, message);
    try {
      PositiveOrdered().inverse(vec(x));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  void scalarsThrow() {
    try {
      PositiveOrdered().forward(at::scalar_tensor(1.0, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("PositiveOrdered: argument 'y' must have at least 1 dimension(s), got shape []"));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             PositiveOrdered().inverse(at::scalar_tensor(1.0, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestPositiveOrdered)
#include "tst_positive_ordered.moc"
