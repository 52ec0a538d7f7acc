// MultiNormal(mu, Sigma) and MultiNormal(mu, scale_tril(L)): the family's tables for the
// conformance fixture (the density against an explicit inverse and determinant), and what
// is specific to it: one factor shared by a batch, mu broadcast against Sigma, NaN for a
// covariance that is not positive definite when validation is off, pathwise derivatives.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/core/checks.h"
#include "engine/distributions/multi_normal.h"

using namespace variate::testing;
using variate::distributions::MultiNormal;

namespace {

// The textbook density with the inverse and determinant written out by cofactors
// (2 x 2 or 3 x 3, row-major Sigma).
double naive_log_density(const std::vector<double>& x, const std::vector<double>& mu,
                         const std::vector<double>& s) {
  const int k = static_cast<int>(x.size());
  double inverse[9];
  double determinant = 0;
  if (k == 2) {
    determinant = s[0] * s[3] - s[1] * s[2];
    const double entries[4] = {s[3], -s[1], -s[2], s[0]};
    for (int i = 0; i < 4; ++i) inverse[i] = entries[i] / determinant;
  } else {
    const auto at = [&](int i, int j) { return s[3 * i + j]; };
    double cofactor[9];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        cofactor[3 * i + j] = at(i1, j1) * at(i2, j2) - at(i1, j2) * at(i2, j1);
      }
    }
    determinant = at(0, 0) * cofactor[0] + at(0, 1) * cofactor[1] + at(0, 2) * cofactor[2];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) inverse[3 * i + j] = cofactor[3 * j + i] / determinant;
    }
  }
  double quadratic = 0;
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) quadratic += (x[i] - mu[i]) * inverse[k * i + j] * (x[j] - mu[j]);
  }
  return -0.5 * k * std::log(2 * M_PI) - 0.5 * std::log(determinant) - 0.5 * quadratic;
}

struct Row {
  const char* name;
  std::vector<double> x, mu, sigma;  // row-major covariance
  double tolerance;                  // relative; wider where Sigma is ill-conditioned
};

const std::vector<Row> kRows = {
    {"standard at 0", {0, 0}, {0, 0}, {1, 0, 0, 1}, 1e-13},
    {"correlated", {1, -0.5}, {0.3, 0.2}, {2, 0.6, 0.6, 1}, 1e-13},
    {"near-singular", {0.5, 0.5000001}, {0, 0}, {1, 0.999999, 0.999999, 1}, 1e-8},
    {"far away", {1e3, -1e3}, {0, 1}, {1.5, -0.4, -0.4, 0.8}, 1e-12},
    {"3-D general", {30, -40, 25}, {1, 2, 3}, {4, 1, 0.5, 1, 3, -0.7, 0.5, -0.7, 2}, 1e-12},
    {"3-D tiny and huge scales", {1e-3, 0.5, -2e3}, {0, 0, 0}, {1e-6, 0, 0, 0, 1, 0, 0, 0, 1e6},
     1e-12},
};

const std::vector<double> kSigma = {4, 1, 0.5, 1, 3, -0.7, 0.5, -0.7, 2};

// What both forms share; `factor` maps a covariance to the form's matrix parameter.
Family common(const char* label, const char* matrix_name,
              const std::function<at::Tensor(const at::Tensor&)>& factor) {
  Family f;
  f.label = label;
  f.name = "MultiNormal";
  f.parameters = {{"mu", 1}, {matrix_name, 2}};
  f.support = "real";
  // The triangular solve runs in the matrix's dtype.
  f.float64_value_gives = at::kFloat;
  const auto member = [&](const std::vector<double>& mu, const std::vector<double>& sigma) {
    return Parameters{vector(mu), factor(matrix(sigma))};
  };
  for (const Row& r : kRows) {
    f.densities.push_back({r.name, member(r.mu, r.sigma), vector(r.x),
                           naive_log_density(r.x, r.mu, r.sigma), r.tolerance});
  }
  f.reference = f.densities[1];
  // With a diagonal factor the solve meets 0 * inf; a correlated one keeps the entry inf.
  f.outside = {{"infinite entry", vector({kInf, 0})},
               {"minus infinite entry", vector({0, -kInf})},
               {"infinite entry, diagonal", vector({kInf, 0}), member({0, 0}, {1, 0, 0, 1})},
               {"nan entry", vector({kNaN, 0})}};
  f.shapes = {
      {"mu [3, 2], matrix [3, 2, 2]",
       {vector({0, 0, 1, -1, 2, 0.5}).reshape({3, 2}),
        factor(vector({1, 0, 0, 1, 2, 0.5, 0.5, 1, 0.3, -0.1, -0.1, 0.2}).reshape({3, 2, 2}))},
       {3}, {2}, vector({0.1, -0.2})},
      // Many chains' means against one covariance.
      {"mu [5, 3], matrix [3, 3]",
       {at::linspace(-1, 1, 15, at::kDouble).reshape({5, 3}), factor(matrix(kSigma))}, {5}, {3},
       vector({0.5, 0, -1})},
      {"mu [2], matrix [4, 2, 2]",
       {vector({1, -1}), factor(at::eye(2, at::kDouble) * vector({1, 2, 3, 4}).view({4, 1, 1}))},
       {4}, {2}, vector({0, 0})},
  };
  // Means and variances of the coordinates and of two sums, which pin the covariances.
  f.moments = {{"3-D", member({1, -2, 0.5}, kSigma), vector({1, -2, 0.5, -1, -2.5}),
                vector({4, 3, 2, 4 + 3 + 2 * 1, 3 + 2 + 2 * 0.7}), [](const at::Tensor& x) {
                  return at::stack({x.select(-1, 0), x.select(-1, 1), x.select(-1, 2),
                                    x.select(-1, 0) + x.select(-1, 1),
                                    x.select(-1, 1) - x.select(-1, 2)}, -1);
                }}};
  // A projection w'x of a MultiNormal(mu, Sigma) draw is Normal(w'mu, sqrt(w' Sigma w)).
  const std::vector<double> mu = {1.0, -2.0, 0.5};
  const std::vector<double> sigma = {4.0, 1.2, -0.6, 1.2, 2.0, 0.3, -0.6, 0.3, 1.0};
  for (const auto& direction : {std::vector<double>{1, 0, 0}, std::vector<double>{0.3, -1, 2}}) {
    const at::Tensor w = vector(direction);
    const double mean = at::dot(w, vector(mu)).item<double>();
    const double sd = std::sqrt(at::dot(w, at::mv(matrix(sigma), w)).item<double>());
    f.fits.push_back({"projection " + c10::str(direction), member(mu, sigma),
                      [mean, sd](double x) { return normal_cdf((x - mean) / sd); }, {}, {},
                      [w](const at::Tensor& draws) { return at::mv(draws, w); }});
  }
  return f;
}

Family by_covariance() {
  Family f = common("covariance", "Sigma", [](const at::Tensor& s) { return s; });
  f.make = [](const Parameters& p) { return std::make_shared<MultiNormal>(p[0], p[1]); };
  // Symmetric perturbations keep Sigma a covariance.
  f.constrain = [](Parameters& p, at::Tensor&) { p[1] = (p[1] + p[1].transpose(-2, -1)) / 2; };
  f.factory = [](std::string name) {
    return variate::MultiNormal(std::move(name), vector({0, 0}), matrix({1, 0, 0, 1}), {3});
  };
  f.factory_shape = {3, 2};
  f.gradients = {{"near mode", {vector({0, 0}), matrix({1, 0.3, 0.3, 2})}, vector({0.1, 0.2})},
                 {"tail", {vector({0.5, 1}), matrix({2, -0.9, -0.9, 1.5})}, vector({4, -3})}};
  const auto invalid = [](const char* name, const std::vector<double>& mu,
                          const std::vector<double>& sigma, const char* message) {
    return InvalidCase{name, {vector(mu), matrix(sigma)}, message};
  };
  f.invalid = {
      invalid("not positive definite", {0, 0}, {1, 2, 2, 1},
              "MultiNormal: argument 'Sigma' must be positive definite"),
      invalid("singular", {0, 0}, {1, 1, 1, 1},
              "MultiNormal: argument 'Sigma' must be positive definite"),
      invalid("asymmetric", {0, 0}, {1, 0.5, 0.25, 1},
              "MultiNormal: argument 'Sigma' must be symmetric; an asymmetry is, got 0.25 (at index [0, 1])"),
      invalid("nan Sigma", {0, 0}, {1, 0, 0, kNaN},
              "MultiNormal: argument 'Sigma' must be finite, got nan (at index [1, 1])"),
      invalid("infinite mu", {kInf, 0}, {1, 0, 0, 1},
              "MultiNormal: argument 'mu' must be finite, got inf (at index [0])"),
      invalid("mu of the wrong size", {0, 0, 0}, {1, 0, 0, 1},
              "MultiNormal: argument 'mu' must end in 2 entries to match 'Sigma', got shape [3]"),
      {"Sigma a vector", {vector({0, 0}), vector({1, 1})},
       "MultiNormal: argument 'Sigma' must have at least 2 dimension(s), got shape [2]"},
      {"Sigma not square", {vector({0, 0}), at::ones({2, 3}, at::kDouble)},
       "MultiNormal: argument 'Sigma' must be square, got shape [2, 3]"},
      {"value of the wrong size", {vector({0, 0}), matrix({1, 0, 0, 1})},
       "MultiNormal: value must end in 2 entries, got shape [3]", vector({1, 2, 3})},
  };
  return f;
}

Family by_scale_tril() {
  Family f = common("scale_tril", "scale_tril", [](const at::Tensor& s) {
    return at::linalg_cholesky(s);
  });
  f.make = [](const Parameters& p) {
    return std::make_shared<MultiNormal>(p[0], variate::ScaleTril{p[1]});
  };
  // Entries above the diagonal must stay 0.
  f.constrain = [](Parameters& p, at::Tensor&) { p[1] = p[1].tril(); };
  f.factory = [](std::string name) {
    return variate::MultiNormal(std::move(name), vector({0, 0, 0}),
                                variate::scale_tril(at::eye(3, at::kDouble)));
  };
  f.factory_shape = {3};
  f.gradients = {{"near mode", {vector({0, 0}), matrix({1, 0, 0.3, 2})}, vector({0.1, 0.2})},
                 {"tail", {vector({0.5, 1}), matrix({0.7, 0, -0.9, 0.4})}, vector({4, -3})}};
  const auto invalid = [](const char* name, const std::vector<double>& l, const char* message) {
    return InvalidCase{name, {vector({0, 0}), matrix(l)}, message};
  };
  f.invalid = {
      invalid("not lower triangular", {1, 0.5, 0, 1},
              "MultiNormal: argument 'scale_tril' must be lower triangular; an entry above the "
              "diagonal is, got 0.5 (at index [0, 1])"),
      invalid("zero diagonal", {1, 0, 0.3, 0},
              "MultiNormal: argument 'scale_tril' must be a Cholesky factor with a positive "
              "diagonal; a diagonal entry is, got 0 (at index [1])"),
      invalid("negative diagonal", {-1, 0, 0.3, 1},
              "MultiNormal: argument 'scale_tril' must be a Cholesky factor with a positive "
              "diagonal; a diagonal entry is, got -1 (at index [0])"),
  };
  return f;
}

}  // namespace

class TestMultiNormal : public DistributionConformance {
  Q_OBJECT

 public:
  TestMultiNormal() : DistributionConformance({by_covariance(), by_scale_tril()}) {}

 private slots:
  void sharedFactorMatchesBatchedFactor() {
    // One L for a batch of points takes a single-solve path; an L copied per point must
    // give the same densities.
    const at::Tensor l = vector({1.5, 0, 0, 0.4, 0.8, 0, -0.3, 0.2, 0.6}).reshape({3, 3});
    const at::Tensor mu = vector({1, 2, 3});
    at::Generator generator = at::detail::createCPUGenerator(8);
    const at::Tensor points = at::normal(0.0, 2.0, {4, 7, 3}, generator, at::kDouble);
    const at::Tensor shared = MultiNormal(mu, variate::ScaleTril{l}).log_prob(points);
    const at::Tensor copied =
        MultiNormal(mu, variate::ScaleTril{l.expand({4, 7, 3, 3})}).log_prob(points);
    QCOMPARE(shared.sizes(), (c10::IntArrayRef{4, 7}));
    QVERIFY(at::allclose(shared, copied, 1e-13, 1e-13));
  }

  // Many chains' means against one covariance keep one factor (shapesBroadcast and
  // batchMatchesSingleEvaluations check the densities).
  void batchOfMeansSharesOneFactor() {
    const MultiNormal normal(at::zeros({5, 3}, at::kDouble), matrix(kSigma));
    QCOMPARE(normal.batch_shape(), (variate::Shape{5}));
    QCOMPARE(normal.scale_tril().dim(), 2);
  }

  void numberMeanBroadcastsAgainstBatchedSigma() {
    const at::Tensor sigma = at::eye(2, at::kDouble) * vector({1, 2, 3, 4}).view({4, 1, 1});
    QCOMPARE(MultiNormal(vector({1, -1}), sigma).mu().sizes(), (c10::IntArrayRef{4, 2}));
    const MultiNormal number_mean(scalar(0.5), sigma);
    QCOMPARE(number_mean.mu().sizes(), (c10::IntArrayRef{4, 2}));
    QCOMPARE(number_mean.mu()[3][1].item<double>(), 0.5);
  }

  // A 0-dim mean is a number: it does not promote a float32 covariance.
  void numberMeanKeepsFloat32Sigma() {
    const MultiNormal normal(scalar(0.0), matrix({2, 0.3, 0.3, 1}).to(at::kFloat));
    at::Generator generator = at::detail::createCPUGenerator(9);
    const at::Tensor x = normal.sample({100}, generator);
    QCOMPARE(x.scalar_type(), at::kFloat);
    QCOMPARE(normal.log_prob(x).scalar_type(), at::kFloat);
  }

  void notPositiveDefiniteWithoutValidationIsNan() {
    // A sampler's hot path: numerical trouble is data, not an exception.
    variate::ValidationGuard off(false);
    const MultiNormal normal(vector({0, 0}), matrix({1, 2, 2, 1}));
    QVERIFY(std::isnan(normal.log_prob(vector({0, 0})).item<double>()));
  }

  void samplerIsReparameterized() {
    // x = mu + L z: d sum(x) / d mu = number of draws per coordinate.
    const at::Tensor mu = vector({0.5, -0.5}).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(2);
    MultiNormal(mu, variate::ScaleTril{at::eye(2, at::kDouble)}).sample({10}, generator).sum().backward();
    QVERIFY(at::equal(mu.grad(), vector({10, 10})));
  }
};

QTEST_APPLESS_MAIN(TestMultiNormal)
#include "tst_multi_normal.moc"
