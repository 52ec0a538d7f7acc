// The language additions of issue 19: vector literals, comparisons and logical operators
// with `c ? a : b`, log_sum_exp / log_sum_exp_rows / softmax / cumulative_sum / transpose,
// recurrences (`s[1] = ...` then `s[t] = ... for t in 2:T`), truncations (`T[lo, hi]`)
// and `target += expr`: how they parse and print, what they compute (against naive
// formulas), that gradients flow through them, and the located error for each misuse.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"
#include "engine/model/rename.h"

namespace vm = variate::model;

namespace {

const char* kData =
    R"({"N": 3, "x": [1, 2, 3], "z": [1, 2, 3, 4], "X": [[1, 2, 3], [4, 5, 6], [7, 8, 9]],)"
    R"( "y": [0.5, 1, 3], "one": 1})";

vm::CompileResult compile_text(const std::string& text, const char* data = kData) {
  const variate::Data bound = variate::io::parse_json_data(data, "d.json");
  return vm::compile_model(vm::Source("m.vmod", text), &bound);
}

// The first line of the first error.
QString first_error(const vm::CompileResult& result) {
  return QString::fromStdString(result.report()).section('\n', 0, 0);
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor flat = t.to(at::kDouble).contiguous().reshape(-1);
  return std::vector<double>(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
}

double normal_lpdf(double y, double mu, double sigma) {
  const double z = (y - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}

double normal_cdf(double x, double mu, double sigma) { return 0.5 * std::erfc(-(x - mu) / (sigma * std::sqrt(2.0))); }

// Every new construct, for the round trip through the printer.
const char* kEveryConstruct = R"(data N: int
data y: real[N]
data lo: real

a ~ Normal(0, 1) T[-1, 2]
b ~ Exponential(1) T[, 3]
c ~ Logistic(0, 1) T[lo, ]
v = [a, b, 1 - a]
M = [v, v]
pick = a < b && !(b >= 2) || a == b ? a : -b
nested = (a != b ? 1 : 0) ? a <= b : a > b ? 1 : 2
s[1] = a
s[2] = s[1] * 2
s[t] = s[t - 1] * 0.5 + s[t - 2] + y[t] for t in 3:N
rows[1] = v
rows[t] = log_sum_exp_rows(transpose(M) + rows[t - 1][1]) for t in (1 + 1):N
y ~ Normal(s, 1) T[lo, ]
target += log_sum_exp(softmax(v)) + sum(cumulative_sum(v))
target += -square(a)
)";

}  // namespace

class TestLanguageAdditions : public QObject {
  Q_OBJECT

 private slots:
  void printerRoundTripsEveryConstruct() {
    const vm::Source source("m.vmod", kEveryConstruct);
    const auto parsed = vm::parse(source);
    QVERIFY2(parsed.ok(), parsed.diagnostics.format(source).c_str());
    const std::string printed = vm::to_string(parsed.program);
    QCOMPARE(QString::fromStdString(printed), QString::fromStdString(kEveryConstruct));
    const vm::Source again("again.vmod", printed);
    const auto reparsed = vm::parse(again);
    QVERIFY(reparsed.ok());
    QVERIFY(vm::structurally_equal(parsed.program, reparsed.program));
  }

  void precedenceOfTheNewOperators_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    // Looser than '+': comparisons, then ==/!=, &&, ||, and ?: loosest (as Stan and C).
    QTest::newRow("comparison below arithmetic") << "a + 1 < b * 2" << "a + 1 < b * 2";
    QTest::newRow("equality below comparison") << "(a < b) == (c > d)" << "a < b == c > d";
    QTest::newRow("comparison inside equality keeps parentheses") << "a < (b == c)" << "a < (b == c)";
    QTest::newRow("and below equality") << "(a == b) && (c != d)" << "a == b && c != d";
    QTest::newRow("or below and") << "a || (b && c)" << "a || b && c";
    QTest::newRow("and of an or keeps parentheses") << "(a || b) && c" << "(a || b) && c";
    QTest::newRow("not binds tight") << "!a + b" << "!a + b";
    QTest::newRow("not of a sum") << "!(a + b)" << "!(a + b)";
    QTest::newRow("minus of a comparison") << "-(a < b)" << "-(a < b)";
    QTest::newRow("conditional is right-associative") << "a ? b : (c ? d : e)" << "a ? b : c ? d : e";
    QTest::newRow("conditional as a condition") << "(a ? b : c) ? d : e" << "(a ? b : c) ? d : e";
    QTest::newRow("conditional inside a sum") << "1 + (a ? b : c)" << "1 + (a ? b : c)";
    QTest::newRow("conditional in an index") << "x[a > 0 ? 1 : 2]" << "x[a > 0 ? 1 : 2]";
    QTest::newRow("vector literal indexed") << "[a, b][2]" << "[a, b][2]";
    QTest::newRow("matrix literal") << "[[1, 2], [3, 4]]" << "[[1, 2], [3, 4]]";
  }
  void precedenceOfTheNewOperators() {
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    const vm::Source source("m.vmod", "q = " + text.toStdString() + "\n");
    const auto parsed = vm::parse(source);
    QVERIFY2(parsed.ok(), parsed.diagnostics.format(source).c_str());
    const auto& value = parsed.program.statements.at(0).as<vm::Deterministic>()->value;
    QCOMPARE(QString::fromStdString(vm::to_string(value)), canonical);
  }

  void treeShapeOfAConditional() {
    const vm::Source source("m.vmod", "q = a < b && c || d ? e : f\n");
    const auto parsed = vm::parse(source);
    QVERIFY(parsed.ok());
    const vm::Expr& e = parsed.program.statements.at(0).as<vm::Deterministic>()->value;
    QCOMPARE(e.kind, vm::ExprKind::conditional);
    QCOMPARE(e.operands[0].op, vm::BinaryOp::logical_or);
    QCOMPARE(e.operands[0].operands[0].op, vm::BinaryOp::logical_and);
    QCOMPARE(e.operands[0].operands[0].operands[0].op, vm::BinaryOp::less);
  }

  void valuesOfTheNewExpressions_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("vector literal") << "[x[1], 2.5, 1 - x[3]]" << QList<double>{1, 2.5, -2};
    QTest::newRow("matrix literal by rows") << "[x, 2 * x]" << QList<double>{1, 2, 3, 2, 4, 6};
    QTest::newRow("less") << "x < 2" << QList<double>{1, 0, 0};
    QTest::newRow("less or equal") << "x <= 2" << QList<double>{1, 1, 0};
    QTest::newRow("greater") << "x > 2" << QList<double>{0, 0, 1};
    QTest::newRow("greater or equal") << "x >= 2" << QList<double>{0, 1, 1};
    QTest::newRow("equal") << "x == 2" << QList<double>{0, 1, 0};
    QTest::newRow("not equal") << "x != 2" << QList<double>{1, 0, 1};
    QTest::newRow("and") << "(x > 1) && (x < 3)" << QList<double>{0, 1, 0};
    QTest::newRow("or") << "(x < 2) || (x > 2)" << QList<double>{1, 0, 1};
    QTest::newRow("not") << "!(x == 2)" << QList<double>{1, 0, 1};
    QTest::newRow("conditional elementwise") << "x > 1 ? 10 * x : -x" << QList<double>{-1, 20, 30};
    QTest::newRow("conditional on a scalar") << "N == 3 ? x : 0" << QList<double>{1, 2, 3};
    QTest::newRow("log_sum_exp") << "log_sum_exp(x)" << QList<double>{std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0))};
    QTest::newRow("log_sum_exp of large terms") << "log_sum_exp([1000, 1000])" << QList<double>{1000 + std::log(2.0)};
    QTest::newRow("log_sum_exp of a matrix") << "log_sum_exp(X)" << QList<double>{[] {
      double s = 0;
      for (int i = 1; i <= 9; ++i) s += std::exp(i);
      return std::log(s);
    }()};
    QTest::newRow("log_sum_exp_rows") << "log_sum_exp_rows([[0, 0], [1, 2]])"
                                      << QList<double>{std::log(2.0), std::log(std::exp(1.0) + std::exp(2.0))};
    const double total = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    QTest::newRow("softmax") << "softmax(x)" << QList<double>{std::exp(1.0) / total, std::exp(2.0) / total, std::exp(3.0) / total};
    QTest::newRow("cumulative_sum") << "cumulative_sum(x)" << QList<double>{1, 3, 6};
    QTest::newRow("transpose") << "transpose([[1, 2, 3], [4, 5, 6]])" << QList<double>{1, 4, 2, 5, 3, 6};
  }
  void valuesOfTheNewExpressions() {
    QFETCH(QString, expression);
    QFETCH(QList<double>, expected);
    const auto result = compile_text("data N: int\ndata x: real[N]\ndata X: real[N, N]\nq = " +
                                     expression.toStdString() + "\nm ~ Normal(0, 1)\n");
    QVERIFY2(result.ok(), result.report().c_str());
    const std::vector<double> got = values_of(result.model->data_values().at("q").tensor);
    QCOMPARE(static_cast<int>(got.size()), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      QVERIFY2(std::abs(got[i] - expected[i]) <= 1e-12 * std::max(1.0, std::abs(expected[i])),
               qPrintable(QString("element %1: %2, expected %3").arg(i).arg(got[i]).arg(expected[i])));
    }
  }

  void recurrenceOfDataIsComputedOnce() {
    const auto result = compile_text(
        "data N: int\ndata x: real[N]\ns[1] = 1\ns[2] = 1\ns[t] = s[t - 1] + s[t - 2] + x[t] for t in 3:N\n"
        "r[1] = x\nr[t] = r[t - 1] * 2 for t in 2:N\nm ~ Normal(0, 1)\n");
    QVERIFY2(result.ok(), result.report().c_str());
    QCOMPARE(values_of(result.model->data_values().at("s").tensor), (std::vector<double>{1, 1, 5}));
    // Rows of a matrix: row t is twice row t - 1.
    QCOMPARE(values_of(result.model->data_values().at("r").tensor), (std::vector<double>{1, 2, 3, 2, 4, 6, 4, 8, 12}));
    QCOMPARE(result.checked->find("s")->kind, vm::NodeKind::transformed_data);
  }

  // ARMA(1, 1)'s prediction recurrence: its log density against a loop written out here,
  // and its gradient (autograd through the stacked elements) against central differences.
  void gradientsFlowThroughARecurrence() {
    const auto result = compile_text(
        "data N: int\ndata y: real[N]\nmu ~ Normal(0, 10)\nphi ~ Normal(0, 2)\ntheta ~ Normal(0, 2)\n"
        "nu[1] = mu + phi * mu\nnu[t] = mu + phi * y[t - 1] + theta * (y[t - 1] - nu[t - 1]) for t in 2:N\n"
        "y ~ Normal(nu, 1)\n");
    QVERIFY2(result.ok(), result.report().c_str());
    QCOMPARE(result.checked->find("nu")->kind, vm::NodeKind::derived);
    const double mu = 0.3, phi = -0.4, theta = 0.7;
    const double y[] = {0.5, 1, 3};
    double expected = normal_lpdf(mu, 0, 10) + normal_lpdf(phi, 0, 2) + normal_lpdf(theta, 0, 2);
    double nu = mu + phi * mu;
    expected += normal_lpdf(y[0], nu, 1);
    for (int t = 1; t < 3; ++t) {
      nu = mu + phi * y[t - 1] + theta * (y[t - 1] - nu);
      expected += normal_lpdf(y[t], nu, 1);
    }
    const variate::ValueMap values = {{"mu", at::scalar_tensor(mu, at::kDouble)},
                                      {"phi", at::scalar_tensor(phi, at::kDouble)},
                                      {"theta", at::scalar_tensor(theta, at::kDouble)}};
    QVERIFY(std::abs(result.model->log_joint()(values).item<double>() - expected) <= 1e-12 * std::abs(expected));

    const auto target = result.model->target();
    const at::Tensor point = at::tensor({0.3, -0.4, 0.7}, at::kDouble);
    const auto [lp, gradient] = target.log_density_and_gradient(point);
    for (int64_t i = 0; i < 3; ++i) {
      const double h = 1e-6;
      at::Tensor up = point.clone(), down = point.clone();
      up[i] += h;
      down[i] -= h;
      const double numeric = (target.log_density(up).item<double>() - target.log_density(down).item<double>()) / (2 * h);
      QVERIFY2(std::abs(gradient[i].item<double>() - numeric) <= 1e-6 * std::max(1.0, std::abs(numeric)),
               qPrintable(QString("d/d%1: %2 vs %3").arg(i).arg(gradient[i].item<double>()).arg(numeric)));
    }
    // A batch of points gives each point's density.
    const at::Tensor batch = at::stack({point, point * 0.5});
    const at::Tensor lps = target.log_density(batch);
    QVERIFY(std::abs(lps[0].item<double>() - lp.item<double>()) <= 1e-10);
    QVERIFY(std::abs(lps[1].item<double>() - target.log_density(point * 0.5).item<double>()) <= 1e-10);
  }

  // y ~ Normal(mu, 2) T[-1, 3]: each term is the density over the mass on [-1, 3].
  void observedTruncationDividesByTheMass() {
    const auto result = compile_text("data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\ny ~ Normal(mu, 2) T[-1, 3]\n");
    QVERIFY2(result.ok(), result.report().c_str());
    const double mu = 0.4;
    const double mass = normal_cdf(3, mu, 2) - normal_cdf(-1, mu, 2);
    double expected = normal_lpdf(mu, 0, 1);
    for (double y : {0.5, 1.0, 3.0}) expected += normal_lpdf(y, mu, 2) - std::log(mass);
    const double got = result.model->log_joint()({{"mu", at::scalar_tensor(mu, at::kDouble)}}).item<double>();
    QVERIFY2(std::abs(got - expected) <= 1e-10, qPrintable(QString("%1 vs %2").arg(got, 0, 'g', 15).arg(expected, 0, 'g', 15)));
  }

  // A latent truncated below at 0 lives on (0, inf) and has the half-normal's density.
  void latentTruncationSetsTheSupport() {
    const auto result = compile_text("a ~ Normal(0, 1) T[0, ]\nb ~ Cauchy(0, 1) T[-1, 1]\n", "{}");
    QVERIFY2(result.ok(), result.report().c_str());
    const auto& layout = result.model->layout();
    const at::Tensor theta = at::tensor({-3.0, 4.0}, at::kDouble);
    const auto constrained = layout.constrain(theta).values;
    const double a = constrained.at("a").item<double>();
    const double b = constrained.at("b").item<double>();
    QVERIFY(a > 0);
    QVERIFY(b > -1 && b < 1);
    const double expected = normal_lpdf(a, 0, 1) + std::log(2.0) - std::log(M_PI * (1 + b * b)) - std::log(0.5);
    const double got = result.model->log_joint()(constrained).item<double>();
    QVERIFY2(std::abs(got - expected) <= 1e-10, qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
  }

  // `target += expr` adds the sum of expr; a term of data only adds a constant.
  void targetAddsItsSum() {
    const auto result = compile_text("data x: real[3]\nmu ~ Normal(0, 1)\ntarget += -square(x - mu)\ntarget += 2\n");
    QVERIFY2(result.ok(), result.report().c_str());
    QCOMPARE(result.checked->find("target[1]")->kind, vm::NodeKind::log_density);
    const double mu = 0.25;
    double expected = normal_lpdf(mu, 0, 1) + 2;
    for (double x : {1.0, 2.0, 3.0}) expected -= (x - mu) * (x - mu);
    const double got = result.model->log_joint()({{"mu", at::scalar_tensor(mu, at::kDouble)}}).item<double>();
    QVERIFY(std::abs(got - expected) <= 1e-12 * std::abs(expected));
    QCOMPARE(result.model->layout().dimension(), int64_t{1});
  }

  // Renaming a node (the canvas's edit) reaches its uses in the new statements.
  void renameReachesTheNewStatements() {
    const vm::Source source("m.vmod", "data N: int\ndata y: real[N]\nmu ~ Normal(0, 1)\ns[1] = mu\n"
                                      "s[t] = s[t - 1] + y[t] for t in 2:N\ny ~ Normal(s, 1) T[mu - 5, ]\n"
                                      "target += -square(mu)\n");
    auto parsed = vm::parse(source);
    QVERIFY(parsed.ok());
    vm::rename_node(parsed.program, "mu", "m");
    vm::rename_node(parsed.program, "s", "level");
    vm::rename_node(parsed.program, "N", "T");
    QCOMPARE(QString::fromStdString(vm::to_string(parsed.program)),
             QString("data T: int\ndata y: real[T]\nm ~ Normal(0, 1)\nlevel[1] = m\n"
                     "level[t] = level[t - 1] + y[t] for t in 2:T\ny ~ Normal(level, 1) T[m - 5, ]\n"
                     "target += -square(m)\n"));
  }

  void errors_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("expected");
    const QString header = "data N: int\ndata x: real[N]\ndata z: real[4]\ndata X: real[N, N]\n";  // 4 lines
    // Vector literals.
    QTest::newRow("vector of mixed items") << header + "v = [1, x]\n"
        << "m.vmod:5:9: error: the items of a vector have one shape: item 1 has shape [] but item 2 ('x') has shape [3]";
    QTest::newRow("vector of unequal rows") << header + "v = [x, z]\n"
        << "m.vmod:5:9: error: the items of a vector have one shape: item 1 has shape [3] but item 2 ('z') has shape [4]";
    QTest::newRow("vector of matrices") << header + "v = [X, X]\n"
        << "m.vmod:5:6: error: a vector's items are scalars, or vectors for the rows of a matrix; 'X' has shape [3, 3]";
    QTest::newRow("unclosed vector") << header + "v = [1, 2\n"
        << "m.vmod:5:5: error: '[' was never closed";
    // Comparisons, logic and the conditional.
    QTest::newRow("vector compared with a matrix") << header + "c = x < X\n"
        << "m.vmod:5:5: error: '<' needs operands of one shape (or a scalar), got shapes [3] and [3, 3] in 'x < X'";
    QTest::newRow("vectors of different lengths") << header + "c = x == z\n"
        << "m.vmod:5:5: error: '==' needs operands of one shape (or a scalar), got shapes [3] and [4] in 'x == z'";
    QTest::newRow("conditional branches that do not broadcast") << header + "c = x > 1 ? x : z\n"
        << "m.vmod:5:5: error: shapes [3], [3] and [4] do not broadcast in 'x > 1 ? x : z'";
    QTest::newRow("conditional without else") << header + "c = x > 1 ? x\n"
        << "m.vmod:5:14: error: expected ':' after the first branch of '?', got end of line";
    QTest::newRow("single ampersand") << header + "c = x & x\n"
        << "m.vmod:5:7: error: unexpected character '&'";
    // Functions.
    QTest::newRow("log_sum_exp arity") << header + "s = log_sum_exp(x, x)\n"
        << "m.vmod:5:5: error: log_sum_exp takes 1 argument, got 2";
    QTest::newRow("log_sum_exp_rows of a vector") << header + "s = log_sum_exp_rows(x)\n"
        << "m.vmod:5:22: error: log_sum_exp_rows: argument 1 must be a matrix, got shape [3]";
    QTest::newRow("softmax of a matrix") << header + "s = softmax(X)\n"
        << "m.vmod:5:13: error: softmax: argument 1 must be a vector, got shape [3, 3]";
    QTest::newRow("cumulative_sum of a scalar") << header + "s = cumulative_sum(N)\n"
        << "m.vmod:5:20: error: cumulative_sum: argument 1 must be a vector, got shape []";
    // Recurrences.
    QTest::newRow("step reads its own element") << header + "s[1] = 0\ns[t] = s[t] + 1 for t in 2:N\n"
        << "m.vmod:6:8: error: the step of 's' may read only earlier elements, as in 's[t - 1]'; got 's[t]'";
    QTest::newRow("step reads a later element") << header + "s[1] = 0\ns[t] = s[t + 1] for t in 2:N\n"
        << "m.vmod:6:8: error: the step of 's' may read only earlier elements, as in 's[t - 1]'; got 's[t + 1]'";
    QTest::newRow("step reads before the first element") << header + "s[1] = 0\ns[t] = s[t - 2] for t in 2:N\n"
        << "m.vmod:6:8: error: 's[t - 2]' reads before the first element when t = 2: the step may read back at most 1 (the number of initial elements)";
    QTest::newRow("step reads the whole node") << header + "s[1] = 0\ns[t] = sum(s) for t in 2:N\n"
        << "m.vmod:6:12: error: 's' is read whole inside its own definition; read an earlier element, as in 's[t - 1]'";
    QTest::newRow("initial element reads itself") << header + "s[1] = s[1]\ns[t] = s[t - 1] for t in 2:N\n"
        << "m.vmod:5:8: error: 's[1]' may read only earlier elements of 's'; got 's[1]'";
    QTest::newRow("missing initial element") << header + "s[t] = s[t - 1] + 1 for t in 2:N\n"
        << "m.vmod:5:1: error: the recurrence 's' has no initial element: give 's[1] = ...' before its step";
    QTest::newRow("missing step") << header + "s[1] = 0\n"
        << "m.vmod:5:1: error: 's' has initial elements but no step, such as 's[t] = ... for t in 2:T'";
    QTest::newRow("initial elements out of order") << header + "s[2] = 0\ns[t] = s[t - 1] for t in 2:N\n"
        << "m.vmod:5:3: error: the initial elements of 's' are numbered 1, 2, ... in order: expected 's[1]', got 's[2]'";
    QTest::newRow("range not right after the initial elements") << header + "s[1] = 0\ns[t] = s[t - 1] for t in 3:N\n"
        << "m.vmod:6:26: error: the range of 't' must start right after the initial elements of 's': expected 2, got '3'";
    QTest::newRow("step not indexed by its variable") << header + "s[1] = 0\ns[2] = s[1] for t in 2:N\n"
        << "m.vmod:6:3: error: the step of 's' defines 's[t]', indexed by its variable 't'; got 's[2]'";
    QTest::newRow("index variable used outside") << header + "s[1] = 0\ns[t] = s[t - 1] for t in 2:N\nu = t\n"
        << "m.vmod:7:5: error: undefined name 't'; 't' is the index of the step of 's' (line 6) and known only there";
    QTest::newRow("two steps") << header + "s[1] = 0\ns[t] = s[t - 1] for t in 2:N\ns[u] = s[u - 1] for u in 2:N\n"
        << "m.vmod:7:1: error: 's' already has a step (line 6)";
    QTest::newRow("initial element after the step") << header + "s[1] = 0\ns[t] = s[t - 1] for t in 2:N\ns[2] = 1\n"
        << "m.vmod:7:1: error: the initial elements of 's' come before its step (line 6)";
    QTest::newRow("index variable that is a model name") << header + "s[1] = 0\ns[N] = s[N - 1] for N in 2:N\n"
        << "m.vmod:6:21: error: the index 'N' is also a name in the model; choose another";
    QTest::newRow("recurrence also defined with =") << header + "s = 1\ns[1] = 0\ns[t] = s[t - 1] for t in 2:N\n"
        << "m.vmod:6:1: error: 's' is defined with '=' (line 5) and also defined element by element; rename one of them";
    QTest::newRow("range that ends before it starts") << header + "s[1] = 0\ns[2] = 0\ns[3] = 0\ns[4] = 0\ns[t] = s[t - 1] for t in 5:N\n"
        << "m.vmod:9:28: error: the range 5:3 of 't' ends before it starts; its end must be at least 4 (the number of initial elements)";
    QTest::newRow("elements of different shapes") << header + "s[1] = 0\ns[t] = x + s[t - 1] for t in 2:N\n"
        << "m.vmod:6:8: error: element 2 of 's' has shape [3] but element 1 has shape []";
    QTest::newRow("range without colon") << header + "s[1] = 0\ns[t] = s[t - 1] for t in 2\n"
        << "m.vmod:6:27: error: expected ':' in the range of 't', as in 2:T, got end of line";
    QTest::newRow("for without in") << header + "s[1] = 0\ns[t] = s[t - 1] for t 2:N\n"
        << "m.vmod:6:23: error: expected 'in' after 'for t', got '2'";
    // Truncation.
    QTest::newRow("family without a CDF") << header + "a ~ Gamma(2, 2) T[0, 1]\n"
        << "m.vmod:5:17: error: Gamma cannot be truncated: it has no cumulative distribution function here (truncatable: Cauchy, Exponential, Logistic, Normal)";
    QTest::newRow("multivariate family") << header + "a ~ Dirichlet(x) T[0, 1]\n"
        << "m.vmod:5:18: error: Dirichlet cannot be truncated: it has no cumulative distribution function here (truncatable: Cauchy, Exponential, Logistic, Normal)";
    QTest::newRow("truncation without bounds") << header + "a ~ Normal(0, 1) T[, ]\n"
        << "m.vmod:5:18: error: a truncation needs a bound: T[lo, hi], T[lo, ] or T[, hi]";
    QTest::newRow("truncation without comma") << header + "a ~ Normal(0, 1) T[1]\n"
        << "m.vmod:5:21: error: expected ',' in the truncation T[lo, hi] (T[lo, ] or T[, hi] for one bound), got ']'";
    QTest::newRow("truncation bound of wrong shape") << header + "a ~ Normal(0, 1) T[x, ]\n"
        << "m.vmod:5:20: error: the truncation bound 'x' has shape [3], more dimensions than the arguments of Normal (shape [])";
    QTest::newRow("bounds in the wrong order") << header + "a ~ Normal(0, 1) T[2, 1]\n"
        << "m.vmod:5:18: error: the truncation's lower bound must be below its upper bound";
    QTest::newRow("constraint and truncation") << header + "a: ordered[N] ~ Normal(0, 1) T[0, ]\n"
        << "m.vmod:5:30: error: 'a' has both a constraint type and a truncation; the truncation sets its support";
    QTest::newRow("observed data outside the interval") << "data N: int\ndata x: real[N]\nx ~ Normal(0, 1) T[0, 2]\n"
        << "m.vmod:3:1: error: data 'x' is outside the support of Normal (interval(0, 2)): got 3.0 (element 3, 1-based, counting row by row)";
    // Names the draws' files use for the sampler's own columns.
    QTest::newRow("a parameter named lp__") << "lp__ ~ Normal(0, 1)\n"
        << "m.vmod:1:1: error: 'lp__' ends in '__', which names the sampler's own columns (lp__, energy__, ...); rename it";
    QTest::newRow("a derived value named energy__") << "a ~ Normal(0, 1)\nenergy__ = 2 * a\n"
        << "m.vmod:2:1: error: 'energy__' ends in '__', which names the sampler's own columns (lp__, energy__, ...); rename it";
    QTest::newRow("an error after a byte order mark") << "\xEF\xBB\xBF" "a ~ Normal(0, s)\n"
        << "m.vmod:1:15: error: undefined name 's'; did you mean 'a'?";
    // `NAME: real<lower=L, upper=U>`, a parameter flat on its bounds.
    QTest::newRow("a bounded parameter with a distribution") << "a: real<lower=0> ~ Normal(0, 1)\n"
        << "m.vmod:1:18: error: a parameter declared 'real' is flat on its bounds (Stan's `real<lower=L, upper=U>`) "
           "and takes no '~'; for a prior within bounds write `a ~ Dist(...) T[L, U]`";
    QTest::newRow("bounds in the wrong order") << "a: real<lower=1, upper=0>\n"
        << "m.vmod:1:4: error: the lower bound of 'a' must be below its upper bound";
    QTest::newRow("a bound larger than the parameter") << "data N: int\ndata x: real[N]\na: real<lower=x>\n"
        << "m.vmod:3:15: error: the bound 'x' has shape [3], which does not fit 'a' of shape []; give 'a' sizes, as in "
           "a: real<...>[K]";
    QTest::newRow("a bounded parameter that is data") << "data a: real\na: real<lower=0>\n"
        << "m.vmod:2:4: error: 'a' is data, so it cannot be declared a parameter with `a: real<...>`; declare its bounds as "
           "`data a: real<lower=L, upper=U>`";
    QTest::newRow("data named n__") << "data n__: int\na ~ Normal(0, 1)\n"
        << "m.vmod:1:6: error: 'n__' ends in '__', which names the sampler's own columns (lp__, energy__, ...); rename it";
    // target +=.
    QTest::newRow("target += without a value") << header + "target +=\n"
        << "m.vmod:5:10: error: expected an expression after '+=', got end of line";
    QTest::newRow("target += of a distribution") << header + "target += Normal(0, 1)\n"
        << "m.vmod:5:11: error: 'Normal' is a distribution; distributions follow '~' (or are the component of a Mixture)";
  }
  void errors() {
    QFETCH(QString, model);
    QFETCH(QString, expected);
    const auto result = compile_text(model.toStdString());
    QVERIFY(!result.ok());
    QCOMPARE(first_error(result), expected);
  }
};

QTEST_APPLESS_MAIN(TestLanguageAdditions)
#include "tst_language_additions.moc"
