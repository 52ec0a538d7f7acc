// LKJCorrCholesky(K, eta): the family's table for the conformance fixture (the density
// against det(R)^(eta - 1) times the Jacobian), and its normalizing constant checked by
// integration.

#include <random>

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/lkj_corr_cholesky.h"

using namespace variate::testing;
using variate::distributions::LKJCorrCholesky;

namespace {

// The Cholesky factor whose strictly lower entries are `below` (row by row); each
// diagonal entry completes its row to unit length.
at::Tensor factor(int64_t k, const std::vector<double>& below) {
  at::Tensor l = at::zeros({k, k}, at::kDouble);
  int next = 0;
  for (int64_t i = 0; i < k; ++i) {
    double norm = 0;
    for (int64_t j = 0; j < i; ++j) {
      l[i][j] = below[next];
      norm += below[next] * below[next];
      ++next;
    }
    l[i][i] = std::sqrt(1 - norm);
  }
  return l;
}

// Determinant by Gaussian elimination with partial pivoting.
double determinant(std::vector<std::vector<double>> a) {
  const size_t n = a.size();
  double det = 1;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    }
    if (pivot != c) {
      std::swap(a[pivot], a[c]);
      det = -det;
    }
    det *= a[c][c];
    for (size_t r = c + 1; r < n; ++r) {
      const double f = a[r][c] / a[c][c];
      for (size_t j = c; j < n; ++j) a[r][j] -= f * a[c][j];
    }
  }
  return det;
}

// log c_K(eta) from LKJ (2009) eq. 16 in its product form.
double naive_log_normalizer(int k, double eta) {
  double log_c = 0;
  for (int j = 1; j <= k - 1; ++j) {
    const double b = eta + (k - j - 1) / 2.0;
    const double log_beta = 2 * std::lgamma(b) - std::lgamma(2 * b);
    log_c += (2 * eta - 2 + k - j) * (k - j) * std::log(2.0) + (k - j) * log_beta;
  }
  return log_c;
}

// The density of L from the correlation matrix: (eta - 1) log det(L L^T) plus the log
// Jacobian of L -> R, sum_i (K - i) log L_ii (1-based), minus log c_K(eta).
double naive_log_density(const at::Tensor& l, double eta) {
  const int k = static_cast<int>(l.size(0));
  std::vector<std::vector<double>> r(k, std::vector<double>(k, 0));
  double log_jacobian = 0;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      for (int m = 0; m < k; ++m) r[i][j] += l[i][m].item<double>() * l[j][m].item<double>();
    }
    log_jacobian += (k - 1 - i) * std::log(l[i][i].item<double>());
  }
  return (eta - 1) * std::log(determinant(r)) + log_jacobian - naive_log_normalizer(k, eta);
}

// Off-diagonal correlations R_ij (i < j) of draws of L: shape [n, K (K - 1) / 2].
at::Tensor off_diagonal_correlations(const at::Tensor& l) {
  const at::Tensor r = at::matmul(l, l.transpose(-2, -1));
  const int64_t k = l.size(-1);
  const at::Tensor index = at::triu_indices(k, k, 1, at::kLong);
  return r.index({at::indexing::Slice(), index[0], index[1]});
}

DensityCase density(const char* name, int64_t k, double eta, const std::vector<double>& below) {
  const at::Tensor l = factor(k, below);
  return {name, {at::scalar_tensor(k, at::kLong), scalar(eta)}, l, naive_log_density(l, eta)};
}

Parameters member(int64_t k, double eta) { return {at::scalar_tensor(k, at::kLong), scalar(eta)}; }

Family lkj() {
  Family f;
  f.name = "LKJCorrCholesky";
  f.parameters = {{"K", 0, Parameter::Role::Structural}, {"eta"}};
  f.make = [](const Parameters& p) {
    return std::make_shared<LKJCorrCholesky>(p[0].item<int64_t>(), p[1]);
  };
  // The value moves along its strictly lower entries; the diagonal completes each row to
  // unit length, so every perturbed value is still a Cholesky factor of a correlation matrix.
  f.constrain = [](Parameters&, at::Tensor& l) {
    const at::Tensor strict = l.tril(-1);
    l = strict + at::diag_embed(at::sqrt(1 - strict.square().sum(-1)));
  };
  f.reference = density("reference", 3, 2.0, {0.5, -0.2, 0.4});
  f.support = "cholesky_corr";
  f.tolerance = 1e-10;
  f.factory = [](std::string name) { return variate::LKJCorrCholesky(std::move(name), 4, 2.0); };
  f.factory_shape = {4, 4};
  f.densities = {
      density("K 2, uniform", 2, 1.0, {0.3}),
      density("K 2, near singular", 2, 0.5, {-0.999}),
      density("K 3, eta 2.5", 3, 2.5, {0.5, -0.2, 0.4}),
      density("K 3, tiny eta", 3, 1e-2, {0.9, 0.1, -0.3}),
      density("K 4, identity, huge eta", 4, 1e3, {0, 0, 0, 0, 0, 0}),
      density("K 4, near singular", 4, 1.0, {0.999, 0.2, 0.3, -0.5, 0.1, 0.2}),
      density("K 5, eta 3", 5, 3.0, {0.1, -0.2, 0.3, 0.05, 0.1, -0.1, 0.2, 0.3, -0.2, 0.1}),
  };
  f.gradients = {
      {"K 2", member(2, 1.7), factor(2, {0.4})},
      {"K 3, eta below 1", member(3, 0.6), factor(3, {0.5, -0.2, 0.4})},
      {"K 4, large eta", member(4, 12.0), factor(4, {0.1, 0.2, -0.3, 0.25, 0.1, -0.4})},
  };
  const at::Tensor l = factor(3, {0.5, -0.2, 0.4});
  at::Tensor upper = l.clone(), long_row = l.clone(), negative = l.clone();
  upper[0][2] = 0.1;
  long_row[2][2] = long_row[2][2] + 1e-6;
  negative[1][1] = -negative[1][1];
  f.outside = {{"entry above the diagonal", upper},
               {"row longer than 1", long_row},
               {"negative diagonal", negative},
               {"zero diagonal", factor(3, {1.0, -0.2, 0.4})},
               {"nan", at::full({3, 3}, kNaN, at::kDouble)}};
  const auto invalid = [](const char* name, int64_t k, double eta, const char* message) {
    return InvalidCase{name, member(k, eta), message};
  };
  f.invalid = {
      invalid("K 1", 1, 1.0, "LKJCorrCholesky: argument 'K' must be at least 2, got 1"),
      invalid("K 0", 0, 1.0, "LKJCorrCholesky: argument 'K' must be at least 2, got 0"),
      invalid("zero eta", 3, 0.0, "LKJCorrCholesky: argument 'eta' must be positive, got 0"),
      invalid("negative eta", 3, -1.5, "LKJCorrCholesky: argument 'eta' must be positive, got -1.5"),
      invalid("nan eta", 3, kNaN, "LKJCorrCholesky: argument 'eta' must be positive, got nan"),
      invalid("infinite eta", 3, kInf, "LKJCorrCholesky: argument 'eta' must be finite, got inf"),
      {"element located", {at::scalar_tensor(3, at::kLong), vector({1.0, -1.0})},
       "LKJCorrCholesky: argument 'eta' must be positive, got -1 (at index [1])"},
      {"value of the wrong shape", member(3, 1.0),
       "LKJCorrCholesky: value must end in shape [3, 3], got shape [2, 2]", at::eye(2, at::kDouble)},
  };
  f.shapes = {{"eta [3]", {at::scalar_tensor(3, at::kLong), vector({0.7, 1.0, 4.0})}, {3}, {3, 3},
               factor(3, {0.5, -0.2, 0.4})}};
  // Every off-diagonal correlation has mean 0 and variance 1 / (2 eta + K - 1).
  for (const auto& [name, k, eta] :
       {std::tuple{"K 3, eta 1", 3, 1.0}, std::tuple{"K 3, eta 2.5", 3, 2.5},
        std::tuple{"K 4, eta 1", 4, 1.0}, std::tuple{"K 4, eta 2.5", 4, 2.5}}) {
    f.moments.push_back({name, member(k, eta), scalar(0.0), scalar(1.0 / (2 * eta + k - 1)),
                         off_diagonal_correlations});
  }
  // R_12 and R_(K-1)K are both (2 B - 1) with B ~ Beta(eta - 1 + K / 2, eta - 1 + K / 2);
  // the second comes from the onion's last row.
  for (const auto& [name, k, eta] : {std::tuple{"K 2, eta 0.5", 2, 0.5},
                                     std::tuple{"K 3, eta 1", 3, 1.0},
                                     std::tuple{"K 4, eta 2.5", 4, 2.5}}) {
    const double b = eta - 1 + k / 2.0;
    const auto cdf = [b](double x) { return incomplete_beta(b, b, (x + 1) / 2); };
    const auto correlation = [](int64_t i, int64_t j) {
      return [i, j](const at::Tensor& l) {
        return at::matmul(l, l.transpose(-2, -1)).select(-2, i).select(-1, j);
      };
    };
    f.fits.push_back({std::string(name) + ", R_12", member(k, eta), cdf, {}, {}, correlation(0, 1)});
    f.fits.push_back({std::string(name) + ", R_(K-1)K", member(k, eta), cdf, {}, {},
                      correlation(k - 2, k - 1)});
  }
  f.stress = {{"K 4, eta 1.5", member(4, 1.5)}};
  return f;
}

}  // namespace

class TestLKJCorrCholesky : public DistributionConformance {
  Q_OBJECT

 public:
  TestLKJCorrCholesky() : DistributionConformance({lkj()}) {}

 private slots:
  void densityIntegratesToOneForK2_data() {
    QTest::addColumn<double>("eta");
    QTest::newRow("eta 0.5") << 0.5;
    QTest::newRow("eta 1") << 1.0;
    QTest::newRow("eta 2.5") << 2.5;
    QTest::newRow("eta 10") << 10.0;
  }
  void densityIntegratesToOneForK2() {
    // The free coordinate is r = L[1][0] in (-1, 1). With r = cos(theta) the integrand
    // p(r) sin(theta) = sin(theta)^(2 eta - 1) / c is bounded on (0, pi) for eta >= 1/2;
    // the midpoint rule never evaluates the end points, where L is singular.
    QFETCH(double, eta);
    const int intervals = 4000;
    const double h = M_PI / intervals;
    at::Tensor l = at::zeros({intervals, 2, 2}, at::kDouble);
    at::Tensor jacobian = at::zeros({intervals}, at::kDouble);
    for (int n = 0; n < intervals; ++n) {
      const double theta = (n + 0.5) * h;
      l[n][0][0] = 1.0;
      l[n][1][0] = std::cos(theta);
      l[n][1][1] = std::sin(theta);
      jacobian[n] = std::sin(theta);
    }
    const at::Tensor density = at::exp(LKJCorrCholesky(2, scalar(eta)).log_prob(l)) * jacobian;
    const double integral = density.sum().item<double>() * h;
    // The rule's error is about h^2 / 12 times the integrand's scale (largest for eta 1).
    QVERIFY2(std::abs(integral - 1) < 1e-6, qPrintable(QString("integral %1").arg(integral, 0, 'g', 15)));
  }

  void densityIntegratesToOneByMonteCarlo_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("eta");
    QTest::newRow("K 3, eta 1") << 3 << 1.0;
    QTest::newRow("K 3, eta 2.5") << 3 << 2.5;
    QTest::newRow("K 4, eta 1") << 4 << 1.0;
    QTest::newRow("K 4, eta 2.5") << 4 << 2.5;
  }
  void densityIntegratesToOneByMonteCarlo() {
    // Row i's free entries lie in the unit ball of R^(i-1): draw them uniformly there
    // (independently of the engine's sampler) and average density x volume.
    QFETCH(int, k);
    QFETCH(double, eta);
    const int64_t n = 400000;
    std::mt19937_64 rng(2024);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    at::Tensor l = at::zeros({n, k, k}, at::kDouble);
    auto a = l.accessor<double, 3>();
    double volume = 1;
    for (int i = 1; i < k; ++i) volume *= std::pow(M_PI, i / 2.0) / std::tgamma(i / 2.0 + 1);
    for (int64_t s = 0; s < n; ++s) {
      a[s][0][0] = 1;
      for (int i = 1; i < k; ++i) {
        double norm = 0;
        std::vector<double> direction(i);
        for (int j = 0; j < i; ++j) {
          direction[j] = normal(rng);
          norm += direction[j] * direction[j];
        }
        const double radius = std::pow(uniform(rng), 1.0 / i) / std::sqrt(norm);
        double row = 0;
        for (int j = 0; j < i; ++j) {
          a[s][i][j] = direction[j] * radius;
          row += a[s][i][j] * a[s][i][j];
        }
        a[s][i][i] = std::sqrt(1 - row);
      }
    }
    const at::Tensor values = at::exp(LKJCorrCholesky(k, scalar(eta)).log_prob(l)) * volume;
    const double integral = values.mean().item<double>();
    const double standard_error = values.std().item<double>() / std::sqrt(static_cast<double>(n));
    QVERIFY2(standard_error < 0.01, qPrintable(QString("standard error %1").arg(standard_error)));
    QVERIFY2(std::abs(integral - 1) < 5 * standard_error,
             qPrintable(QString("integral %1 +- %2").arg(integral).arg(standard_error)));
  }

};

QTEST_APPLESS_MAIN(TestLKJCorrCholesky)
#include "tst_lkj_corr_cholesky.moc"
