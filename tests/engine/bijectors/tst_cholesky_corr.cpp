// CholeskyCorr, Stan's cholesky_corr_constrain: Stan's loop as the reference, round trips,
// log|J| against the autograd Jacobian of the strictly lower triangle for K = 2, 3, 5,
// outputs inside the support, gradients, batches, shapes and errors.

#include <cmath>

#include <QtTest/QtTest>

#include "tests/support/bijector_check.h"
#include "tests/support/gradient_check.h"
#include "engine/bijectors/cholesky_corr.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

using variate::bijectors::CholeskyCorr;
namespace vtest = variate::testing;

namespace {

at::Tensor vec(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}

int64_t size_of(int64_t m) {
  int64_t k = 1;
  while (k * (k - 1) / 2 < m) ++k;
  return k;
}

// The strictly lower triangle of L, row by row (Stan's order for y): the coordinates that
// make the Jacobian square, since the diagonal follows from unit rows.
at::Tensor strict_lower(const at::Tensor& l) {
  std::vector<at::Tensor> entries;
  for (int64_t i = 1; i < l.size(0); ++i) {
    for (int64_t j = 0; j < i; ++j) entries.push_back(l[i][j]);
  }
  return at::stack(entries);
}

// Unconstrained points for K = 2, 3, 5 with |y| up to 8, and a few at |y| = 20, past the
// point where tanh(y) rounds to 1 in double precision.
void addPoints() {
  QTest::addColumn<QList<double>>("y");
  QTest::newRow("K = 2, identity") << QList<double>{0.0};
  QTest::newRow("K = 2") << QList<double>{0.8};
  QTest::newRow("K = 2, y = 8") << QList<double>{8.0};
  QTest::newRow("K = 2, y = -8") << QList<double>{-8.0};
  QTest::newRow("K = 2, y = 20") << QList<double>{20.0};
  QTest::newRow("K = 3, identity") << QList<double>{0.0, 0.0, 0.0};
  QTest::newRow("K = 3") << QList<double>{0.3, -0.5, 1.2};
  QTest::newRow("K = 3, all 8") << QList<double>{8.0, 8.0, 8.0};
  QTest::newRow("K = 3, mixed 8") << QList<double>{-8.0, 8.0, -8.0};
  QTest::newRow("K = 3, mixed 20") << QList<double>{20.0, -20.0, 1.0};
  QTest::newRow("K = 5") << QList<double>{0.1, -0.4, 0.9, 1.5, -1.1, 0.0, 0.3, -2.0, 0.6, 0.25};
  QTest::newRow("K = 5, all 8") << QList<double>(10, 8.0);
  QTest::newRow("K = 5, alternating 8")
      << QList<double>{8.0, -8.0, 8.0, -8.0, 8.0, -8.0, 8.0, -8.0, 8.0, -8.0};
  QTest::newRow("K = 5, branch edges")
      << QList<double>{0.5, -0.5, 0.4999, 0.5001, -3.0, 3.0, 0.0, 1e-9, -1e-9, 2.0};
}

// Round-trip tolerance. Each entry is z times the square root of a product of (1 - z^2)
// factors kept in log space, and the inverse works from sums of squares of non-negative
// terms, so errors are relative: they grow with the number of factors in a row (K) and
// with the size of the logs (|y|), not with cancellation.
double round_trip_scale(const at::Tensor& y, int64_t k) {
  const double largest = y.numel() == 0 ? 0.0 : y.abs().max().item<double>();
  return 8 * k * vtest::kEps * (1 + largest);
}

struct StanCholeskyCorr {
  at::Tensor l;
  double log_det = 0;
};

// Stan's cholesky_corr_constrain with its log-Jacobian, one element at a time (accurate
// for moderate y: it forms 1 - z^2 and 1 - sum_sqs directly).
StanCholeskyCorr stan_cholesky_corr(const std::vector<double>& y) {
  const int64_t k_size = size_of(static_cast<int64_t>(y.size()));
  StanCholeskyCorr out;
  std::vector<double> z(y.size());
  for (size_t n = 0; n < y.size(); ++n) {
    z[n] = std::tanh(y[n]);
    out.log_det += std::log1p(-z[n] * z[n]);
  }
  out.l = at::zeros({k_size, k_size}, at::kDouble);
  auto l = out.l.accessor<double, 2>();
  l[0][0] = 1;
  size_t k = 0;
  for (int64_t i = 1; i < k_size; ++i) {
    l[i][0] = z[k++];
    double sum_sqs = l[i][0] * l[i][0];
    for (int64_t j = 1; j < i; ++j) {
      out.log_det += 0.5 * std::log1p(-sum_sqs);
      l[i][j] = z[k++] * std::sqrt(1 - sum_sqs);
      sum_sqs += l[i][j] * l[i][j];
    }
    l[i][i] = std::sqrt(1 - sum_sqs);
  }
  return out;
}

}  // namespace

class TestCholeskyCorr : public QObject {
  Q_OBJECT

 private slots:
  void matchesStan_data() {
    QTest::addColumn<QList<double>>("y");
    QTest::newRow("K = 2") << QList<double>{0.8};
    QTest::newRow("K = 3") << QList<double>{0.3, -0.5, 1.2};
    QTest::newRow("K = 4") << QList<double>{-1.0, 0.2, 0.7, 1.9, -0.3, 0.05};
    QTest::newRow("K = 5") << QList<double>{0.1, -0.4, 0.9, 1.5, -1.1, 0.0, 0.3, -2.0, 0.6, 0.25};
  }
  void matchesStan() {
    QFETCH(QList<double>, y);
    const StanCholeskyCorr expected = stan_cholesky_corr({y.begin(), y.end()});
    const CholeskyCorr bijector;
    std::string error = vtest::compare_close(bijector.forward(vec(y)), expected.l, 1e-15,
                                             "forward against Stan's loop");
    QVERIFY2(error.empty(), error.c_str());
    error = vtest::compare_close(bijector.forward_log_det_jacobian(vec(y)),
                                 at::scalar_tensor(expected.log_det, at::kDouble),
                                 1e-14 * (1 + std::abs(expected.log_det)),
                                 "log-Jacobian against Stan's loop");
    QVERIFY2(error.empty(), error.c_str());
  }

  void zeroIsIdentity() {
    for (int64_t k : {1, 2, 3, 5}) {
      const at::Tensor l = CholeskyCorr().forward(at::zeros({k * (k - 1) / 2}, at::kDouble));
      QVERIFY(at::equal(l, at::eye(k, at::kDouble)));
    }
  }

  void roundTrip_data() { addPoints(); }
  void roundTrip() {
    QFETCH(QList<double>, y);
    const CholeskyCorr bijector;
    const at::Tensor point = vec(y);
    const std::string error = vtest::compare_close(
        bijector.inverse(bijector.forward(point)), point,
        round_trip_scale(point, size_of(point.numel())) * (1 + point.abs()),
        "inverse(forward(y))");
    QVERIFY2(error.empty(), error.c_str());
  }

  void inverseRoundTrip_data() {
    QTest::addColumn<QList<double>>("correlations");  // lower triangle of R, row by row
    QTest::newRow("K = 2") << QList<double>{0.5};
    QTest::newRow("K = 2, near 1") << QList<double>{1 - 1e-12};
    QTest::newRow("K = 3") << QList<double>{0.3, -0.2, 0.6};
    QTest::newRow("K = 3, strong") << QList<double>{0.99, 0.98, 0.995};
    QTest::newRow("K = 4, independent") << QList<double>{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  }
  void inverseRoundTrip() {
    QFETCH(QList<double>, correlations);
    const int64_t k = size_of(correlations.size());
    at::Tensor r = at::eye(k, at::kDouble);
    int n = 0;
    for (int64_t i = 1; i < k; ++i) {
      for (int64_t j = 0; j < i; ++j, ++n) {
        r.index_put_({i, j}, correlations[n]);
        r.index_put_({j, i}, correlations[n]);
      }
    }
    // Rescale rows so that they have unit length exactly as far as doubles allow.
    at::Tensor l = at::linalg_cholesky(r);
    l = l / l.norm(2, {-1}, true);
    const CholeskyCorr bijector;
    const at::Tensor y = bijector.inverse(l);
    const std::string error = vtest::compare_close(
        bijector.forward(y), l, round_trip_scale(y, k) * (1e-300 + l.abs()),
        "forward(inverse(L))");
    QVERIFY2(error.empty(), error.c_str());
  }

  void logDetMatchesAutograd_data() { addPoints(); }
  void logDetMatchesAutograd() {
    QFETCH(QList<double>, y);
    const std::string error = vtest::check_log_det(CholeskyCorr(), vec(y), strict_lower, 1e-14);
    QVERIFY2(error.empty(), error.c_str());
  }

  void forwardStaysInSupport_data() { addPoints(); }
  void forwardStaysInSupport() {
    QFETCH(QList<double>, y);
    const at::Tensor l = CholeskyCorr().forward(vec(y));
    QVERIFY2(variate::Support::cholesky_corr().contains(l).item<bool>(), c10::str(l).c_str());
    // L L^T is a correlation matrix: unit diagonal.
    const at::Tensor diagonal = l.matmul(l.transpose(0, 1)).diagonal();
    QVERIFY(at::allclose(diagonal, at::ones_like(diagonal), 0, 1e-15));
  }

  void randomPoints_data() {
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("seed");
    QTest::newRow("K = 2") << 2 << 61;
    QTest::newRow("K = 3") << 3 << 62;
    QTest::newRow("K = 5") << 5 << 63;
  }
  void randomPoints() {
    QFETCH(int, K);
    QFETCH(int, seed);
    at::Generator generator = at::detail::createCPUGenerator(seed);
    const CholeskyCorr bijector;
    for (int draw = 0; draw < 20; ++draw) {
      const at::Tensor y = 1.5 * at::randn({K * (K - 1) / 2}, generator, at::kDouble);
      const at::Tensor l = bijector.forward(y);
      std::string error = vtest::compare_close(
          bijector.inverse(l), y, round_trip_scale(y, K) * (1 + y.abs()), "inverse(forward(y))");
      QVERIFY2(error.empty(), error.c_str());
      error = vtest::check_log_det(bijector, y, strict_lower, 1e-14);
      QVERIFY2(error.empty(), error.c_str());
      QVERIFY(variate::Support::cholesky_corr().contains(l).item<bool>());
    }
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<QList<double>>("y");
    QTest::newRow("moderate") << QList<double>{0.3, -0.5, 1.2};
    QTest::newRow("branch edges") << QList<double>{0.5, -0.5, 0.0};
    QTest::newRow("large") << QList<double>{6.0, -3.0, 2.0};
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QList<double>, y);
    // A weighted sum, so that every entry of L and the log-Jacobian contribute.
    const at::Tensor weights = at::arange(1, 10, at::kDouble).reshape({3, 3});
    const auto f = [&](const at::Tensor& p) {
      const CholeskyCorr bijector;
      return (bijector.forward(p) * weights).sum() + bijector.forward_log_det_jacobian(p);
    };
    const std::string error = vtest::compare_gradients(f, vec(y));
    QVERIFY2(error.empty(), error.c_str());
  }

  void gradientIsFiniteAtExtremes() {
    at::Tensor y = at::tensor({0.0, 40.0, -40.0, 1.0, 0.5, -300.0}, at::kDouble).requires_grad_(true);
    const CholeskyCorr bijector;
    (bijector.forward(y).sum() + bijector.forward_log_det_jacobian(y)).backward();
    QVERIFY2(at::isfinite(y.grad()).all().item<bool>(), c10::str(y.grad()).c_str());
  }

  void batchMatchesSingles() {
    at::Generator generator = at::detail::createCPUGenerator(64);
    const at::Tensor y = 1.5 * at::randn({3, 2, 6}, generator, at::kDouble);
    const std::string error = vtest::check_batch_matches_singles(CholeskyCorr(), y);
    QVERIFY2(error.empty(), error.c_str());
  }

  void shapes() {
    const CholeskyCorr bijector;
    QCOMPARE(QString::fromStdString(bijector.name()), QString("cholesky_corr"));
    QCOMPARE(bijector.unconstrained_event_rank(), int64_t{1});
    QCOMPARE(bijector.unconstrained_shape({2, 4, 4}), (variate::Shape{2, 6}));
    QCOMPARE(bijector.unconstrained_shape({1, 1}), (variate::Shape{0}));
    QCOMPARE(bijector.forward(at::zeros({2, 6}, at::kDouble)).sizes(), (c10::IntArrayRef{2, 4, 4}));
    QCOMPARE(bijector.inverse(at::eye(4, at::kDouble).expand({2, 4, 4})).sizes(),
             (c10::IntArrayRef{2, 6}));
    QCOMPARE(bijector.forward_log_det_jacobian(at::zeros({2, 6}, at::kDouble)).sizes(),
             (c10::IntArrayRef{2}));
  }

  void invalidShapesThrow() {
    const CholeskyCorr bijector;
    try {
      bijector.forward(at::zeros({2, 4}, at::kDouble));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("CholeskyCorr: argument 'y' must have a last dimension "
                                          "K(K-1)/2 for some K, got shape [2, 4]"));
    }
    try {
      bijector.unconstrained_shape({3, 4});
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("CholeskyCorr: a constrained shape must end in K x K "
                                          "with K >= 1, got [3, 4]"));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, bijector.unconstrained_shape({3}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, bijector.unconstrained_shape({0, 0}));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             bijector.forward(at::scalar_tensor(0.0, at::kDouble)));
  }

  void invalidInputsThrow() {
    const CholeskyCorr bijector;
    try {
      bijector.inverse(at::tensor({1.0, 0.5, 0.0, 1.0}, at::kDouble).reshape({2, 2}));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("CholeskyCorr: argument 'x' must be lower triangular; "
                                          "an entry above the diagonal is, got 0.5 (at index [0, 1])"));
    }
    try {
      bijector.inverse(at::tensor({1.0, 0.0, 0.5, 1.0}, at::kDouble).reshape({2, 2}));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("CholeskyCorr: argument 'x' must be a Cholesky factor "
                                          "of a correlation matrix (rows of unit length); a row's "
                                          "squared length is, got 1.25 (at index [1])"));
    }
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             bijector.inverse(at::zeros({2, 3}, at::kDouble)));
  }

  void float32KeepsDtype() {
    const CholeskyCorr bijector;
    const at::Tensor y = at::tensor({-1.0f, 0.5f, 2.0f});
    const at::Tensor l = bijector.forward(y);
    QCOMPARE(l.scalar_type(), at::kFloat);
    QCOMPARE(bijector.forward_log_det_jacobian(y).scalar_type(), at::kFloat);
    QVERIFY(at::allclose(l.to(at::kDouble), bijector.forward(y.to(at::kDouble)), 1e-6, 1e-6));
    const variate::ValidationGuard off(false);  // float32 rows miss length 1 by more than 1e-8
    QVERIFY(at::allclose(bijector.inverse(l), y, 1e-5, 1e-5));
  }
};

QTEST_APPLESS_MAIN(TestCholeskyCorr)
#include "tst_cholesky_corr.moc"
