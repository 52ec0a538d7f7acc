// The continuous event-rank-0 density sinks against their families' LibTorch log_prob
// (built through the language's distribution table), value and gradient to 1e-12: every
// combination of a varying or data value with varying or data, scalar or vector
// arguments, at 7, 1 and 0 elements; far-out arguments; values on, near and beyond the
// support's bounds. Every such family of the language must have a row here.

#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <QtTest/QtTest>

#include "tests/support/tape_check.h"
#include "engine/core/checks.h"
#include "engine/core/distribution.h"
#include "engine/model/distribution_table.h"
#include "engine/tape/densities/log_density_ops.h"
#include "engine/tape/program/unsupported.h"

Q_DECLARE_METATYPE(std::vector<double>)

namespace vt = variate;
namespace tape = variate::tape;
using vt::Shape;
using vt::testing::TapeComparison;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Where an operand lies: offset + scale * f(t) of an unconstrained t, and how far out the
// extreme points put t.
enum class Map { identity, exp, sigmoid };
struct Domain {
  Map map = Map::identity;
  double offset = 0;
  double scale = 1;
  std::vector<double> extremes = {};
};

const Domain kReal{Map::identity, 0, 1, {-1e8, 1e8}};
const Domain kPositive{Map::exp, 0, 1, {}};
// Scales and rates: 1e-87 to 1e87 (a partial in the scale grows as 1 / scale^3, and the
// comparison needs it finite).
const Domain kScale{Map::exp, 0, 1, {-200, -30, 30, 200}};
// Shapes inside lgamma and digamma: e^-5 to e^5. Where a density takes a difference of
// lgammas (Beta's, Student-t's), one rounding of a far larger lgamma, which LibTorch may
// compute otherwise than std::lgamma, would exceed 1e-12 of the density.
const Domain kShape{Map::exp, 0, 1, {-5, 5}};
const Domain kUnit{Map::sigmoid, 0, 1, {}};

struct Family {
  std::string name;
  std::vector<Domain> domains;  // the value's, then each argument's
};

// The families of this group, with the domains of their value and arguments.
const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"Normal", {kReal, kReal, kScale}},
      {"HalfNormal", {kPositive, kScale}},
      {"Cauchy", {kReal, kReal, kScale}},
      {"HalfCauchy", {kPositive, kScale}},
      {"StudentT", {kReal, kShape, kReal, kScale}},
      {"HalfStudentT", {kPositive, kShape, kScale}},
      {"Laplace", {kReal, kReal, kScale}},
      {"Logistic", {kReal, kReal, kScale}},
      {"Exponential", {kPositive, kScale}},
      {"Gamma", {kPositive, kShape, kScale}},
      {"InvGamma", {kPositive, kShape, kScale}},
      {"LogNormal", {kPositive, kReal, kScale}},
      {"Beta", {kUnit, kShape, kShape}},
      // lo < -5 and hi > 5: a value t ~ N(0, 1) is (almost always) inside.
      {"Uniform", {kReal, {Map::exp, -5, -1, {-30, 30}}, {Map::exp, 5, 1, {-30, 30}}}},
      {"Weibull", {kPositive, kShape, kScale}},
      {"Flat", {kReal}},
      {"HalfFlat", {kPositive}},
  };
  return all;
}

// The families another group's sinks (and tests) cover.
const std::set<std::string> kOtherGroups = {"Bernoulli",    "Binomial",        "Poisson",
                                            "NegBinomial2", "Categorical",     "Dirichlet",
                                            "MultiNormal",  "LKJCorrCholesky", "Mixture"};

const Family& family(const std::string& name) {
  for (const Family& f : families()) {
    if (f.name == name) return f;
  }
  throw std::logic_error("no family " + name);
}

double mapped(const Domain& domain, double t) {
  switch (domain.map) {
    case Map::identity:
      return domain.offset + domain.scale * t;
    case Map::exp:
      return domain.offset + domain.scale * std::exp(t);
    case Map::sigmoid:
      return domain.offset + domain.scale / (1.0 + std::exp(-t));
  }
  return kNaN;
}

at::Tensor mapped(const Domain& domain, const at::Tensor& t) {
  switch (domain.map) {
    case Map::identity:
      return domain.offset + domain.scale * t;
    case Map::exp:
      return domain.offset + domain.scale * at::exp(t);
    case Map::sigmoid:
      return domain.offset + domain.scale / (1.0 + at::exp(-t));
  }
  return t;
}

// A test-only op: out = mapped(domain, in), so that varying arguments and values lie in
// their families' domains at every point.
void map_forward(const tape::Instruction& op, tape::Sweep& s) {
  const Domain domain{static_cast<Map>(op.dims[0]), op.constants[0], op.constants[1], {}};
  for (int64_t i = 0; i < op.n; ++i) s.values[op.out + i] = mapped(domain, s.values[op.in[0] + i]);
}

void map_backward(const tape::Instruction& op, tape::Sweep& s) {
  const auto map = static_cast<Map>(op.dims[0]);
  for (int64_t i = 0; i < op.n; ++i) {
    const double t = s.values[op.in[0] + i];
    double derivative = 1.0;
    if (map == Map::exp) derivative = std::exp(t);
    if (map == Map::sigmoid) {
      const double y = 1.0 / (1.0 + std::exp(-t));
      derivative = y * (1.0 - y);
    }
    s.adjoints[op.in[0] + i] += s.adjoints[op.out + i] * op.constants[1] * derivative;
  }
}

tape::Slot emit_map(tape::ProgramBuilder& builder, const tape::Slot& t, const Domain& domain) {
  if (domain.map == Map::identity && domain.offset == 0 && domain.scale == 1) return t;
  const tape::Slot out = builder.varying(t.shape);
  tape::Instruction op;
  op.forward = map_forward;
  op.backward = map_backward;
  op.name = "test_map";
  op.out = out.offset;
  op.n = out.size;
  op.in[0] = t.offset;
  op.varying[0] = true;
  op.dims[0] = static_cast<int64_t>(domain.map);
  op.constants[0] = domain.offset;
  op.constants[1] = domain.scale;
  builder.append(op);
  return out;
}

struct Operand {
  bool varying = false;
  Shape shape;
  std::vector<double> data = {};  // a constant's values; empty: its domain at fixed points
};

// value ~ family(arguments): operands[0] is the value.
struct Term {
  std::string family;
  std::vector<Domain> domains;
  std::vector<Operand> operands;
};

// `count` values of a domain at fixed points, varied by the operand's index k.
std::vector<double> fixed_values(const Domain& domain, int64_t count, size_t k) {
  std::vector<double> values;
  for (int64_t j = 0; j < count; ++j) {
    const double t =
        1.4 * std::sin(1.9 * static_cast<double>(j) + 0.8 * static_cast<double>(k) + 0.5);
    values.push_back(mapped(domain, t));
  }
  return values;
}

std::vector<double> constant_values(const Term& term, size_t k) {
  const Operand& operand = term.operands[k];
  if (!operand.data.empty()) return operand.data;
  return fixed_values(term.domains[k], vt::numel(operand.shape), k);
}

int64_t dimension(const Term& term) {
  int64_t d = 0;
  for (const Operand& operand : term.operands) d += operand.varying ? vt::numel(operand.shape) : 0;
  return d;
}

std::string describe(const Term& term) {
  std::ostringstream out;
  out << term.family << ":";
  for (const Operand& operand : term.operands) {
    out << " " << (operand.varying ? "varying" : "data") << vt::to_string(operand.shape);
  }
  return out.str();
}

void build(tape::ProgramBuilder& builder, const Term& term) {
  std::vector<tape::Slot> operand_slots;
  int64_t offset = 0;
  for (size_t k = 0; k < term.operands.size(); ++k) {
    const Operand& operand = term.operands[k];
    if (operand.varying) {
      operand_slots.push_back(
          emit_map(builder, builder.parameters(offset, operand.shape), term.domains[k]));
      offset += vt::numel(operand.shape);
    } else {
      operand_slots.push_back(builder.constant(operand.shape, constant_values(term, k)));
    }
  }
  tape::DensityTerm density;
  density.family = term.family;
  density.value = operand_slots[0];
  density.arguments.assign(operand_slots.begin() + 1, operand_slots.end());
  if (!tape::emit_continuous_log_density(builder, density)) {
    throw std::logic_error("no continuous sink for " + term.family);
  }
}

at::Tensor reference(const Term& term, const at::Tensor& theta) {
  // As the sampler's target evaluates densities: the formulas, without argument checks.
  vt::ValidationGuard no_validation(false);
  std::vector<at::Tensor> tensors;
  int64_t offset = 0;
  for (size_t k = 0; k < term.operands.size(); ++k) {
    const Operand& operand = term.operands[k];
    if (operand.varying) {
      const int64_t size = vt::numel(operand.shape);
      tensors.push_back(
          mapped(term.domains[k], theta.slice(0, offset, offset + size)).reshape(operand.shape));
      offset += size;
    } else {
      tensors.push_back(at::tensor(constant_values(term, k), at::kDouble).reshape(operand.shape));
    }
  }
  vt::model::DistributionArguments arguments;
  arguments.tensors.assign(tensors.begin() + 1, tensors.end());
  const auto distribution = vt::model::find_distribution(term.family)->build(0, arguments);
  // + 0 theta keeps the result on theta's graph where the density ignores it (Uniform's x).
  return distribution->log_prob(tensors[0]).sum() + 0.0 * theta.sum();
}

std::string compare(const Term& term, const TapeComparison& options = {}) {
  const std::string error = vt::testing::compare_tape_to_torch(
      dimension(term), [&](tape::ProgramBuilder& b, const tape::Slot&) { build(b, term); },
      [&](const at::Tensor& theta) { return reference(term, theta); }, options);
  return error.empty() ? "" : describe(term) + ": " + error;
}

// Every value and argument kind at value size n: the value varying or data, each argument
// data or varying, one value (stride 0) or n (stride 1).
std::vector<Term> every_kind(const Family& f, int64_t n) {
  const size_t arity = f.domains.size() - 1;
  size_t count = 2;
  for (size_t k = 0; k < arity; ++k) count *= 4;
  std::vector<Term> terms;
  for (size_t code = 0; code < count; ++code) {
    Term term{f.name, f.domains, {Operand{(code & 1) != 0, {n}}}};
    size_t rest = code >> 1;
    for (size_t k = 0; k < arity; ++k, rest /= 4) {
      const bool vector = (rest % 4) & 1;
      const bool varying = (rest % 4) & 2;
      term.operands.push_back(Operand{varying, vector ? Shape{n} : Shape{}});
    }
    terms.push_back(term);
  }
  return terms;
}

// The value given as data, the arguments varying scalars.
Term observed(const std::string& name, std::vector<double> data) {
  const Family& f = family(name);
  Term term{f.name, f.domains, {Operand{false, {static_cast<int64_t>(data.size())}, data}}};
  for (size_t k = 1; k < f.domains.size(); ++k) term.operands.push_back(Operand{true, {}});
  return term;
}

// Points with one argument at each of its extremes, the others at 0.3.
std::vector<std::vector<double>> extreme_points(const Term& term) {
  std::vector<std::vector<double>> points;
  for (size_t k = 1; k < term.domains.size(); ++k) {
    for (const double t : term.domains[k].extremes) {
      std::vector<double> q(term.domains.size() - 1, 0.3);
      q[k - 1] = t;
      points.push_back(q);
    }
  }
  return points;
}

// The tape's log density of `term` at theta.
double tape_value(const Term& term, const std::vector<double>& theta) {
  tape::ProgramBuilder builder(dimension(term));
  build(builder, term);
  const tape::Program program = std::move(builder).finish();
  tape::Work work = program.make_work();
  return program.log_density(theta.data(), nullptr, work);
}

}  // namespace

class TestTapeContinuousDensities : public QObject {
  Q_OBJECT

 private slots:
  // A family of the language that is continuous and of event rank 0 without a row here (so
  // without a tested kernel) fails; so does a row whose arity is not the language's.
  void everyContinuousScalarFamilyHasCases() {
    std::set<std::string> covered;
    for (const Family& f : families()) covered.insert(f.name);
    for (const std::string& name : vt::model::distribution_names()) {
      if (kOtherGroups.count(name)) continue;
      QVERIFY2(covered.count(name), ("no tape cases for " + name).c_str());
    }
    for (const Family& f : families()) {
      const vt::model::DistributionSignature* signature = vt::model::find_distribution(f.name);
      QVERIFY2(signature, f.name.c_str());
      QCOMPARE(signature->event_rank, int64_t{0});
      QCOMPARE(f.domains.size(), signature->parameterizations[0].size() + 1);
    }
  }

  void combinations_data() {
    QTest::addColumn<QString>("name");
    for (const Family& f : families())
      QTest::newRow(f.name.c_str()) << QString::fromStdString(f.name);
  }

  // Prior (value varying, data arguments), likelihood (data value, varying arguments) and
  // hierarchical (both), with scalar and vector arguments, at n = 7, 1 and 0.
  void combinations() {
    QFETCH(QString, name);
    const Family& f = family(name.toStdString());
    for (const int64_t n : {7, 1, 0}) {
      for (const Term& term : every_kind(f, n)) {
        const std::string error = compare(term);
        QVERIFY2(error.empty(), error.c_str());
      }
    }
  }

  void extremeArguments_data() {
    QTest::addColumn<QString>("name");
    for (const Family& f : families()) {
      if (f.domains.size() > 1) QTest::newRow(f.name.c_str()) << QString::fromStdString(f.name);
    }
  }

  // Huge and tiny scales and rates, far locations, small and large shapes.
  void extremeArguments() {
    QFETCH(QString, name);
    const Family& f = family(name.toStdString());
    const Term term = observed(f.name, fixed_values(f.domains[0], 5, 0));
    TapeComparison options;
    options.fixed_points = extreme_points(term);
    QVERIFY(!options.fixed_points.empty());
    const std::string error = compare(term, options);
    QVERIFY2(error.empty(), error.c_str());
  }

  void support_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<std::vector<double>>("inside");
    QTest::addColumn<std::vector<double>>("outside");
    const double tiny = std::numeric_limits<double>::denorm_min();
    const double below_one = 1.0 - std::numeric_limits<double>::epsilon() / 2;
    const std::vector<double> real_inside = {0.0, -1e300, 1e300};
    const std::vector<double> real_outside = {kInf, -kInf, kNaN};
    // [0, inf): 0 is inside. Not the subnormal tiny: Weibull's partial in sigma passes
    // through 1 / x, infinite there in both (and compare_tape_to_torch counts inf - inf
    // as a difference).
    const std::vector<double> half_inside = {0.0, 1e-300, 1e300};
    const std::vector<double> half_outside = {-tiny, -1.0, kInf, kNaN};
    // (0, inf): 0 is not.
    const std::vector<double> open_inside = {tiny, 1e-300, 1e300};
    const std::vector<double> open_outside = {0.0, -1.0, kInf, kNaN};
    for (const char* name : {"Normal", "Cauchy", "StudentT", "Laplace", "Logistic", "Flat"}) {
      QTest::newRow(name) << QString(name) << real_inside << real_outside;
    }
    for (const char* name :
         {"HalfNormal", "HalfCauchy", "HalfStudentT", "Exponential", "Gamma", "Weibull"}) {
      QTest::newRow(name) << QString(name) << half_inside << half_outside;
    }
    for (const char* name : {"InvGamma", "LogNormal", "HalfFlat"}) {
      QTest::newRow(name) << QString(name) << open_inside << open_outside;
    }
    QTest::newRow("Beta") << QString("Beta") << std::vector<double>{tiny, 1e-300, 0.5, below_one}
                          << std::vector<double>{0.0, 1.0, -0.5, 1.5, kNaN};
    // lo = -5 - exp(0) = -6 and hi = 6 at theta = 0.
    QTest::newRow("Uniform") << QString("Uniform") << std::vector<double>{-6.0, 6.0, 0.0}
                             << std::vector<double>{std::nextafter(-6.0, -7.0),
                                                    std::nextafter(6.0, 7.0), kNaN};
  }

  // Values on and near the support's bounds agree with LibTorch (densities may be +-inf
  // there, as Gamma's at 0); each value outside it makes the density -inf; and a varying
  // value on the whole real line is -inf wherever it leaves the support.
  void support() {
    QFETCH(QString, name);
    QFETCH(std::vector<double>, inside);
    QFETCH(std::vector<double>, outside);
    const Family& f = family(name.toStdString());
    TapeComparison options;
    const std::vector<double> zero(f.domains.size() - 1, 0.0);
    options.fixed_points = {zero};  // shapes of 1 (Gamma's, Weibull's), Uniform's [-6, 6]
    for (const double x : inside) {
      const std::string error = compare(observed(f.name, {x}), options);
      QVERIFY2(error.empty(), error.c_str());
    }
    const std::string all_inside = compare(observed(f.name, inside), options);
    QVERIFY2(all_inside.empty(), all_inside.c_str());
    for (const double x : outside) {
      const Term term = observed(f.name, {0.5, x});
      const std::string error = compare(term, options);
      QVERIFY2(error.empty(), error.c_str());
      QCOMPARE(tape_value(term, zero), -kInf);
    }
    // One element, so that about half the points (a few for Beta) are inside.
    Term unbounded{f.name, f.domains, {Operand{true, {1}}}};
    unbounded.domains[0] = {Map::identity, 0, 3};
    for (size_t k = 1; k < f.domains.size(); ++k) unbounded.operands.push_back(Operand{false, {}});
    TapeComparison random_points;
    random_points.points = 40;
    const std::string error = compare(unbounded, random_points);
    QVERIFY2(error.empty(), error.c_str());
  }

  // The kink of Laplace at x = mu, where autograd's abs'(0) = 0.
  void laplaceAtItsLocation() {
    Term term = observed("Laplace", {0.0, 0.0, 1.0});
    TapeComparison options;
    options.fixed_points = {{0.0, 0.3}};
    const std::string error = compare(term, options);
    QVERIFY2(error.empty(), error.c_str());
  }

  // The linear regression shape the Normal kernel is specialized for, at N = 5000.
  void normalLikelihoodOfManyRows() {
    const int64_t n = 5000;
    const Family& f = family("Normal");
    for (const bool sigma_vector : {false, true}) {
      const Term term{f.name,
                      f.domains,
                      {Operand{false, {n}}, Operand{true, {n}},
                       Operand{true, sigma_vector ? Shape{n} : Shape{}}}};
      TapeComparison options;
      options.points = 3;
      const std::string error = compare(term, options);
      QVERIFY2(error.empty(), error.c_str());
    }
  }

  // One sink per term: no other instruction, no backward.
  void oneSinkPerTerm() {
    for (const Family& f : families()) {
      Term term{f.name, f.domains, {Operand{true, {7}}}};
      for (size_t k = 1; k < f.domains.size(); ++k) term.operands.push_back(Operand{false, {}});
      tape::ProgramBuilder builder(7);
      term.domains[0] = kReal;  // no test map in front
      build(builder, term);
      const tape::Program program = std::move(builder).finish();
      QCOMPARE(program.instructions().size(), size_t{1});
      QVERIFY(program.instructions()[0].sink);
      QVERIFY(program.instructions()[0].backward == nullptr);
    }
  }

  void otherFamiliesAreNotThisGroups() {
    tape::ProgramBuilder builder(3);
    tape::DensityTerm term;
    term.value = builder.parameters();
    term.arguments = {builder.scalar(1.0)};
    for (const std::string name :
         {"Poisson", "Bernoulli", "Dirichlet", "MultiNormal", "Mixture", "NoSuchFamily"}) {
      term.family = name;
      QVERIFY2(!tape::emit_continuous_log_density(builder, term), name.c_str());
    }
  }

  void argumentsTheKernelsDoNotTakeAreUnsupported() {
    tape::ProgramBuilder builder(7);
    tape::DensityTerm term;
    term.family = "Normal";
    term.value = builder.parameters();
    term.arguments = {builder.scalar(0.0)};
    QVERIFY_THROWS_EXCEPTION(tape::Unsupported, tape::emit_continuous_log_density(builder, term));
    term.arguments = {builder.scalar(0.0), builder.constant({3}, {1.0, 2.0, 3.0})};
    QVERIFY_THROWS_EXCEPTION(tape::Unsupported, tape::emit_continuous_log_density(builder, term));
    term.arguments = {builder.scalar(0.0), builder.scalar(1.0)};
    term.parameterization = 1;
    QVERIFY_THROWS_EXCEPTION(tape::Unsupported, tape::emit_continuous_log_density(builder, term));
  }
};

QTEST_APPLESS_MAIN(TestTapeContinuousDensities)
#include "tst_tape_continuous_densities.moc"
