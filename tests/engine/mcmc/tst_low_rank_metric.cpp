// The low-rank + diagonal metric: the eigen-decomposition it rests on, its estimate from
// draws and gradients (exact on Gaussians, in the whole space and in a subspace), the
// metric's algebra, and NUTS adapting it.

#include <cmath>
#include <random>

#include <QtTest/QtTest>

#include "engine/mcmc/euclidean_metric.h"
#include "engine/mcmc/fisher_warmup.h"
#include "engine/mcmc/low_rank_estimate.h"
#include "engine/mcmc/sample.h"
#include "engine/mcmc/symmetric_eigen.h"
#include "engine/variate.h"

namespace vt = variate;

namespace {

using Matrix = std::vector<double>;  // row-major, square

// n draws of N(0, covariance) and their gradients, -covariance^-1 x.
struct GaussianWindow {
  std::vector<std::vector<double>> draws, gradients;
};

GaussianWindow gaussian_window(const Matrix& covariance, size_t d, size_t n, unsigned seed) {
  // Cholesky factor of the covariance, and the precision by solving with it.
  Matrix l(d * d, 0.0);
  for (size_t i = 0; i < d; ++i) {
    for (size_t j = 0; j <= i; ++j) {
      double sum = covariance[i * d + j];
      for (size_t k = 0; k < j; ++k) sum -= l[i * d + k] * l[j * d + k];
      l[i * d + j] = i == j ? std::sqrt(sum) : sum / l[j * d + j];
    }
  }
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  GaussianWindow window;
  for (size_t draw = 0; draw < n; ++draw) {
    std::vector<double> z(d), x(d, 0.0), y(d), g(d);
    for (double& v : z) v = normal(random);
    for (size_t i = 0; i < d; ++i) {
      for (size_t k = 0; k <= i; ++k) x[i] += l[i * d + k] * z[k];
    }
    // g = -(L L')^-1 x: solve L y = x, then L' g = -y.
    for (size_t i = 0; i < d; ++i) {
      double sum = x[i];
      for (size_t k = 0; k < i; ++k) sum -= l[i * d + k] * y[k];
      y[i] = sum / l[i * d + i];
    }
    for (size_t i = d; i-- > 0;) {
      double sum = -y[i];
      for (size_t k = i + 1; k < d; ++k) sum -= l[k * d + i] * g[k];
      g[i] = sum / l[i * d + i];
    }
    window.draws.push_back(x);
    window.gradients.push_back(g);
  }
  return window;
}

// The metric's inverse, column by column: its velocity for each unit momentum.
Matrix inverse_metric_of(const vt::EuclideanMetric& metric) {
  const size_t d = metric.dimension();
  Matrix m(d * d);
  std::vector<double> p(d), v;
  for (size_t j = 0; j < d; ++j) {
    std::fill(p.begin(), p.end(), 0.0);
    p[j] = 1;
    metric.velocity(p, v);
    for (size_t i = 0; i < d; ++i) m[i * d + j] = v[i];
  }
  return m;
}

vt::EuclideanMetric metric_from(const vt::LowRankEstimate& estimate) {
  vt::EuclideanMetric metric(vt::MetricKind::low_rank, estimate.variances.size());
  metric.set_inverse_metric(vt::low_rank_entries(estimate.variances, estimate.values, estimate.vectors));
  return metric;
}

// Largest |a - b| relative to sqrt(a_ii a_jj).
double largest_difference(const Matrix& a, const Matrix& b, size_t d) {
  double largest = 0;
  for (size_t i = 0; i < d; ++i) {
    for (size_t j = 0; j < d; ++j) {
      largest = std::max(largest, std::abs(a[i * d + j] - b[i * d + j]) / std::sqrt(b[i * d + i] * b[j * d + j]));
    }
  }
  return largest;
}

// A correlation rho between coordinates 0 and 1 (unit variances), the others independent
// with variances spread over four orders of magnitude.
Matrix correlated_pair(size_t d, double rho) {
  Matrix covariance(d * d, 0.0);
  for (size_t i = 0; i < d; ++i)
    covariance[i * d + i] = i < 2 ? 1.0 : std::pow(10.0, -2.0 + 4.0 * double(i) / double(d));
  covariance[1] = covariance[d] = rho;
  return covariance;
}

vt::UnconstrainedTarget gaussian_target(const at::Tensor& covariance) {
  auto log_joint = vt::make_log_joint(
      [covariance] { vt::MultiNormal("x", at::zeros({covariance.size(0)}, at::kDouble), covariance); });
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

}  // namespace

class TestLowRankMetric : public QObject {
  Q_OBJECT

 private slots:
  void symmetricEigenDecomposes() {
    const size_t n = 7;
    std::mt19937_64 random(3);
    std::normal_distribution<double> normal;
    Matrix a(n * n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j <= i; ++j) a[i * n + j] = a[j * n + i] = normal(random);
    }
    const vt::SymmetricEigen eigen = vt::symmetric_eigen(a, n);
    for (size_t k = 0; k < n; ++k) {
      for (size_t i = 0; i < n; ++i) {
        double av = 0;
        for (size_t j = 0; j < n; ++j) av += a[i * n + j] * eigen.vectors[j * n + k];
        QVERIFY2(std::abs(av - eigen.values[k] * eigen.vectors[i * n + k]) < 1e-12,
                 qPrintable(QString("A v != value v for eigenpair %1").arg(k)));
      }
      for (size_t m = 0; m < n; ++m) {
        double dot = 0;
        for (size_t i = 0; i < n; ++i) dot += eigen.vectors[i * n + k] * eigen.vectors[i * n + m];
        QVERIFY(std::abs(dot - (k == m ? 1.0 : 0.0)) < 1e-12);
      }
    }
    // The square root through the decomposition squares back to the matrix's square.
    const Matrix square_root_of_square =
        vt::matrix_function(eigen, n, [](double v) { return std::abs(v); });  // |A| = (A^2)^1/2
    Matrix square(n * n, 0.0), back(n * n, 0.0);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        for (size_t k = 0; k < n; ++k) {
          square[i * n + j] += a[i * n + k] * a[k * n + j];
          back[i * n + j] += square_root_of_square[i * n + k] * square_root_of_square[k * n + j];
        }
      }
    }
    for (size_t i = 0; i < n * n; ++i) QVERIFY(std::abs(square[i] - back[i]) < 1e-10);
  }

  // For a Gaussian, the draws' covariance A and the gradients' B satisfy A # B^-1 = the
  // covariance exactly, whatever the draws: only the ridge (1e-3) separates them. Beyond
  // 100 dimensions the estimate works in the span of the last 50 draws and gradients;
  // where the covariance leaves that span invariant (here: it holds the correlated pair's
  // plane, and is the identity elsewhere once scaled) it is still exact.
  void estimatesAGaussiansCovariance_data() {
    QTest::addColumn<int>("dimension");
    QTest::addColumn<int>("draws");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("whole space") << 6 << 60 << 5e-3;
    QTest::newRow("span of draws and gradients") << 150 << 80 << 1e-2;
  }

  void estimatesAGaussiansCovariance() {
    QFETCH(int, dimension);
    QFETCH(int, draws);
    QFETCH(double, tolerance);
    const auto d = size_t(dimension);
    const Matrix covariance = correlated_pair(d, 0.95);
    const GaussianWindow window = gaussian_window(covariance, d, size_t(draws), 5);
    const vt::LowRankEstimate estimate = vt::estimate_low_rank(window.draws, window.gradients, 4);
    // Scaled, the pair's eigenvalues are sqrt((1 + rho) / (1 - rho)) = 6.2 and its inverse:
    // beyond the cutoff of 4; the independent coordinates' are 1.
    QCOMPARE(estimate.values.size(), size_t{2});
    const double difference = largest_difference(inverse_metric_of(metric_from(estimate)), covariance, d);
    QVERIFY2(difference < tolerance, qPrintable(QString("largest relative difference %1").arg(difference)));
    // The diagonal estimate alone misses the correlation.
    const double diagonal_only =
        largest_difference(inverse_metric_of(metric_from({estimate.variances, {}, {}})), covariance, d);
    QVERIFY2(diagonal_only > 0.5, qPrintable(QString("diagonal alone: %1").arg(diagonal_only)));
  }

  void keepsOnlyEigenvaluesBeyondTheCutoff() {
    const size_t d = 4;
    const Matrix covariance = correlated_pair(d, 0.5);  // scaled eigenvalues 1.7 and 0.58
    const GaussianWindow window = gaussian_window(covariance, d, 60, 7);
    QCOMPARE(vt::estimate_low_rank(window.draws, window.gradients, 4).values.size(), size_t{0});
    QCOMPARE(vt::estimate_low_rank(window.draws, window.gradients, 1.5).values.size(), size_t{2});
  }

  // Kinetic energy, velocity and momenta agree with the metric M^-1 they stand for.
  void momentaAreDrawnFromTheMetric() {
    const size_t d = 5;
    const Matrix covariance = correlated_pair(d, 0.95);
    const GaussianWindow window = gaussian_window(covariance, d, 60, 8);
    const vt::EuclideanMetric metric = metric_from(vt::estimate_low_rank(window.draws, window.gradients, 4));
    const Matrix inverse = inverse_metric_of(metric);
    vt::RandomStream random = vt::RandomStream::for_chain(9, 0);
    std::vector<double> p, v;
    const int n = 40000;
    double chi_square = 0, pair = 0;  // E[p' M^-1 p] = d; E[(p_0 + p_1)^2] = (e0 + e1)' M (e0 + e1)
    for (int i = 0; i < n; ++i) {
      metric.sample_momentum(p, random);
      metric.velocity(p, v);
      double dot = 0;
      for (size_t k = 0; k < d; ++k) dot += p[k] * v[k];
      QVERIFY(std::abs(metric.kinetic_energy(p) - 0.5 * dot) < 1e-9 * (1 + dot));
      chi_square += dot;
      pair += (p[0] + p[1]) * (p[0] + p[1]);
    }
    QVERIFY2(std::abs(chi_square / n - double(d)) < 0.1, qPrintable(QString("E[p'M^-1 p] %1").arg(chi_square / n)));
    // M's block for the pair is the inverse of [[1, rho], [rho, 1]]: (e0 + e1)' M (e0 + e1) = 2 / (1 + rho).
    const double expected = 2 / (1 + 0.95);
    QVERIFY2(std::abs(pair / n / expected - 1) < 0.03, qPrintable(QString("E[(p0 + p1)^2] %1").arg(pair / n)));
    Q_UNUSED(inverse);
  }

  void refusesEntriesThatAreNotALowRankMetric() {
    vt::EuclideanMetric metric(vt::MetricKind::low_rank, 2);
    QCOMPARE(metric.inverse_metric(), (std::vector<double>{0, 1, 1}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, metric.set_inverse_metric({1, 1}));              // d entries alone
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, metric.set_inverse_metric({1, 1, 1, 2, 0}));     // one short
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, metric.set_inverse_metric({0, 1, -1}));          // a negative variance
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, metric.set_inverse_metric({1, 1, 1, 0, 1, 0}));  // eigenvalue 0
    metric.set_inverse_metric({1, 1, 1, 9, 1, 0});
    QCOMPARE(vt::low_rank_dimension(metric.inverse_metric()), 2L);
  }

  // NUTS adapts the metric: it finds the correlated pair, samples the right moments, and
  // takes far fewer steps than with the diagonal metric; the draws do not depend on the
  // thread count, and a continued run keeps the metric.
  void nutsAdaptsTheMetricAndSamplesTheGaussian() {
    const size_t d = 5;
    const Matrix covariance = correlated_pair(d, 0.99);
    const at::Tensor sigma = at::tensor(covariance, at::kDouble).reshape({long(d), long(d)});
    const auto target = gaussian_target(sigma);
    const auto options = vt::NutsOptions().chains(4).seed(21).metric(vt::MetricKind::low_rank);
    const auto chains = vt::sample_nuts(target, options);
    double n = 0, s00 = 0, s11 = 0, s01 = 0, s44 = 0, steps = 0;
    for (const auto& chain : chains) {
      QCOMPARE(chain.metric, vt::MetricKind::low_rank);
      QVERIFY2(chain.inverse_metric[0] >= 1, "the metric found no direction beyond the diagonal");
      QVERIFY(chain.warmup_iterations < 1000);  // the Fisher adaptation ended it
      for (size_t i = size_t(chain.warmup_iterations); i < chain.positions.size(); ++i) {
        const auto& q = chain.positions[i];
        ++n;
        s00 += q[0] * q[0];
        s11 += q[1] * q[1];
        s01 += q[0] * q[1];
        s44 += q[4] * q[4];
        steps += chain.stats[i].leapfrog_steps;
      }
    }
    QVERIFY2(std::abs(s00 / n - 1) < 0.08 && std::abs(s11 / n - 1) < 0.08,
             qPrintable(QString("variances %1 %2").arg(s00 / n).arg(s11 / n)));
    QVERIFY2(std::abs(s01 / std::sqrt(s00 * s11) - 0.99) < 0.005,
             qPrintable(QString("correlation %1").arg(s01 / std::sqrt(s00 * s11))));
    QVERIFY2(std::abs(s44 / n / covariance[4 * d + 4] - 1) < 0.08, qPrintable(QString("variance 4 %1").arg(s44 / n)));
    // On a Gaussian that the metric makes round, NUTS needs a few steps a draw; the
    // diagonal metric's trajectories must cross the narrow direction (~1/0.14 wide).
    const double low_rank_steps = steps / n;
    double diagonal_steps = 0, diagonal_n = 0;
    for (const auto& chain :
         vt::sample_nuts(target, vt::NutsOptions().chains(4).seed(21).adaptation(vt::Adaptation::fisher))) {
      for (size_t i = size_t(chain.warmup_iterations); i < chain.positions.size(); ++i) {
        diagonal_steps += chain.stats[i].leapfrog_steps;
        ++diagonal_n;
      }
    }
    QVERIFY2(
        low_rank_steps * 3 < diagonal_steps / diagonal_n,
        qPrintable(
            QString("steps a draw: %1 low rank, %2 diagonal").arg(low_rank_steps).arg(diagonal_steps / diagonal_n)));

    const auto one_thread = vt::sample_nuts(target, vt::NutsOptions(options).draws(50).threads(1));
    const auto two_threads = vt::sample_nuts(target, vt::NutsOptions(options).draws(50).threads(2));
    for (size_t c = 0; c < one_thread.size(); ++c) {
      QVERIFY(one_thread[c].positions == two_threads[c].positions);
      QVERIFY(one_thread[c].inverse_metric == two_threads[c].inverse_metric);
    }

    std::vector<vt::ChainStart> starts;
    for (const auto& chain : chains) starts.push_back({chain.positions.back(), chain.step_size, chain.inverse_metric});
    const auto more = vt::sample_nuts(
        target,
        vt::NutsOptions().chains(4).seed(21).metric(vt::MetricKind::low_rank).warmup(0).draws(20).resume_from(starts));
    for (size_t c = 0; c < more.size(); ++c) QVERIFY(more[c].inverse_metric == chains[c].inverse_metric);
  }

  // Past kLargestLowRank parameters the window's draws are not kept: the metric stays
  // diagonal.
  void aLargeModelKeepsADiagonalMetric() {
    auto log_joint = vt::make_log_joint([] { vt::Normal("x", 0.0, 1.0, {int64_t(vt::kLargestLowRank) + 1}); });
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    const auto chains = vt::sample_nuts(
        target, vt::NutsOptions().chains(1).seed(2).metric(vt::MetricKind::low_rank).warmup(150).draws(1));
    QCOMPARE(chains[0].inverse_metric[0], 0.0);
    QCOMPARE(vt::low_rank_dimension(chains[0].inverse_metric), long(vt::kLargestLowRank) + 1);
  }
};

QTEST_GUILESS_MAIN(TestLowRankMetric)
#include "tst_low_rank_metric.moc"
