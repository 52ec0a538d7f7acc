// Simplex, Stan's stick-breaking transform: Stan's loop as the reference, round trips, log|J|
// against the autograd Jacobian of the first K-1 coordinates for K = 2, 3, 5, outputs
// inside the support, batches, shapes and errors.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "engine/bijectors/simplex.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

using variate::bijectors::Simplex;
namespace vtest = variate::testing;

namespace {

at::Tensor vec(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}

// The first K-1 coordinates: x_K = 1 - sum of the others, so these make J square.
at::Tensor head(const at::Tensor& x) { return x.slice(-1, 0, -1).reshape(-1); }

// Unconstrained points for K = 2, 3, 5, with |y| up to 8 (where pieces of the simplex
// reach exp(-30) and below).
void addPoints() {
  QTest::addColumn<QList<double>>("y");
  QTest::newRow("K = 2, centre") << QList<double>{0.0};
  QTest::newRow("K = 2") << QList<double>{1.3};
  QTest::newRow("K = 2, y = 8") << QList<double>{8.0};
  QTest::newRow("K = 2, y = -8") << QList<double>{-8.0};
  QTest::newRow("K = 3, centre") << QList<double>{0.0, 0.0};
  QTest::newRow("K = 3") << QList<double>{-0.4, 1.1};
  QTest::newRow("K = 3, all 8") << QList<double>{8.0, 8.0};
  QTest::newRow("K = 3, all -8") << QList<double>{-8.0, -8.0};
  QTest::newRow("K = 3, 8 and -8") << QList<double>{8.0, -8.0};
  QTest::newRow("K = 5") << QList<double>{0.2, -1.0, 0.5, 2.0};
  QTest::newRow("K = 5, all 8") << QList<double>{8.0, 8.0, 8.0, 8.0};
  QTest::newRow("K = 5, all -8") << QList<double>{-8.0, -8.0, -8.0, -8.0};
  QTest::newRow("K = 5, alternating") << QList<double>{8.0, -8.0, 8.0, -8.0};
  QTest::newRow("K = 5, alternating from -8") << QList<double>{-8.0, 8.0, -8.0, 8.0};
}

// Every step works on logs of products of K-1 factors and sums of non-negative terms, so
// relative errors grow with K and with the size of the logs (|y| + log K), not with
// cancellation: 8 K eps (1 + log K + max|y|) in y, and that times x_k for each x_k.
double round_trip_scale(const at::Tensor& y, int64_t k) {
  const double largest = y.numel() == 0 ? 0.0 : y.abs().max().item<double>();
  return 8 * k * vtest::kEps * (1 + std::log(static_cast<double>(k)) + largest);
}

struct StanSimplex {
  std::vector<double> x;
  double log_det = 0;
};

// Stan's simplex_constrain with its log-Jacobian, one element at a time (accurate for
// moderate y: it takes x_K as 1 - sum and log inv_logit directly).
StanSimplex stan_simplex(const std::vector<double>& y) {
  const size_t n = y.size();
  StanSimplex out;
  double stick = 1;
  for (size_t k = 0; k < n; ++k) {
    const double adjusted = y[k] - std::log(static_cast<double>(n - k));
    const double z = 1 / (1 + std::exp(-adjusted));
    out.x.push_back(stick * z);
    out.log_det += std::log(stick) + std::log(z) + std::log1p(-z);
    stick -= out.x.back();
  }
  out.x.push_back(stick);
  return out;
}

}  // namespace

class TestSimplex : public QObject {
  Q_OBJECT

 private slots:
  void matchesStan_data() {
    QTest::addColumn<QList<double>>("y");
    QTest::newRow("K = 2") << QList<double>{1.3};
    QTest::newRow("K = 3") << QList<double>{-0.4, 1.1};
    QTest::newRow("K = 5") << QList<double>{0.2, -1.0, 0.5, 2.0};
    QTest::newRow("K = 5, spread") << QList<double>{-3.0, 3.0, -2.0, 2.5};
  }
  void matchesStan() {
    QFETCH(QList<double>, y);
    const StanSimplex expected = stan_simplex({y.begin(), y.end()});
    const Simplex bijector;
    std::string error = vtest::compare_close(bijector.forward(vec(y)),
                                             at::tensor(expected.x, at::kDouble), 1e-15,
                                             "forward against Stan's loop");
    QVERIFY2(error.empty(), error.c_str());
    error = vtest::compare_close(bijector.forward_log_det_jacobian(vec(y)),
                                 at::scalar_tensor(expected.log_det, at::kDouble),
                                 1e-14 * (1 + std::abs(expected.log_det)),
                                 "log-Jacobian against Stan's loop");
    QVERIFY2(error.empty(), error.c_str());
  }

  void centreIsUniform() {
    for (int64_t k : {1, 2, 3, 5, 10}) {
      const at::Tensor x = Simplex().forward(at::zeros({k - 1}, at::kDouble));
      const std::string error = vtest::compare_close(
          x, at::full({k}, 1.0 / k, at::kDouble), 4 * vtest::kEps, "centre");
      QVERIFY2(error.empty(), error.c_str());
    }
  }

  void roundTrip_data() { addPoints(); }
  void roundTrip() {
    QFETCH(QList<double>, y);
    const Simplex bijector;
    const at::Tensor point = vec(y);
    const std::string error =
        vtest::compare_close(bijector.inverse(bijector.forward(point)), point,
                             round_trip_scale(point, point.numel() + 1), "inverse(forward(y))");
    QVERIFY2(error.empty(), error.c_str());
  }

  void inverseRoundTrip_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::newRow("K = 1") << QList<double>{1.0};
    QTest::newRow("K = 2") << QList<double>{0.25, 0.75};
    QTest::newRow("K = 3") << QList<double>{0.2, 0.3, 0.5};
    QTest::newRow("K = 3, tiny ends") << QList<double>{1e-12, 1 - 2e-12, 1e-12};
    QTest::newRow("K = 4, tiny last") << QList<double>{0.5, 0.25, 0.25 - 1e-14, 1e-14};
    QTest::newRow("K = 5, uniform") << QList<double>{0.2, 0.2, 0.2, 0.2, 0.2};
  }
  void inverseRoundTrip() {
    QFETCH(QList<double>, x);
    const Simplex bijector;
    const at::Tensor point = vec(x);
    const at::Tensor y = bijector.inverse(point);
    // Relative to each entry: tiny entries come back to their own precision.
    const std::string error = vtest::compare_close(
        bijector.forward(y), point, round_trip_scale(y, point.numel()) * point,
        "forward(inverse(x))");
    QVERIFY2(error.empty(), error.c_str());
  }

  void logDetMatchesAutograd_data() { addPoints(); }
  void logDetMatchesAutograd() {
    QFETCH(QList<double>, y);
    const std::string error = vtest::check_log_det(Simplex(), vec(y), head, 1e-14);
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardStaysInSupport_data() { addPoints(); }
  void forwardStaysInSupport() {
    QFETCH(QList<double>, y);
    const at::Tensor x = Simplex().forward(vec(y));
    QVERIFY2(variate::Support::simplex().contains(x).item<bool>(), c10::str(x).c_str());
    QVERIFY((x > 0).all().item<bool>());  // no piece underflows at |y| <= 8
  }

  void randomPoints_data() {
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("seed");
    QTest::newRow("K = 2") << 2 << 51;
    QTest::newRow("K = 3") << 3 << 52;
    QTest::newRow("K = 5") << 5 << 53;
  }
  void randomPoints() {
    QFETCH(int, K);
    QFETCH(int, seed);
    at::Generator generator = at::detail::createCPUGenerator(seed);
    const Simplex bijector;
    for (int draw = 0; draw < 20; ++draw) {
      const at::Tensor y = 2 * at::randn({K - 1}, generator, at::kDouble);
      const at::Tensor x = bijector.forward(y);
      std::string error = vtest::compare_close(bijector.inverse(x), y,
                                               round_trip_scale(y, K), "inverse(forward(y))");
      QVERIFY2(error.empty(), error.c_str());
      error = vtest::check_log_det(bijector, y, head, 1e-14);
      QVERIFY2(error.empty(), error.c_str());
      QVERIFY(variate::Support::simplex().contains(x).item<bool>());
    }
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(54);
    const at::Tensor y = 2 * at::randn({3, 2, 4}, generator, at::kDouble);
    const std::string error = vtest::check_batch_matches_singles(Simplex(), y);
    QVERIFY2(error.empty(), error.c_str());
  }

  void shapes() {
    const Simplex bijector;
    QCOMPARE(QString::fromStdString(bijector.name()), QString("simplex"));
    QCOMPARE(bijector.unconstrained_event_rank(), int64_t{1});
    QCOMPARE(bijector.unconstrained_shape({3, 5}), (variate::Shape{3, 4}));
    QCOMPARE(bijector.unconstrained_shape({1}), (variate::Shape{0}));
    QCOMPARE(bijector.forward(at::zeros({2, 4}, at::kDouble)).sizes(), (c10::IntArrayRef{2, 5}));
    QCOMPARE(bijector.inverse(at::full({2, 5}, 0.2, at::kDouble)).sizes(), (c10::IntArrayRef{2, 4}));
    QCOMPARE(bijector.forward_log_det_jacobian(at::zeros({2, 4}, at::kDouble)).sizes(),
             (c10::IntArrayRef{2}));
    // K = 1: the one-point simplex, with nothing to transform.
    QCOMPARE(bijector.forward(at::zeros({0}, at::kDouble)).item<double>(), 1.0);
    QCOMPARE(bijector.forward_log_det_jacobian(at::zeros({0}, at::kDouble)).item<double>(), 0.0);
  }

  void invalidShapesThrow() {
    const Simplex bijector;
    try {
      bijector.unconstrained_shape({2, 0});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("Simplex: a constrained shape must have a last "
                                          "dimension of at least 1, got [2, 0]"));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, bijector.unconstrained_shape({}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             bijector.forward(at::scalar_tensor(0.0, at::kDouble)));
    try {
      bijector.inverse(at::zeros({3, 0}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("Simplex: argument 'x' must have at least one entry "
                                          "in its last dimension, got shape [3, 0]"));
    }
  }

  void float32KeepsDtype() {
    const Simplex bijector;
    const at::Tensor y = at::tensor({-1.0f, 0.5f, 2.0f});
    const at::Tensor x = bijector.forward(y);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward_log_det_jacobian(y).scalar_type(), at::kFloat);
    QVERIFY(at::allclose(x.to(at::kDouble), bijector.forward(y.to(at::kDouble)), 1e-6, 1e-6));
    const variate::ValidationGuard off(false);  // float32 sums miss 1 by more than 1e-8
    QVERIFY(at::allclose(bijector.inverse(x), y, 1e-5, 1e-5));
  }

  void invalidInputsThrow_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative entry") << QList<double>{-0.5, 1.5}
        << QString("Simplex: argument 'x' must be a simplex (non-negative entries), got -0.5 (at index [0])");
    QTest::newRow("sum above 1") << QList<double>{0.5, 0.75}
        << QString("Simplex: argument 'x' must be a simplex (entries summing to 1), got sum 1.25");
  }
  void invalidInputsThrow() {
    QFETCH(QList<double>, x);
    QFETCH(QString, message);
    try {
      Simplex().inverse(vec(x));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }
};

QTEST_APPLESS_MAIN(TestSimplex)
#include "tst_simplex.moc"
