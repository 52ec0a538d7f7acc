// The multivariate families' tape sinks against their LibTorch log_prob: Dirichlet,
// MultiNormal (by covariance and by Cholesky factor), LKJCorrCholesky and Mixture (of each
// scalar component the tape has a pointwise kernel for), in K = 1, 2, 4 with iid rows,
// arguments shared by the rows and one per row, varying or data, and values outside the
// support or covariances that are not positive definite (-inf).

#include <QtTest/QtTest>

#include <set>

#include "tests/engine/tape/density_case.h"
#include "engine/distributions/cauchy.h"
#include "engine/distributions/dirichlet.h"
#include "engine/distributions/exponential.h"
#include "engine/distributions/gamma.h"
#include "engine/distributions/laplace.h"
#include "engine/distributions/lkj_corr_cholesky.h"
#include "engine/distributions/log_normal.h"
#include "engine/distributions/logistic.h"
#include "engine/distributions/mixture.h"
#include "engine/distributions/multi_normal.h"
#include "engine/distributions/normal.h"
#include "engine/distributions/poisson.h"
#include "engine/distributions/student_t.h"
#include "engine/model/distribution_table.h"
#include "engine/tape/program/unsupported.h"

namespace vt = variate;
using variate::testing::make_term;
namespace vd = variate::distributions;
using vt::testing::data;
using vt::testing::DensityCase;
using vt::testing::of_theta;
using vt::testing::TensorFunction;

namespace {

const std::set<std::string> kFamilies = {"Dirichlet", "MultiNormal", "LKJCorrCholesky", "Mixture"};

at::Tensor values(std::vector<double> v) { return at::tensor(v, at::kDouble); }

// theta[offset, offset + numel(shape)) as `shape`.
at::Tensor part(const at::Tensor& t, int64_t offset, const vt::Shape& shape) {
  return t.narrow(0, offset, vt::numel(shape)).reshape(shape);
}

// A symmetric positive definite matrix from K^2 entries: A A^T + I / 2.
at::Tensor covariance(const at::Tensor& entries, int64_t K) {
  const at::Tensor A = entries.reshape({K, K});
  return at::matmul(A, A.transpose(0, 1)) + 0.5 * at::eye(K, at::kDouble);
}

// A lower triangular matrix with a positive diagonal from K^2 entries.
at::Tensor cholesky_factor(const at::Tensor& entries, int64_t K) {
  const at::Tensor A = entries.reshape({K, K});
  return at::tril(A, -1) + at::diag_embed(at::exp(at::diagonal(A)));
}

// The Cholesky factor of a correlation matrix from K^2 entries (per matrix of `batch`):
// unit rows of a lower triangle with a positive diagonal.
at::Tensor cholesky_corr(const at::Tensor& entries, const vt::Shape& batch, int64_t K) {
  const at::Tensor A = entries.reshape(vt::concat(batch, {K, K}));
  const at::Tensor M = at::tril(A, -1) + at::eye(K, at::kDouble);
  return M / at::linalg_vector_norm(M, 2, {-1}, true);
}

std::vector<DensityCase> dirichlet_cases() {
  std::vector<DensityCase> cases;
  const auto make = [](const auto& a) { return std::make_shared<vd::Dirichlet>(a[0]); };
  for (int64_t K : {1, 2, 4}) {
    const std::string k = "K = " + std::to_string(K);
    for (const vt::Shape& rows : {vt::Shape{}, vt::Shape{3}}) {
      const std::string shape = rows.empty() ? "one simplex" : "3 iid simplexes";
      const int64_t entries = vt::numel(rows) * K;
      const auto simplex = [rows, K](const at::Tensor& t) {
        return at::softmax(part(t, 0, vt::concat(rows, {K})), -1);
      };
      DensityCase fixed{"Dirichlet", 0, k + ", " + shape + ", alpha data", entries};
      fixed.make = make;
      fixed.arguments = {data(at::linspace(0.5, 3.0, K, at::kDouble))};
      fixed.value = of_theta(simplex);
      cases.push_back(fixed);
      DensityCase varying = fixed;
      varying.label = k + ", " + shape + ", alpha varying";
      varying.dimension = entries + K;
      varying.arguments = {
          of_theta([entries, K](const at::Tensor& t) { return at::exp(part(t, entries, {K})); })};
      cases.push_back(varying);
    }
    // alpha per row of a [3, K] value, and a data value against varying alpha.
    DensityCase per_row{"Dirichlet", 0, k + ", alpha per row", 6 * K};
    per_row.make = make;
    per_row.arguments = {of_theta([K](const at::Tensor& t) {
      return at::exp(part(t, 3 * K, {3, K}));
    })};
    per_row.value = of_theta([K](const at::Tensor& t) {
      return at::softmax(part(t, 0, {3, K}), -1);
    });
    cases.push_back(per_row);
    DensityCase observed{"Dirichlet", 0, k + ", data value", K};
    observed.make = make;
    observed.arguments = {of_theta([](const at::Tensor& t) { return at::exp(t); })};
    observed.value = data(at::softmax(at::linspace(-1.0, 1.0, K, at::kDouble), -1));
    cases.push_back(observed);
  }
  // alpha = 1 entries: xlogy gives 0 there.
  DensityCase ones{"Dirichlet", 0, "alpha with ones", 3};
  ones.make = make;
  ones.arguments = {of_theta([](const at::Tensor& t) {
    return at::stack({at::ones({}, at::kDouble), at::exp(t[2]), at::ones({}, at::kDouble)});
  })};
  ones.value = of_theta([](const at::Tensor& t) {
    return at::softmax(at::cat({t.narrow(0, 0, 2), at::zeros({1}, at::kDouble)}), -1);
  });
  ones.options.fixed_points = {{0.0, 0.0, 0.0}};
  cases.push_back(ones);
  for (const auto& [label, x] :
       {std::pair<std::string, std::vector<double>>{"a value off the simplex", {0.5, 0.6}},
        {"a negative entry", {1.5, -0.5}}}) {
    DensityCase outside{"Dirichlet", 0, label, 2};
    outside.make = make;
    outside.arguments = {of_theta([](const at::Tensor& t) { return at::exp(t); })};
    outside.value = data(values(x));
    cases.push_back(outside);
  }
  return cases;
}

std::vector<DensityCase> multi_normal_cases() {
  std::vector<DensityCase> cases;
  const auto make = [](size_t which) {
    return [which](const auto& a) -> vt::DistributionPtr {
      if (which == 0) return std::make_shared<vd::MultiNormal>(a[0], a[1]);
      return std::make_shared<vd::MultiNormal>(a[0], vt::ScaleTril{a[1]});
    };
  };
  for (size_t which : {0, 1}) {
    const std::string matrix = which == 0 ? "Sigma" : "scale_tril";
    const auto of_entries = [which](const at::Tensor& entries, int64_t K) {
      return which == 0 ? covariance(entries, K) : cholesky_factor(entries, K);
    };
    for (int64_t K : {1, 2, 4}) {
      const std::string k = "K = " + std::to_string(K) + ", ";
      for (const vt::Shape& rows : {vt::Shape{}, vt::Shape{3}}) {
        const vt::Shape shape = vt::concat(rows, {K});
        const int64_t n = vt::numel(shape);
        const std::string iid = rows.empty() ? "one row" : "3 iid rows";
        // Everything varies: value, mu, the matrix.
        DensityCase all{"MultiNormal", which, k + iid + ", all varying", n + K + K * K};
        all.make = make(which);
        all.sample_shape = rows;
        all.arguments = {of_theta([n, K](const at::Tensor& t) { return part(t, n, {K}); }),
                         of_theta([n, K, of_entries](const at::Tensor& t) {
                           return of_entries(part(t, n + K, {K * K}), K);
                         })};
        all.value = of_theta([shape](const at::Tensor& t) { return part(t, 0, shape); });
        cases.push_back(all);
        // Observed rows, mu and the matrix varying.
        DensityCase observed = all;
        observed.label = k + iid + ", data value";
        observed.dimension = K + K * K;
        observed.arguments = {of_theta([K](const at::Tensor& t) { return part(t, 0, {K}); }),
                              of_theta([K, of_entries](const at::Tensor& t) {
                                return of_entries(part(t, K, {K * K}), K);
                              })};
        observed.value = data(at::linspace(-1.5, 2.0, n, at::kDouble).reshape(shape));
        cases.push_back(observed);
        // A data matrix: only the value and mu vary.
        DensityCase fixed = all;
        fixed.label = k + iid + ", data " + matrix;
        fixed.dimension = n + K;
        fixed.arguments = {of_theta([n, K](const at::Tensor& t) { return part(t, n, {K}); }),
                           data(of_entries(at::linspace(-0.7, 0.9, K * K, at::kDouble), K))};
        cases.push_back(fixed);
      }
      // mu per row of a [3, K] value, and one number for every entry.
      DensityCase per_row{"MultiNormal", which, k + "mu per row", 3 * K + 3 * K + K * K};
      per_row.make = make(which);
      per_row.arguments = {of_theta([K](const at::Tensor& t) {
                             return part(t, 3 * K, {3, K});
                           }),
                           of_theta([K, of_entries](const at::Tensor& t) {
                             return of_entries(part(t, 6 * K, {K * K}), K);
                           })};
      per_row.value = of_theta([K](const at::Tensor& t) { return part(t, 0, {3, K}); });
      cases.push_back(per_row);
      DensityCase number = per_row;
      number.label = k + "mu one number";
      number.dimension = 3 * K + 1 + K * K;
      number.arguments = {of_theta([K](const at::Tensor& t) { return t[3 * K]; }),
                          of_theta([K, of_entries](const at::Tensor& t) {
                            return of_entries(part(t, 3 * K + 1, {K * K}), K);
                          })};
      cases.push_back(number);
    }
  }
  // Covariances that are not positive definite: -inf (LibTorch throws with validation on,
  // gives NaN without; the sampler counts both as -inf), from data and from parameters.
  DensityCase indefinite{"MultiNormal", 0, "Sigma not positive definite", 2};
  indefinite.make = make(0);
  indefinite.arguments = {of_theta([](const at::Tensor& t) { return t; }),
                          data(values({1, 2, 2, 1}).reshape({2, 2}))};
  indefinite.value = data(values({0.5, -0.5}));
  cases.push_back(indefinite);
  DensityCase sometimes{"MultiNormal", 0, "Sigma = [[1, t], [t, 1]]", 1};
  sometimes.make = make(0);
  sometimes.arguments = {
      data(values({0, 0})), of_theta([](const at::Tensor& t) {
        return at::stack({at::ones({}, at::kDouble), t[0], t[0], at::ones({}, at::kDouble)})
            .reshape({2, 2});
      })};
  sometimes.value = data(values({0.3, -0.2}));
  sometimes.options.fixed_points = {{1.5}, {-2.0}, {0.99}, {1.0}};
  cases.push_back(sometimes);
  return cases;
}

std::vector<DensityCase> lkj_cases() {
  std::vector<DensityCase> cases;
  const auto make = [](int64_t K) {
    return [K](const auto& a) { return std::make_shared<vd::LKJCorrCholesky>(K, a[0]); };
  };
  for (int64_t K : {2, 4}) {
    const std::string k = "K = " + std::to_string(K) + ", ";
    for (const vt::Shape& batch : {vt::Shape{}, vt::Shape{3}}) {
      const int64_t entries = vt::numel(batch) * K * K;
      const std::string iid = batch.empty() ? "one matrix" : "3 iid matrices";
      for (double eta : {1.0, 2.5}) {
        DensityCase fixed{"LKJCorrCholesky", 0, k + iid + ", eta " + std::to_string(eta), entries};
        fixed.make = make(K);
        fixed.sample_shape = batch;
        fixed.arguments = {data(values({eta}).reshape({}))};
        fixed.value =
            of_theta([batch, K](const at::Tensor& t) { return cholesky_corr(t, batch, K); });
        cases.push_back(fixed);
      }
      DensityCase varying{"LKJCorrCholesky", 0, k + iid + ", eta varying", entries + 1};
      varying.make = make(K);
      varying.sample_shape = batch;
      varying.arguments = {
          of_theta([entries](const at::Tensor& t) { return at::exp(t[entries]); })};
      varying.value = of_theta([batch, entries, K](const at::Tensor& t) {
        return cholesky_corr(t.narrow(0, 0, entries), batch, K);
      });
      cases.push_back(varying);
    }
    // eta per matrix of a [3, K, K] value.
    DensityCase per_matrix{"LKJCorrCholesky", 0, k + "eta per matrix", 3 * K * K + 3};
    per_matrix.make = make(K);
    per_matrix.arguments = {
        of_theta([K](const at::Tensor& t) { return at::exp(part(t, 3 * K * K, {3})); })};
    per_matrix.value = of_theta(
        [K](const at::Tensor& t) { return cholesky_corr(t.narrow(0, 0, 3 * K * K), {3}, K); });
    cases.push_back(per_matrix);
  }
  // Outside the support: an entry above the diagonal, a row that is not of unit length.
  for (const auto& [label, L] :
       {std::pair<std::string, std::vector<double>>{"not lower triangular", {1, 0.1, 0, 1}},
        {"a row not of unit length", {1, 0, 0.5, 0.5}}}) {
    DensityCase outside{"LKJCorrCholesky", 0, label, 1};
    outside.make = make(2);
    outside.arguments = {of_theta([](const at::Tensor& t) { return at::exp(t[0]); })};
    outside.value = data(values(L).reshape({2, 2}));
    cases.push_back(outside);
  }
  return cases;
}

// Mixture ----------------------------------------------------------------------------------

constexpr int64_t kComponents = 3;

// How a component family is made and where its arguments come from: `arguments` makes
// the component's arguments from theta (starting at `offset`) for `rows` leading rows.
struct ComponentFamily {
  std::string name;
  size_t parameterization;
  int arity;
  std::function<vt::DistributionPtr(const std::vector<at::Tensor>&)> make;  // args from a[1]
  std::function<at::Tensor(const at::Tensor&, int k)> constrain;            // theta -> argument k
  std::vector<double> data;  // observed values (7), inside the support
  bool discrete = false;
};

at::Tensor positive(const at::Tensor& t, int) { return at::exp(t); }

std::vector<ComponentFamily> component_families() {
  const auto location_scale = [](const at::Tensor& t, int k) {
    return k == 0 ? t * 2 : at::exp(t);
  };
  const std::vector<double> reals = {-1.2, 0.3, 2.5, -0.1, 0.8, 4.0, -3.0};
  const std::vector<double> positives = {0.2, 1.3, 2.5, 0.05, 0.8, 4.0, 7.0};
  const std::vector<double> counts = {0, 3, 1, 2, 0, 5, 9};
  return {
      {"Normal", 0, 2, [](const auto& a) { return std::make_shared<vd::Normal>(a[1], a[2]); },
       location_scale, reals},
      {"LogNormal", 0, 2, [](const auto& a) { return std::make_shared<vd::LogNormal>(a[1], a[2]); },
       location_scale, positives},
      {"StudentT", 0, 3,
       [](const auto& a) { return std::make_shared<vd::StudentT>(a[1], a[2], a[3]); },
       [](const at::Tensor& t, int k) { return k == 1 ? t * 2 : at::exp(t); }, reals},
      {"Cauchy", 0, 2, [](const auto& a) { return std::make_shared<vd::Cauchy>(a[1], a[2]); },
       location_scale, reals},
      {"Laplace", 0, 2, [](const auto& a) { return std::make_shared<vd::Laplace>(a[1], a[2]); },
       location_scale, reals},
      {"Logistic", 0, 2, [](const auto& a) { return std::make_shared<vd::Logistic>(a[1], a[2]); },
       location_scale, reals},
      {"Exponential", 0, 1, [](const auto& a) { return std::make_shared<vd::Exponential>(a[1]); },
       positive, positives},
      {"Gamma", 0, 2, [](const auto& a) { return std::make_shared<vd::Gamma>(a[1], a[2]); },
       positive, positives},
      {"Poisson", 0, 1, [](const auto& a) { return std::make_shared<vd::Poisson>(a[1]); }, positive,
       counts, true},
      {"Poisson", 1, 1,
       [](const auto& a) { return std::make_shared<vd::Poisson>(vt::LogRate{a[1]}); },
       [](const at::Tensor& t, int) { return t; }, counts, true},
  };
}

// A mixture of `family` over n values: weights varying (softmax of theta) or data, the
// component's arguments shared ([C]) or per element ([n, C]); a varying value (theta)
// where the family is continuous and `varying_value`.
DensityCase mixture_case(const ComponentFamily& family, size_t n, bool weights_vary,
                         bool per_element, bool varying_value) {
  const int64_t C = kComponents;
  const auto rows = static_cast<int64_t>(n);
  const vt::Shape argument_shape = per_element ? vt::Shape{rows, C} : vt::Shape{C};
  const int64_t argument_size = vt::numel(argument_shape);
  DensityCase c{"Mixture", 0,
                family.name + (family.parameterization ? " (log_rate)" : "") + ", " +
                    std::to_string(n) + " values" + (weights_vary ? ", weights varying" : "") +
                    (per_element ? ", arguments per element" : "") +
                    (varying_value ? ", value varying" : "")};
  c.component_family = family.name;
  c.component_parameterization = family.parameterization;
  int64_t offset = 0;
  if (varying_value) {
    c.value = of_theta([rows](const at::Tensor& t) { return part(t, 0, {rows}); });
    offset += rows;
  } else {
    c.value = data(values(std::vector<double>(family.data.begin(), family.data.begin() + rows)));
  }
  if (weights_vary) {
    c.arguments = {of_theta(
        [offset, C](const at::Tensor& t) { return at::softmax(part(t, offset, {C}), -1); })};
    offset += C;
  } else {
    c.arguments = {data(values({0.2, 0.5, 0.3}))};
  }
  for (int k = 0; k < family.arity; ++k) {
    const auto constrain = family.constrain;
    c.component_arguments.push_back(
        of_theta([offset, argument_shape, constrain, k](const at::Tensor& t) {
          return constrain(part(t, offset, argument_shape), k);
        }));
    offset += argument_size;
  }
  c.dimension = offset;
  const auto make_component = family.make;
  c.make = [make_component](const std::vector<at::Tensor>& a) {
    return std::make_shared<vd::Mixture>(a[0], make_component(a));
  };
  return c;
}

std::vector<DensityCase> mixture_cases() {
  std::vector<DensityCase> cases;
  for (const ComponentFamily& family : component_families()) {
    for (size_t n : {0, 1, 7}) cases.push_back(mixture_case(family, n, true, false, false));
    cases.push_back(mixture_case(family, 7, false, false, false));
    cases.push_back(mixture_case(family, 7, true, true, false));
    if (!family.discrete) cases.push_back(mixture_case(family, 7, true, false, true));
  }
  const ComponentFamily normal = component_families()[0];
  // Components far apart: responsibilities of e^-700 and below.
  DensityCase apart = mixture_case(normal, 7, true, false, false);
  apart.label += ", components far apart";
  apart.component_arguments[0] = of_theta([](const at::Tensor& t) {
    return part(t, kComponents, {kComponents}) + values({-40, 0, 40});
  });
  cases.push_back(apart);
  // Weights per element ([n, C]), sigma one value for all components ([1]), iid rows of
  // a [2, 7] value against arguments of [7, C].
  DensityCase weights_each{"Mixture", 0, "Normal, weights per element", 7 * 3 + 3 + 1};
  weights_each.component_family = "Normal";
  weights_each.arguments = {of_theta([](const at::Tensor& t) {
    return at::softmax(part(t, 0, {7, 3}), -1);
  })};
  weights_each.component_arguments = {
      of_theta([](const at::Tensor& t) { return part(t, 21, {3}); }),
      of_theta([](const at::Tensor& t) { return at::exp(part(t, 24, {1})); })};
  weights_each.value = data(values(normal.data));
  weights_each.make = [](const std::vector<at::Tensor>& a) {
    return std::make_shared<vd::Mixture>(a[0], std::make_shared<vd::Normal>(a[1], a[2]));
  };
  cases.push_back(weights_each);
  DensityCase iid = mixture_case(normal, 7, true, true, false);
  iid.label = "Normal, 2 x 7 values against [7, C] arguments";
  iid.value = data(at::linspace(-2.0, 3.0, 14, at::kDouble).reshape({2, 7}));
  cases.push_back(iid);
  // Outside the component's support: -inf from every component.
  const std::vector<ComponentFamily> families = component_families();
  for (const auto& [index, value] : {std::pair<size_t, double>{1, -0.5}, {8, 1.5}}) {
    const ComponentFamily& family = families[index];
    DensityCase outside = mixture_case(family, 2, true, false, false);
    outside.label += ", a value of " + std::to_string(value);
    outside.value = data(values({family.data[0], value}));
    cases.push_back(outside);
  }
  return cases;
}

const std::map<std::string, std::vector<DensityCase>>& all_cases() {
  static const std::map<std::string, std::vector<DensityCase>> cases = {
      {"Dirichlet", dirichlet_cases()},
      {"MultiNormal", multi_normal_cases()},
      {"LKJCorrCholesky", lkj_cases()},
      {"Mixture", mixture_cases()}};
  return cases;
}

void verify_family(const std::string& family) {
  const auto& cases = all_cases().at(family);
  QVERIFY(!cases.empty());
  for (const DensityCase& c : cases) {
    const std::string error = vt::testing::check(c);
    QVERIFY2(error.empty(), error.c_str());
  }
}

}  // namespace

class TestTapeMultivariateDensities : public QObject {
  Q_OBJECT

 private slots:
  // Every multivariate family of the language's table has cases here, and every other
  // family of the table is left to its own group.
  void everyFamilyOfTheTableHasCases() {
    const std::vector<std::string> names = vt::model::distribution_names();
    for (const std::string& family : kFamilies) {
      QVERIFY2(std::find(names.begin(), names.end(), family) != names.end(), family.c_str());
      QVERIFY2(!all_cases().at(family).empty(), family.c_str());
    }
    for (const std::string& family : names) {
      if (kFamilies.count(family)) continue;
      vt::tape::ProgramBuilder b(1);
      QVERIFY2(!vt::tape::emit_multivariate_log_density(b, make_term(family, 0, {}, b.parameters())),
               family.c_str());
    }
  }

  // Mixture has a case for each component the tape supports, Normal and Poisson among them.
  void mixtureCoversItsComponents() {
    std::set<std::string> covered;
    for (const DensityCase& c : all_cases().at("Mixture")) covered.insert(c.component_family);
    for (const char* family : {"Normal", "LogNormal", "StudentT", "Cauchy", "Laplace", "Logistic",
                               "Exponential", "Gamma", "Poisson"}) {
      QVERIFY2(covered.count(family), family);
    }
  }

  void dirichlet() { verify_family("Dirichlet"); }
  void multiNormal() { verify_family("MultiNormal"); }
  void lkjCorrCholesky() { verify_family("LKJCorrCholesky"); }
  void mixture() { verify_family("Mixture"); }

  void unsupported() {
    vt::tape::ProgramBuilder b(4);
    const auto theta = b.parameters();
    // A component without a pointwise kernel, named in the message.
    vt::tape::DensityTerm weibull =
        make_term("Mixture", 0, {b.constant({2}, {0.5, 0.5})}, b.constant({3}, {1, 2, 3}));
    weibull.component = std::make_shared<vt::tape::DensityTerm>(
        make_term("Weibull", 0, {b.parameters(0, {2}), b.parameters(2, {2})}, {}));
    try {
      vt::tape::emit_log_density(b, weibull);
      QFAIL("no Unsupported for Mixture of Weibull");
    } catch (const vt::tape::Unsupported& e) {
      QVERIFY2(std::string(e.what()).find("Mixture of Weibull") != std::string::npos, e.what());
    }
    // A batch of covariance matrices; LKJ of 1 x 1 factors (the family needs K >= 2).
    QVERIFY_EXCEPTION_THROWN(
        vt::tape::emit_log_density(
            b, make_term("MultiNormal", 0, {b.parameters(0, {1}), b.constant({2, 1, 1}, {1, 1})},
                    b.constant({2, 1}, {0, 0}))),
        vt::tape::Unsupported);
    QVERIFY_EXCEPTION_THROWN(vt::tape::emit_log_density(b, make_term("LKJCorrCholesky", 0, {b.scalar(1.0)},
                                                                b.parameters(0, {1, 1}))),
                             vt::tape::Unsupported);
    // A Poisson mixture over a value that depends on parameters.
    vt::tape::DensityTerm poisson =
        make_term("Mixture", 0, {b.constant({2}, {0.5, 0.5})}, b.parameters(0, {2}));
    poisson.component =
        std::make_shared<vt::tape::DensityTerm>(make_term("Poisson", 0, {b.parameters(2, {2})}, {}));
    QVERIFY_EXCEPTION_THROWN(vt::tape::emit_log_density(b, poisson), vt::tape::Unsupported);
  }
};

QTEST_APPLESS_MAIN(TestTapeMultivariateDensities)
#include "tst_tape_multivariate_densities.moc"
