// The discrete families' tape sinks against their LibTorch log_prob: parameters that vary
// (shared by all elements or one per element) over observed counts of sizes 0, 1 and 7,
// at extreme parameters (logits beyond softplus's threshold, rates near 0, dispersions
// past the Stirling series' switch) and huge counts, and data outside the support.
//
// Tolerance: 1e-12 relative, except for huge counts (kHugeCountTolerance): their terms
// (k log lambda ~ 1e7) cancel to an lp of ~10, so one rounding of a term, which the
// tape's order of operations cannot share with LibTorch's (the tape folds the data's
// log k! into one constant, LibTorch subtracts it per element), is ~1e-10 of lp.

#include <QtTest/QtTest>

#include <set>

#include "tests/engine/tape/density_case.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/binomial.h"
#include "engine/distributions/categorical.h"
#include "engine/distributions/neg_binomial_2.h"
#include "engine/distributions/poisson.h"
#include "engine/model/distribution_table.h"
#include "engine/tape/program/unsupported.h"

namespace vt = variate;
using variate::testing::make_term;
namespace vd = variate::distributions;
using vt::testing::data;
using vt::testing::DensityCase;
using vt::testing::of_theta;

namespace {

// The discrete group of engine/tape (the multivariate one has its own suite).
const std::set<std::string> kFamilies = {"Bernoulli", "Binomial", "Poisson", "NegBinomial2",
                                         "Categorical"};

at::Tensor values(std::vector<double> v) { return at::tensor(v, at::kDouble); }

constexpr double kHugeCountTolerance = 1e-9;

const std::vector<double> kCounts = {0, 3, 1, 2, 0, 5, 1};
const std::vector<double> kBits = {0, 1, 1, 0, 1, 0, 0};

at::Tensor identity(const at::Tensor& t) { return t; }
at::Tensor scalar(const at::Tensor& t) { return t.reshape({}); }

// `value` against a parameter shared by all elements and against one per element.
std::vector<DensityCase> shared_and_each(const DensityCase& base, const std::vector<double>& value,
                                         const vt::testing::TensorFunction& parameter) {
  const std::string size = ", " + std::to_string(value.size()) + " values";
  DensityCase shared = base;
  shared.label += ", shared" + size;
  shared.dimension = 1;
  shared.arguments.push_back(
      of_theta([parameter](const at::Tensor& t) { return parameter(t.reshape({})); }));
  shared.value = data(values(value));
  DensityCase each = base;
  each.label += ", per element" + size;
  each.dimension = static_cast<int64_t>(value.size());
  each.arguments.push_back(of_theta(parameter));
  each.value = data(values(value));
  return {shared, each};
}

// Observed data of sizes 0, 1 and 7 (prefixes of `seven`), shared and per element.
std::vector<DensityCase> over_sizes(const DensityCase& base, const std::vector<double>& seven,
                                    const vt::testing::TensorFunction& parameter) {
  std::vector<DensityCase> cases;
  for (size_t n : {0, 1, 7}) {
    const std::vector<double> value(seven.begin(), seven.begin() + static_cast<int64_t>(n));
    for (const DensityCase& c : shared_and_each(base, value, parameter)) cases.push_back(c);
  }
  return cases;
}

void append(std::vector<DensityCase>& to, const std::vector<DensityCase>& cases) {
  to.insert(to.end(), cases.begin(), cases.end());
}

std::vector<DensityCase> bernoulli_cases() {
  std::vector<DensityCase> cases;
  DensityCase p{"Bernoulli", 0, "p"};
  p.make = [](const auto& a) { return std::make_shared<vd::Bernoulli>(a[0]); };
  append(cases, over_sizes(p, kBits, [](const at::Tensor& t) { return at::sigmoid(t); }));
  DensityCase logits{"Bernoulli", 1, "logits"};
  logits.make = [](const auto& a) { return std::make_shared<vd::Bernoulli>(vt::Logits{a[0]}); };
  append(cases, over_sizes(logits, kBits, identity));
  // Logits on both sides of softplus's threshold of 40, between 36.7 (where 1 + e^x
  // rounds to e^x) and 40, and near 24, where a threshold of 20 would show.
  for (double shift : {-45.0, 45.0, -38.0, 38.0, 24.0}) {
    DensityCase extreme = logits;
    extreme.label = "logits near " + std::to_string(shift);
    extreme.dimension = 7;
    extreme.arguments = {of_theta(identity)};
    extreme.value = data(values(kBits));
    extreme.options.shift = shift;
    extreme.options.scale = 4;
    cases.push_back(extreme);
    extreme.label += ", shared";
    extreme.dimension = 1;
    extreme.arguments = {of_theta(scalar)};
    cases.push_back(extreme);
  }
  // p rounds to 1: log(1 - p) is -inf for a 0, log p is 0 for the ones.
  for (const auto& bits : {kBits, std::vector<double>(7, 1.0)}) {
    DensityCase certain = p;
    certain.label = "p = 1";
    certain.dimension = 1;
    certain.arguments = {of_theta([](const at::Tensor& t) { return at::sigmoid(t.reshape({})); })};
    certain.value = data(values(bits));
    certain.options.points = 0;
    certain.options.fixed_points = {{50.0}};
    cases.push_back(certain);
  }
  DensityCase outside = logits;
  outside.label = "a value of 2";
  outside.dimension = 1;
  outside.arguments = {of_theta(scalar)};
  outside.value = data(values({0, 2, 1}));
  cases.push_back(outside);
  return cases;
}

std::vector<DensityCase> binomial_cases() {
  std::vector<DensityCase> cases;
  const std::vector<double> trials = {4, 3, 1, 2, 6, 5, 1};
  for (size_t which : {0, 1}) {
    DensityCase base{"Binomial", which, which == 0 ? "p" : "logits"};
    base.make = [which](const auto& a) -> vt::DistributionPtr {
      if (which == 0) return std::make_shared<vd::Binomial>(a[0], a[1]);
      return std::make_shared<vd::Binomial>(a[0], vt::Logits{a[1]});
    };
    const vt::testing::TensorFunction parameter =
        which == 0 ? vt::testing::TensorFunction([](const at::Tensor& t) { return at::sigmoid(t); })
                   : vt::testing::TensorFunction(identity);
    for (size_t n : {0, 1, 7}) {
      for (bool shared_trials : {true, false}) {
        const at::Tensor N = shared_trials
                                 ? values({6})
                                 : values(std::vector<double>(trials.begin(), trials.begin() + n));
        DensityCase with_trials = base;
        with_trials.label += shared_trials ? ", N shared" : ", N per element";
        with_trials.arguments = {data(N)};
        std::vector<double> k(kCounts.begin(), kCounts.begin() + n);
        if (!shared_trials) {
          for (size_t i = 0; i < n; ++i) k[i] = std::min(k[i], trials[i]);
        }
        for (const DensityCase& c : shared_and_each(with_trials, k, parameter)) {
          cases.push_back(c);
        }
      }
    }
    // Huge counts: a million trials, half of them successes.
    DensityCase huge = base;
    huge.label += ", a million trials";
    huge.dimension = 3;
    huge.arguments = {data(values({1e6, 2e6, 1e6})), of_theta(parameter)};
    huge.value = data(values({5e5, 1e6 + 17, 499001}));
    huge.options.scale = 0.01;
    huge.options.tolerance = kHugeCountTolerance;
    cases.push_back(huge);
    DensityCase outside = base;
    outside.label += ", k above N";
    outside.dimension = 1;
    outside.arguments = {data(values({2})), of_theta([parameter](const at::Tensor& t) {
                           return parameter(t.reshape({}));
                         })};
    outside.value = data(values({1, 3}));
    cases.push_back(outside);
  }
  for (double shift : {-40.0, 40.0}) {
    DensityCase extreme{"Binomial", 1, "logits near " + std::to_string(shift), 7};
    extreme.make = [](const auto& a) {
      return std::make_shared<vd::Binomial>(a[0], vt::Logits{a[1]});
    };
    extreme.arguments = {data(values({6})), of_theta(identity)};
    extreme.value = data(values(kCounts));
    extreme.options.shift = shift;
    extreme.options.scale = 5;
    cases.push_back(extreme);
  }
  return cases;
}

std::vector<DensityCase> poisson_cases() {
  std::vector<DensityCase> cases;
  DensityCase rate{"Poisson", 0, "rate"};
  rate.make = [](const auto& a) { return std::make_shared<vd::Poisson>(a[0]); };
  append(cases, over_sizes(rate, kCounts, [](const at::Tensor& t) { return at::exp(t); }));
  DensityCase log_rate{"Poisson", 1, "log_rate"};
  log_rate.make = [](const auto& a) { return std::make_shared<vd::Poisson>(vt::LogRate{a[0]}); };
  append(cases, over_sizes(log_rate, kCounts, identity));
  // Rates near 0 (e^-30) over mostly zero counts, and a rate of exactly 0 over zeros.
  for (const DensityCase& base : {rate, log_rate}) {
    DensityCase tiny = base;
    tiny.label += " near 0";
    tiny.dimension = 7;
    tiny.arguments = {
        of_theta(base.parameterization == 0
                     ? vt::testing::TensorFunction([](const at::Tensor& t) { return at::exp(t); })
                     : vt::testing::TensorFunction(identity))};
    tiny.value = data(values({0, 0, 1, 0, 0, 2, 0}));
    tiny.options.shift = -30;
    cases.push_back(tiny);
  }
  DensityCase zero = rate;
  zero.label = "rate 0";
  zero.dimension = 1;
  zero.arguments = {of_theta([](const at::Tensor& t) { return (t * t).reshape({}); })};
  zero.value = data(values({0, 0, 0}));
  zero.options.points = 0;
  zero.options.fixed_points = {{0.0}};
  cases.push_back(zero);
  // A million events: lp ~ -8 from terms of 1.4e7.
  for (const DensityCase& base : {rate, log_rate}) {
    DensityCase huge = base;
    huge.label += ", a million events";
    huge.dimension = 3;
    huge.arguments = {of_theta(
        base.parameterization == 0
            ? vt::testing::TensorFunction([](const at::Tensor& t) { return at::exp(t + 13.8155); })
            : vt::testing::TensorFunction([](const at::Tensor& t) { return t + 13.8155; }))};
    huge.value = data(values({1e6, 1e6 + 1234, 999000}));
    huge.options.scale = 0.001;
    huge.options.tolerance = kHugeCountTolerance;
    cases.push_back(huge);
  }
  DensityCase outside = log_rate;
  outside.label = "a value of 1.5";
  outside.dimension = 1;
  outside.arguments = {of_theta(scalar)};
  outside.value = data(values({1, 1.5}));
  cases.push_back(outside);
  return cases;
}

std::vector<DensityCase> neg_binomial_2_cases() {
  std::vector<DensityCase> cases;
  const auto make = [](const auto& a) { return std::make_shared<vd::NegBinomial2>(a[0], a[1]); };
  // theta = (log mu..., log phi...); phi's log is shifted by `log_phi`.
  const auto nb = [&](const std::string& label, int64_t mus, int64_t phis, double log_phi,
                      std::vector<double> k) {
    DensityCase c{"NegBinomial2", 0, label, mus + phis};
    c.make = make;
    c.arguments = {of_theta([mus](const at::Tensor& t) { return at::exp(t.narrow(0, 0, mus)); }),
                   of_theta([mus, phis, log_phi](const at::Tensor& t) {
                     return at::exp(t.narrow(0, mus, phis) + log_phi);
                   })};
    c.value = data(values(std::move(k)));
    return c;
  };
  for (size_t n : {0, 1, 7}) {
    const std::vector<double> k(kCounts.begin(), kCounts.begin() + n);
    const auto each = static_cast<int64_t>(n);
    cases.push_back(nb("shared, " + std::to_string(n), 1, 1, 0, k));
    cases.push_back(nb("mu per element, " + std::to_string(n), each, 1, 0, k));
    cases.push_back(nb("both per element, " + std::to_string(n), each, each, 0, k));
    cases.push_back(nb("phi per element, " + std::to_string(n), 1, each, 0, k));
  }
  // phi across the series' switch at k + phi = 10, near Poisson (phi ~ e^16), and small.
  for (double log_phi : {2.0, 16.0, -3.0}) {
    DensityCase c = nb("log phi near " + std::to_string(log_phi), 7, 7, log_phi, kCounts);
    c.options.scale = 1.5;
    cases.push_back(c);
  }
  DensityCase huge = nb("a hundred thousand events", 3, 1, 0, {1e5, 1e5 + 321, 99000});
  huge.arguments[0] =
      of_theta([](const at::Tensor& t) { return at::exp(t.narrow(0, 0, 3) + 11.5129); });
  huge.options.scale = 0.01;
  huge.options.tolerance = kHugeCountTolerance;
  cases.push_back(huge);
  cases.push_back(nb("a value of -1", 1, 1, 0, {2, -1}));
  return cases;
}

std::vector<DensityCase> categorical_cases() {
  std::vector<DensityCase> cases;
  constexpr int64_t K = 3;
  const std::vector<double> categories = {1, 3, 3, 2, 1, 3, 2};
  for (size_t which : {0, 1}) {
    DensityCase base{"Categorical", which, which == 0 ? "p" : "logits"};
    base.make = [which](const auto& a) -> vt::DistributionPtr {
      if (which == 0) return std::make_shared<vd::Categorical>(a[0]);
      return std::make_shared<vd::Categorical>(vt::Logits{a[0]});
    };
    const auto table = [which](int64_t rows, bool batched) {
      return of_theta([which, rows, batched](const at::Tensor& t) {
        const at::Tensor x = batched ? t.reshape({rows, K}) : t.reshape({K});
        return which == 0 ? at::softmax(x, -1) : x;
      });
    };
    for (size_t n : {0, 1, 7}) {
      const at::Tensor value =
          values(std::vector<double>(categories.begin(), categories.begin() + n));
      DensityCase shared = base;
      shared.label += ", shared, " + std::to_string(n);
      shared.dimension = K;
      shared.arguments = {table(1, false)};
      shared.value = data(value);
      cases.push_back(shared);
      DensityCase each = base;
      each.label += ", per element, " + std::to_string(n);
      each.dimension = static_cast<int64_t>(n) * K;
      each.arguments = {table(static_cast<int64_t>(n), true)};
      each.value = data(value);
      cases.push_back(each);
    }
    // iid rows: a [2, 7] value against a table of 7 rows.
    DensityCase iid = base;
    iid.label += ", 2 x 7 against 7 rows";
    iid.dimension = 7 * K;
    iid.arguments = {table(7, true)};
    iid.value = data(values({1, 3, 3, 2, 1, 3, 2, 2, 2, 1, 3, 1, 1, 3}).reshape({2, 7}));
    cases.push_back(iid);
    DensityCase extreme = base;
    extreme.label += ", extreme";
    extreme.dimension = 7 * K;
    extreme.arguments = {table(7, true)};
    extreme.value = data(values(categories));
    extreme.options.scale = 30;
    cases.push_back(extreme);
    for (double outside : {0.0, 4.0, 1.5}) {
      DensityCase c = base;
      c.label += ", a value of " + std::to_string(outside);
      c.dimension = K;
      c.arguments = {table(1, false)};
      c.value = data(values({1, outside}));
      cases.push_back(c);
    }
  }
  return cases;
}

// Every argument data: the sink adds its constant and writes no adjoint.
std::vector<DensityCase> data_cases() {
  std::vector<DensityCase> cases;
  const at::Tensor seven = values(kCounts);
  const at::Tensor bits = values(kBits);
  const auto add = [&](const std::string& family, size_t parameterization,
                       std::vector<at::Tensor> arguments, const at::Tensor& value, auto make) {
    DensityCase c{family, parameterization, "all data", 0};
    for (const at::Tensor& a : arguments) c.arguments.push_back(data(a));
    c.value = data(value);
    c.make = make;
    c.options.points = 1;
    cases.push_back(c);
  };
  for (const at::Tensor& logits : {values({0.3}), at::linspace(-2.0, 2.0, 7, at::kDouble)}) {
    add("Bernoulli", 1, {logits}, bits,
        [](const auto& a) { return std::make_shared<vd::Bernoulli>(vt::Logits{a[0]}); });
    add("Binomial", 0, {values({6}), at::sigmoid(logits)}, seven,
        [](const auto& a) { return std::make_shared<vd::Binomial>(a[0], a[1]); });
    add("Poisson", 0, {at::exp(logits)}, seven,
        [](const auto& a) { return std::make_shared<vd::Poisson>(a[0]); });
    add("NegBinomial2", 0, {at::exp(logits), at::exp(-logits)}, seven,
        [](const auto& a) { return std::make_shared<vd::NegBinomial2>(a[0], a[1]); });
  }
  add("Categorical", 1, {values({0.5, -1, 2})}, values({1, 3, 3, 2}),
      [](const auto& a) { return std::make_shared<vd::Categorical>(vt::Logits{a[0]}); });
  add("Categorical", 0, {values({0.2, 0.3, 0.5})}, values({1, 3, 3, 2}),
      [](const auto& a) { return std::make_shared<vd::Categorical>(a[0]); });
  return cases;
}

std::vector<DensityCase> with_data_cases(const std::string& family,
                                         std::vector<DensityCase> cases) {
  for (const DensityCase& c : data_cases()) {
    if (c.family == family) cases.push_back(c);
  }
  return cases;
}

const std::map<std::string, std::vector<DensityCase>>& all_cases() {
  static const std::map<std::string, std::vector<DensityCase>> cases = {
      {"Bernoulli", with_data_cases("Bernoulli", bernoulli_cases())},
      {"Binomial", with_data_cases("Binomial", binomial_cases())},
      {"Poisson", with_data_cases("Poisson", poisson_cases())},
      {"NegBinomial2", with_data_cases("NegBinomial2", neg_binomial_2_cases())},
      {"Categorical", with_data_cases("Categorical", categorical_cases())}};
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

class TestTapeDiscreteDensities : public QObject {
  Q_OBJECT

 private slots:
  // Every discrete family of the language's table has cases here, and every other family
  // of the table is left to its own group.
  void everyFamilyOfTheTableHasCases() {
    const std::vector<std::string> names = vt::model::distribution_names();
    for (const std::string& family : kFamilies) {
      QVERIFY2(std::find(names.begin(), names.end(), family) != names.end(), family.c_str());
      QVERIFY2(!all_cases().at(family).empty(), family.c_str());
    }
    for (const std::string& family : names) {
      if (kFamilies.count(family)) continue;
      vt::tape::ProgramBuilder b(1);
      QVERIFY2(!vt::tape::emit_discrete_log_density(b, make_term(family, 0, {}, b.parameters())),
               family.c_str());
    }
  }

  void bernoulli() { verify_family("Bernoulli"); }
  void binomial() { verify_family("Binomial"); }
  void poisson() { verify_family("Poisson"); }
  void negBinomial2() { verify_family("NegBinomial2"); }
  void categorical() { verify_family("Categorical"); }

  // A shared parameter is scored from the data's totals: one sink, no per-element loop.
  void sharedParameterIsOneSinkOverTotals() {
    vt::tape::ProgramBuilder b(1);
    const auto k = b.constant({4}, {0, 2, 5, 1});
    vt::tape::emit_log_density(b, make_term("Poisson", 1, {b.parameters(0, {})}, k));
    const vt::tape::Program program = std::move(b).finish();
    QCOMPARE(program.instructions().size(), size_t{1});
    QCOMPARE(program.instructions()[0].constants[1], 8.0);
  }

  void unsupported() {
    vt::tape::ProgramBuilder b(3);
    const auto theta = b.parameters();
    // A count that depends on parameters, trials that do, an argument of a third size.
    QVERIFY_EXCEPTION_THROWN(
        vt::tape::emit_log_density(b, make_term("Poisson", 1, {b.parameters(0, {})}, theta)),
        vt::tape::Unsupported);
    QVERIFY_EXCEPTION_THROWN(vt::tape::emit_log_density(b, make_term("Binomial", 1, {theta, theta},
                                                                b.constant({3}, {0, 1, 0}))),
                             vt::tape::Unsupported);
    QVERIFY_EXCEPTION_THROWN(
        vt::tape::emit_log_density(
            b, make_term("Poisson", 1, {b.parameters(0, {2})}, b.constant({3}, {0, 1, 0}))),
        vt::tape::Unsupported);
  }
};

QTEST_APPLESS_MAIN(TestTapeDiscreteDensities)
#include "tst_tape_discrete_densities.moc"
