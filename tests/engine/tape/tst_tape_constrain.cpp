// The tape's bijector ops against the LibTorch bijectors (engine/bijectors): for every
// support with a bijector, the constrained value and log|det J| agree in value and gradient
// to 1e-12, scalar to matrix, single and shaped bounds, batches of vectors, at random
// points and at |y| up to 40 where exp and sigmoid saturate; without the Jacobian the op
// alone; discrete supports are Unsupported.

#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <sstream>

#include <torch/csrc/autograd/autograd.h>
#include <QtTest/QtTest>

#include "tests/support/tape_check.h"
#include "engine/bijectors/make_bijector.h"
#include "engine/core/argument_error.h"
#include "engine/core/support.h"
#include "engine/tape/constrain/constrain_ops.h"
#include "engine/tape/program/unsupported.h"

namespace vt = variate;
namespace tape = variate::tape;
namespace vtest = variate::testing;
using Kind = vt::Support::Kind;

namespace {

constexpr double kTolerance = 1e-12;

at::Tensor values(const std::vector<double>& v, const vt::Shape& shape) {
  return at::tensor(v, at::kDouble).reshape(shape);
}

struct Case {
  std::string label;
  vt::Support support;
  vt::Shape shape;  // constrained
};

// One support of each factory, discrete ones included.
std::vector<vt::Support> one_support_per_factory() {
  const at::Tensor two = at::scalar_tensor(2.0, at::kDouble);
  return {
      vt::Support::real(),
      vt::Support::positive(),
      vt::Support::lower_bounded(two),
      vt::Support::upper_bounded(two),
      vt::Support::interval(-two, two),
      vt::Support::unit_interval(),
      vt::Support::ordered(),
      vt::Support::positive_ordered(),
      vt::Support::simplex(),
      vt::Support::cholesky_corr(),
      vt::Support::boolean(),
      vt::Support::nonnegative_integer(),
      vt::Support::integer_interval(at::scalar_tensor(int64_t{0}), at::scalar_tensor(int64_t{3}))};
}

std::vector<Case> elementwise_cases() {
  using S = vt::Support;
  const at::Tensor low = at::scalar_tensor(-2.5, at::kDouble);
  const at::Tensor high = at::scalar_tensor(3.0, at::kDouble);
  const std::vector<S> single_bounds = {
      S::real(), S::positive(), S::lower_bounded(low), S::upper_bounded(high),
      S::interval(low, high), S::unit_interval(),
      // Integer bounds become float64 in the bijector.
      S::interval(at::scalar_tensor(int64_t{-1}), at::scalar_tensor(int64_t{4}))};
  std::vector<Case> cases;
  for (const S& support : single_bounds) {
    for (const vt::Shape& shape : {vt::Shape{}, vt::Shape{1}, vt::Shape{5}, vt::Shape{2, 3}}) {
      cases.push_back({support.to_string() + " " + vt::to_string(shape), support, shape});
    }
  }
  // Bounds of the value's shape, and bounds broadcast along the rows or columns of a matrix.
  const at::Tensor lower5 = values({-3, 0, 0.5, 10, -1e3}, {5});
  const at::Tensor upper5 = values({-2, 1, 0.75, 1e3, 1e3}, {5});
  const at::Tensor lower3 = values({-1, 0, 2}, {3});
  const at::Tensor upper3 = values({0, 1e-3, 2.5}, {3});
  const at::Tensor lower21 = values({-4, 7}, {2, 1});
  cases.push_back({"lower_bounded [5]", S::lower_bounded(lower5), {5}});
  cases.push_back({"positive as zeros [5]", S::lower_bounded(at::zeros({5}, at::kDouble)), {5}});
  cases.push_back({"upper_bounded [5]", S::upper_bounded(upper5), {5}});
  cases.push_back({"interval [5]", S::interval(lower5, upper5), {5}});
  cases.push_back({"lower_bounded [3] of [2, 3]", S::lower_bounded(lower3), {2, 3}});
  cases.push_back({"upper_bounded [3] of [2, 3]", S::upper_bounded(upper3), {2, 3}});
  cases.push_back({"interval [3] of [2, 3]", S::interval(lower3, upper3), {2, 3}});
  cases.push_back({"interval [2, 1], [3] of [2, 3]", S::interval(lower21, upper3 + 8), {2, 3}});
  cases.push_back({"interval single, [3] of [2, 3]", S::interval(low, upper3), {2, 3}});
  cases.push_back({"interval [1] of [5]", S::interval(values({-10}, {1}), upper5 + 2), {5}});
  // A float32 bound keeps its type in the bijector: upper - lower rounds in float32.
  cases.push_back(
      {"interval float32",
       S::interval(at::scalar_tensor(0.1, at::kFloat), at::scalar_tensor(0.7, at::kFloat)),
       {5}});
  return cases;
}

std::vector<Case> vector_cases() {
  using S = vt::Support;
  std::vector<Case> cases;
  for (const S& support : {S::ordered(), S::positive_ordered(), S::simplex()}) {
    for (const vt::Shape& shape :
         {vt::Shape{1}, vt::Shape{2}, vt::Shape{4}, vt::Shape{3, 4}, vt::Shape{2, 1, 3}}) {
      cases.push_back({support.to_string() + " " + vt::to_string(shape), support, shape});
    }
  }
  cases.push_back({"ordered [0]", S::ordered(), {0}});
  for (const vt::Shape& shape :
       {vt::Shape{1, 1}, vt::Shape{2, 2}, vt::Shape{4, 4}, vt::Shape{2, 3, 3}, vt::Shape{5, 5}}) {
    cases.push_back({"cholesky_corr " + vt::to_string(shape), S::cholesky_corr(), shape});
  }
  return cases;
}

const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all = elementwise_cases();
    const std::vector<Case> vectors = vector_cases();
    all.insert(all.end(), vectors.begin(), vectors.end());
    return all;
  }();
  return cases;
}

vt::Shape unconstrained_shape(const Case& c) {
  return vt::bijectors::make_bijector(c.support)->unconstrained_shape(c.shape);
}

// Values where the branches of the transforms switch (0, |y| = 1/2 for cholesky_corr, 20
// for softplus-like forms) and where exp and sigmoid saturate (|y| = 36, 40): each alone
// in every entry, and all of them rotated through the entries.
std::vector<std::vector<double>> edge_points(int64_t dimension) {
  const std::vector<double> edges = {0.0,   -0.0, 0.5,   -0.5, 0.4999999, -0.5000001, 1e-8, 20.5,
                                     -20.5, 36.0, -36.0, 40.0, -40.0,     3.7,        -1.3};
  std::vector<std::vector<double>> points;
  const auto d = static_cast<size_t>(dimension);
  for (double e : edges) points.emplace_back(d, e);
  for (size_t shift = 0; shift < edges.size(); ++shift) {
    std::vector<double> q(d);
    for (size_t i = 0; i < d; ++i) q[i] = edges[(i + shift) % edges.size()];
    points.push_back(q);
  }
  return points;
}

std::vector<std::vector<double>> random_points(int64_t dimension, double scale, int count) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> points;
  for (int p = 0; p < count; ++p) {
    std::vector<double> q(static_cast<size_t>(dimension));
    for (double& x : q) x = scale * normal(random);
    points.push_back(q);
  }
  return points;
}

// The bijector's forward at theta viewed in the unconstrained shape, and the log|det J|.
at::Tensor torch_forward(const Case& c, const at::Tensor& theta) {
  return vt::bijectors::make_bijector(c.support)->forward(theta.reshape(unconstrained_shape(c)));
}

at::Tensor torch_log_det(const Case& c, const at::Tensor& theta) {
  return vt::bijectors::make_bijector(c.support)
      ->forward_log_det_jacobian(theta.reshape(unconstrained_shape(c)))
      .sum();
}

bool close(double got, double expected) {
  return std::abs(got - expected) <= kTolerance * std::max(1.0, std::abs(expected));
}

// Without the Jacobian: lp is the weighted sum of the constrained value alone, each
// constrained entry is the bijector's, and the gradient is the weighted sum's. "" when all
// agree at every point.
std::string compare_without_jacobian(const Case& c,
                                     const std::vector<std::vector<double>>& points) {
  const int64_t dimension = vt::numel(unconstrained_shape(c));
  tape::ProgramBuilder builder(dimension);
  const tape::Slot x = tape::emit_constrain(builder, c.support, builder.parameters(), c.shape);
  vtest::add_weighted_sum(builder, x);
  const tape::Program program = std::move(builder).finish();
  tape::Work work = program.make_work();
  for (const std::vector<double>& q : points) {
    std::vector<double> gradient(q.size());
    const double lp = program.log_density(q.data(), gradient.data(), work, /*jacobian=*/false);

    at::AutoGradMode grad_mode(true);
    const at::Tensor theta = at::tensor(q, at::kDouble).requires_grad_(true);
    const at::Tensor constrained = torch_forward(c, theta);
    const at::Tensor expected = vtest::weighted_sum(constrained);
    std::ostringstream where;
    where.precision(17);
    where << " at theta = " << theta.detach() << ": ";
    if (!close(lp, expected.item<double>())) {
      std::ostringstream out;
      out.precision(17);
      out << "lp " << lp << ", LibTorch " << expected.item<double>();
      return out.str() + where.str();
    }
    const at::Tensor flat = constrained.detach().reshape(-1).contiguous();
    const double* got = program.value_at(work, x.offset);
    for (int64_t i = 0; i < flat.numel(); ++i) {
      if (!close(got[i], flat[i].item<double>())) {
        std::ostringstream out;
        out.precision(17);
        out << "x[" << i << "] " << got[i] << ", LibTorch " << flat[i].item<double>();
        return out.str() + where.str();
      }
    }
    if (dimension == 0) continue;
    const at::Tensor g =
        torch::autograd::grad({expected}, {theta}, {}, false, false, /*allow_unused=*/true)[0];
    const at::Tensor want = g.defined() ? g : at::zeros_like(theta);
    const double scale = std::max(1.0, want.abs().max().item<double>());
    for (int64_t i = 0; i < dimension; ++i) {
      if (!(std::abs(gradient[static_cast<size_t>(i)] - want[i].item<double>()) <=
            kTolerance * scale)) {
        std::ostringstream out;
        out.precision(17);
        out << "gradient[" << i << "] " << gradient[static_cast<size_t>(i)] << ", LibTorch "
            << want[i].item<double>();
        return out.str() + where.str();
      }
    }
  }
  return "";
}

template <typename Exception>
bool throws(const std::function<void()>& f) {
  try {
    f();
  } catch (const Exception&) {
    return true;
  }
  return false;
}

void add_case_rows() {
  QTest::addColumn<int>("index");
  const std::vector<Case>& cases = all_cases();
  for (size_t i = 0; i < cases.size(); ++i) {
    QTest::newRow(cases[i].label.c_str()) << static_cast<int>(i);
  }
}

}  // namespace

class TestTapeConstrain : public QObject {
  Q_OBJECT

 private slots:
  // Every kind a factory makes is either tested below or Unsupported on the tape.
  void everySupportWithABijectorHasACase() {
    std::set<Kind> made;
    std::set<Kind> tested;
    for (const Case& c : all_cases()) tested.insert(c.support.kind());
    for (const vt::Support& support : one_support_per_factory()) {
      made.insert(support.kind());
      const bool has_bijector =
          !throws<vt::ArgumentError>([&] { vt::bijectors::make_bijector(support); });
      if (has_bijector) {
        QVERIFY2(tested.count(support.kind()), ("no tape test for " + support.to_string()).c_str());
      } else {
        tape::ProgramBuilder builder(1);
        QVERIFY2(throws<tape::Unsupported>(
                     [&] { tape::emit_constrain(builder, support, builder.parameters(), {1}); }),
                 ("emit_constrain does not refuse " + support.to_string()).c_str());
      }
    }
    // The factories make every kind there is (the last enumerator closes the list).
    QCOMPARE(made.size(), static_cast<size_t>(Kind::IntegerInterval) + 1);
  }

  // The constrained value's weighted sum plus log|det J| (the tape's Jacobian sink).
  void matchesLibTorch_data() { add_case_rows(); }
  void matchesLibTorch() {
    QFETCH(int, index);
    const Case& c = all_cases()[static_cast<size_t>(index)];
    const int64_t dimension = vt::numel(unconstrained_shape(c));
    const auto build = [&](tape::ProgramBuilder& builder, const tape::Slot& theta) {
      vtest::add_weighted_sum(builder, tape::emit_constrain(builder, c.support, theta, c.shape));
    };
    const auto reference = [&](const at::Tensor& theta) {
      return vtest::weighted_sum(torch_forward(c, theta)) + torch_log_det(c, theta);
    };
    vtest::TapeComparison options;
    options.tolerance = kTolerance;
    options.fixed_points = edge_points(dimension);
    std::string error = vtest::compare_tape_to_torch(dimension, build, reference, options);
    QVERIFY2(error.empty(), error.c_str());
    // Wider random points: exp(y) over many orders of magnitude, sticks near 0 and 1.
    options.fixed_points.clear();
    options.scale = 6;
    options.seed = 3;
    error = vtest::compare_tape_to_torch(dimension, build, reference, options);
    QVERIFY2(error.empty(), error.c_str());
  }

  void withoutTheJacobianOnlyTheValue_data() { add_case_rows(); }
  void withoutTheJacobianOnlyTheValue() {
    QFETCH(int, index);
    const Case& c = all_cases()[static_cast<size_t>(index)];
    const int64_t dimension = vt::numel(unconstrained_shape(c));
    std::vector<std::vector<double>> points = edge_points(dimension);
    const std::vector<std::vector<double>> random = random_points(dimension, 3.0, 10);
    points.insert(points.end(), random.begin(), random.end());
    const std::string error = compare_without_jacobian(c, points);
    QVERIFY2(error.empty(), error.c_str());
  }

  // The Jacobian sink adds exactly the bijector's log|det J|: the difference of the two.
  void theJacobianTermIsTheLogDeterminant() {
    const Case c{"simplex [3, 4]", vt::Support::simplex(), {3, 4}};
    const int64_t dimension = vt::numel(unconstrained_shape(c));
    tape::ProgramBuilder builder(dimension);
    vtest::add_weighted_sum(
        builder, tape::emit_constrain(builder, c.support, builder.parameters(), c.shape));
    const tape::Program program = std::move(builder).finish();
    tape::Work work = program.make_work();
    for (const std::vector<double>& q : random_points(dimension, 2.0, 5)) {
      const double on = program.log_density(q.data(), nullptr, work, true);
      const double off = program.log_density(q.data(), nullptr, work, false);
      const double log_det = torch_log_det(c, at::tensor(q, at::kDouble)).item<double>();
      QVERIFY2(close(on - off, log_det),
               (std::to_string(on - off) + " vs " + std::to_string(log_det)).c_str());
    }
  }

  void realIsTheUnconstrainedSlotItself() {
    tape::ProgramBuilder builder(6);
    const tape::Slot theta = builder.parameters();
    const tape::Slot x = tape::emit_constrain(builder, vt::Support::real(), theta, {2, 3});
    QCOMPARE(x.offset, theta.offset);
    QCOMPARE(x.size, theta.size);
    QVERIFY(x.shape == (vt::Shape{2, 3}));
    QVERIFY(std::move(builder).finish().instructions().empty());
  }

  // One op and one sink marked `jacobian` per transform; values without unconstrained
  // entries (a simplex of one, a 1 x 1 factor) are data.
  void oneOpAndOneJacobianSink() {
    for (const Case& c : all_cases()) {
      if (c.support.kind() == Kind::Real) continue;
      tape::ProgramBuilder builder(vt::numel(unconstrained_shape(c)));
      const tape::Slot x = tape::emit_constrain(builder, c.support, builder.parameters(), c.shape);
      const tape::Program program = std::move(builder).finish();
      const auto& instructions = program.instructions();
      if (program.dimension() == 0) {
        QVERIFY2(!x.varying && instructions.empty(), c.label.c_str());
        continue;
      }
      QVERIFY2(x.varying && instructions.size() == 2, c.label.c_str());
      QVERIFY2(!instructions[0].sink && !instructions[0].jacobian && instructions[0].backward,
               c.label.c_str());
      QVERIFY2(instructions[1].sink && instructions[1].jacobian, c.label.c_str());
    }
  }

  void wrongSizeIsAnArgumentError() {
    tape::ProgramBuilder builder(4);
    QVERIFY(throws<vt::ArgumentError>(
        [&] { tape::emit_constrain(builder, vt::Support::simplex(), builder.parameters(), {4}); }));
    QVERIFY(throws<vt::ArgumentError>([&] {
      tape::emit_constrain(builder, vt::Support::positive(), builder.parameters(), {5});
    }));
    // Not a parameter: data has no unconstrained space.
    const tape::Slot data = builder.constant({4}, {1, 2, 3, 4});
    QVERIFY(throws<vt::ArgumentError>(
        [&] { tape::emit_constrain(builder, vt::Support::positive(), data, {4}); }));
  }

  // As on the LibTorch path: the bijector rejects lower >= upper.
  void emptyIntervalIsAnArgumentError() {
    tape::ProgramBuilder builder(1);
    const at::Tensor one = at::scalar_tensor(1.0, at::kDouble);
    QVERIFY(throws<vt::ArgumentError>([&] {
      tape::emit_constrain(builder, vt::Support::interval(one, one), builder.parameters(), {1});
    }));
  }

  // A bound that would broadcast the value to a larger shape has no meaning here.
  void boundsLargerThanTheValueAreUnsupported() {
    tape::ProgramBuilder builder(2);
    const vt::Support lower = vt::Support::lower_bounded(values({1, 2, 3}, {3}));
    QVERIFY(throws<tape::Unsupported>(
        [&] { tape::emit_constrain(builder, lower, builder.parameters(), {2}); }));
    const vt::Support wide = vt::Support::upper_bounded(values({1, 2}, {2, 1}));
    QVERIFY(throws<tape::Unsupported>(
        [&] { tape::emit_constrain(builder, wide, builder.parameters(), {2}); }));
  }
};

QTEST_APPLESS_MAIN(TestTapeConstrain)
#include "tst_tape_constrain.moc"
