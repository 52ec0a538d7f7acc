// Dirichlet(alpha): density against lgamma sums, gradients, sampling, batches, errors.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "support/gradient_check.h"
#include "support/statistics.h"
#include "variate/core/checks.h"
#include "variate/distributions/dirichlet.h"

using variate::distributions::Dirichlet;
namespace vtest = variate::testing;

namespace {

at::Tensor vector(const QList<double>& values) {
  return at::tensor(std::vector<double>(values.begin(), values.end()), at::kDouble);
}

// The textbook density, term by term in double; also returns the terms' magnitude so the
// tolerance can follow the cancellation in lgamma sums of huge alpha.
double naive_dirichlet_log_density(const QList<double>& x, const QList<double>& alpha,
                                   double* magnitude) {
  double total_alpha = 0;
  double log_density = 0;
  *magnitude = 0;
  for (int i = 0; i < alpha.size(); ++i) {
    total_alpha += alpha[i];
    const double term = -std::lgamma(alpha[i]) + (alpha[i] - 1) * std::log(x[i]);
    log_density += term;
    *magnitude += std::abs(std::lgamma(alpha[i])) + std::abs((alpha[i] - 1) * std::log(x[i]));
  }
  log_density += std::lgamma(total_alpha);
  *magnitude += std::abs(std::lgamma(total_alpha));
  return log_density;
}

void expect_error(const std::function<void()>& make, const QString& message) {
  try {
    make();
    QFAIL("no exception");
  } catch (const variate::ArgumentError& e) {
    QCOMPARE(QString(e.what()), message);
  }
}

}  // namespace

class TestDirichlet : public QObject {
  Q_OBJECT

 private slots:
  void logProbMatchesFormula_data() {
    QTest::addColumn<QList<double>>("alpha");
    QTest::addColumn<QList<double>>("x");
    QTest::newRow("uniform") << QList<double>{1, 1, 1} << QList<double>{0.2, 0.3, 0.5};
    QTest::newRow("asymmetric") << QList<double>{2.5, 0.7, 4} << QList<double>{0.1, 0.6, 0.3};
    QTest::newRow("two entries (beta)") << QList<double>{2, 5} << QList<double>{0.3, 0.7};
    QTest::newRow("tiny alpha") << QList<double>{1e-3, 1e-3, 1e-3}
                                << QList<double>{0.998, 1e-3, 1e-3};
    QTest::newRow("huge alpha") << QList<double>{1e4, 2e4, 3e4}
                                << QList<double>{1.0 / 6, 1.0 / 3, 0.5};
    QTest::newRow("near a vertex") << QList<double>{0.5, 1.5, 3, 1, 2}
                                   << QList<double>{1e-10, 0.25, 0.25, 0.25, 0.25 - 1e-10};
  }
  void logProbMatchesFormula() {
    QFETCH(QList<double>, alpha);
    QFETCH(QList<double>, x);
    const double got = Dirichlet(vector(alpha)).log_prob(vector(x)).item<double>();
    double magnitude = 0;
    const double expected = naive_dirichlet_log_density(x, alpha, &magnitude);
    QVERIFY2(std::abs(got - expected) <= 1e-13 * std::max(1.0, magnitude),
             qPrintable(QString("got %1, expected %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  }

  void outsideTheSimplexIsMinusInfinity_data() {
    QTest::addColumn<QList<double>>("x");
    QTest::addColumn<bool>("inside");
    QTest::newRow("sum above 1") << QList<double>{0.5, 0.6, 0.1} << false;
    QTest::newRow("negative entry") << QList<double>{-0.1, 0.6, 0.5} << false;
    QTest::newRow("sum off by 1e-7") << QList<double>{0.2, 0.3, 0.5 + 1e-7} << false;
    QTest::newRow("sum off by 1e-10") << QList<double>{0.2, 0.3, 0.5 + 1e-10} << true;
    QTest::newRow("a zero entry with alpha 1") << QList<double>{0.0, 0.4, 0.6} << true;
  }
  void outsideTheSimplexIsMinusInfinity() {
    QFETCH(QList<double>, x);
    QFETCH(bool, inside);
    const double got = Dirichlet(vector({1, 2, 3})).log_prob(vector(x)).item<double>();
    if (inside) {
      QVERIFY2(std::isfinite(got), qPrintable(QString::number(got)));
    } else {
      QCOMPARE(got, -std::numeric_limits<double>::infinity());
    }
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<QList<double>>("point");  // alpha_1..3, then x_1, x_2 (x_3 = 1 - x_1 - x_2)
    QTest::newRow("moderate") << QList<double>{2.0, 3.0, 0.5, 0.2, 0.3};
    QTest::newRow("small alpha") << QList<double>{0.1, 0.4, 0.05, 0.7, 0.25};
    QTest::newRow("large alpha") << QList<double>{40.0, 15.0, 80.0, 0.3, 0.1};
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QList<double>, point);
    // The value moves only inside the simplex: its last entry closes the sum.
    const auto log_prob = [](const at::Tensor& p) {
      const at::Tensor x = at::stack({p[3], p[4], 1 - p[3] - p[4]});
      return Dirichlet(p.narrow(0, 0, 3)).log_prob(x);
    };
    const std::string error = vtest::compare_gradients(log_prob, vector(point));
    QVERIFY2(error.empty(), error.c_str());
  }

  void batchFirstShapes() {
    // Four rows of alpha, one event of 3 each; values [2, 4, 3] broadcast over the batch.
    const at::Tensor alpha = at::tensor({1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 0.5, 0.5, 0.5, 9.0, 1.0, 2.0},
                                        at::kDouble).reshape({4, 3});
    const Dirichlet dirichlet(alpha);
    QCOMPARE(dirichlet.batch_shape(), (variate::Shape{4}));
    QCOMPARE(dirichlet.event_shape(), (variate::Shape{3}));
    at::Generator generator = at::detail::createCPUGenerator(5);
    const at::Tensor x = dirichlet.sample({2}, generator);
    QCOMPARE(x.sizes(), (c10::IntArrayRef{2, 4, 3}));
    const at::Tensor log_prob = dirichlet.log_prob(x);
    QCOMPARE(log_prob.sizes(), (c10::IntArrayRef{2, 4}));
    for (int64_t s = 0; s < 2; ++s) {
      for (int64_t b = 0; b < 4; ++b) {
        QList<double> a;
        QList<double> v;
        for (int64_t i = 0; i < 3; ++i) {
          a << alpha[b][i].item<double>();
          v << x[s][b][i].item<double>();
        }
        double magnitude = 0;
        const double expected = naive_dirichlet_log_density(v, a, &magnitude);
        QVERIFY(std::abs(log_prob[s][b].item<double>() - expected) <= 1e-12 * std::max(1.0, magnitude));
      }
    }
  }

  void samplerMatchesMoments_data() {
    QTest::addColumn<QList<double>>("alpha");
    QTest::newRow("moderate") << QList<double>{2, 3, 5};
    QTest::newRow("small") << QList<double>{0.1, 0.2, 0.3};
    QTest::newRow("large, two entries") << QList<double>{50, 150};
  }
  void samplerMatchesMoments() {
    QFETCH(QList<double>, alpha);
    at::Generator generator = at::detail::createCPUGenerator(42);
    const at::Tensor a = vector(alpha);
    const at::Tensor draws = Dirichlet(a).sample({100000}, generator);
    const at::Tensor total = a.sum();
    const at::Tensor mean = a / total;
    const at::Tensor variance = a * (total - a) / (total * total * (total + 1));
    const std::string error = vtest::check_moments(draws, mean, variance);
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY((at::abs(draws.sum(-1) - 1) < 1e-12).all().item<bool>());
  }

  void samplerIsReparameterized() {
    // d E[x_1] / d alpha_j = (delta_1j A - alpha_1) / A^2 with A = sum alpha, estimated from
    // pathwise gradients in 100 independent batches so the standard error is known.
    const at::Tensor alpha = at::tensor({2.0, 3.0, 5.0}, at::kDouble);
    at::Generator generator = at::detail::createCPUGenerator(11);
    std::vector<at::Tensor> estimates;
    for (int batch = 0; batch < 100; ++batch) {
      const at::Tensor a = alpha.clone().requires_grad_(true);
      Dirichlet(a).sample({2000}, generator).select(-1, 0).mean().backward();
      estimates.push_back(a.grad().clone());
    }
    const at::Tensor all = at::stack(estimates);
    const at::Tensor mean = all.mean(0);
    const at::Tensor standard_error = all.std(0) / std::sqrt(100.0);
    const at::Tensor expected = at::tensor({8.0 / 100, -2.0 / 100, -2.0 / 100}, at::kDouble);
    QVERIFY2((at::abs(mean - expected) <= 5 * standard_error).all().item<bool>(),
             qPrintable(QString("pathwise gradient %1 %2 %3")
                            .arg(mean[0].item<double>()).arg(mean[1].item<double>())
                            .arg(mean[2].item<double>())));
  }

  void float32StaysFloat32() {
    const Dirichlet dirichlet(at::tensor({1.5f, 2.0f, 0.5f, 4.0f}));
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor x = dirichlet.sample({1000}, generator);
    QCOMPARE(x.scalar_type(), at::kFloat);
    const at::Tensor log_prob = dirichlet.log_prob(x);
    QCOMPARE(log_prob.scalar_type(), at::kFloat);
    QVERIFY(at::isfinite(log_prob).all().item<bool>());
  }

  void samplingIsReproducible() {
    at::Generator a = at::detail::createCPUGenerator(3);
    at::Generator b = at::detail::createCPUGenerator(3);
    const Dirichlet dirichlet(vector({1, 2, 3}));
    QVERIFY(at::equal(dirichlet.sample({10}, a), dirichlet.sample({10}, b)));
  }

  void factoryMakesRandomVariable() {
    const auto theta = variate::Dirichlet("theta", vector({1, 2, 3}), {4});
    QCOMPARE(theta.name(), std::string("theta"));
    QCOMPARE(theta.distribution().name(), std::string("Dirichlet"));
    QCOMPARE(theta.shape(), (variate::Shape{4, 3}));
    QCOMPARE(theta.log_prob().sizes(), (c10::IntArrayRef{4}));
  }

  void invalidArgumentsThrow_data() {
    QTest::addColumn<QList<double>>("alpha");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero alpha") << QList<double>{1, 0, 2}
        << QString("Dirichlet: argument 'alpha' must be positive, got 0 (at index [1])");
    QTest::newRow("negative alpha") << QList<double>{-1, 1}
        << QString("Dirichlet: argument 'alpha' must be positive, got -1 (at index [0])");
    QTest::newRow("nan alpha") << QList<double>{1, std::nan("")}
        << QString("Dirichlet: argument 'alpha' must be positive, got nan (at index [1])");
    QTest::newRow("infinite alpha") << QList<double>{1, std::numeric_limits<double>::infinity()}
        << QString("Dirichlet: argument 'alpha' must be finite, got inf (at index [1])");
  }
  void invalidArgumentsThrow() {
    QFETCH(QList<double>, alpha);
    QFETCH(QString, message);
    expect_error([&] { Dirichlet{vector(alpha)}; }, message);
  }

  void invalidShapesThrow() {
    expect_error([] { Dirichlet{at::scalar_tensor(2.0, at::kDouble)}; },
                 "Dirichlet: argument 'alpha' must have at least 1 dimension(s), got shape []");
    expect_error([] { Dirichlet(vector({1, 2, 3})).log_prob(vector({0.5, 0.5})); },
                 "Dirichlet: value must end in 3 entries, got shape [2]");
  }

  // Each coordinate of a Dirichlet(a) draw is Beta(a_i, sum(a) - a_i).
  void samplerMarginalsPassKolmogorovSmirnov() {
    at::Generator generator = at::detail::createCPUGenerator(17);
    const at::Tensor a = at::tensor({0.7, 2.0, 4.5}, at::kDouble);
    const at::Tensor draws = Dirichlet(a).sample({20000}, generator);
    const double total = a.sum().item<double>();
    for (int64_t i = 0; i < 3; ++i) {
      const double ai = a[i].item<double>();
      const auto ks = vtest::ks_test(draws.select(-1, i), [&](double x) {
        return vtest::incomplete_beta(ai, total - ai, x);
      });
      QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("coordinate %1: KS p-value %2").arg(i).arg(ks.p_value)));
    }
  }
};

QTEST_APPLESS_MAIN(TestDirichlet)
#include "tst_dirichlet.moc"
