// Model expressions as C++: operators and engine functions, 0-based indices, and the
// conversions that keep the language's arithmetic (real division, float64 where an integer
// array meets a real number); errors located at the offending subexpression.

#include <QtTest/QtTest>

#include "engine/codegen/cpp_expression.h"
#include "engine/model/model_error.h"
#include "engine/model/parser.h"

namespace cg = variate::codegen;
namespace vm = variate::model;

namespace {

// Names as a model function sees them: sizes are int64_t, data are tensors, `mu` is a
// random variable, `beta` a random variable held as a tensor (it is indexed).
const cg::Scope& scope() {
  static const cg::Scope names = {
      {"N", {"N", cg::Form::cpp_int, true, 0, 100}},
      {"K", {"K", cg::Form::cpp_int, true, 0, 100}},
      {"T", {"T", cg::Form::cpp_int, true, 0, 100}},
      {"x", {"d[\"x\"]", cg::Form::tensor, false, 1, 100}},
      {"k", {"d[\"k\"]", cg::Form::tensor, true, 1, 100}},
      {"X", {"d[\"X\"]", cg::Form::tensor, false, 2, 100}},
      {"county", {"d[\"county\"]", cg::Form::tensor, true, 1, 100}},
      {"first", {"d[\"first\"]", cg::Form::tensor, true, 0, 100}},
      {"G", {"d[\"G\"]", cg::Form::tensor, true, 2, 100}},
      {"beta", {"beta", cg::Form::tensor, false, 1, 100}},
      {"mu", {"mu", cg::Form::variable, false, 0, 100}},
      {"tau", {"tau", cg::Form::variable, false, 0, 100}},
  };
  return names;
}

vm::Expr parsed(const QString& text) {
  const std::string model = "z = " + text.toStdString() + "\n";
  const vm::Source source("e.vmod", model);
  auto result = vm::parse(source);
  if (!result.ok()) qFatal("%s", result.diagnostics.format(source).c_str());
  return result.program.statements.at(0).as<vm::Deterministic>()->value;
}

}  // namespace

class TestCppExpression : public QObject {
  Q_OBJECT

 private slots:
  void translates_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("cpp");
    QTest::addColumn<int>("rank");
    QTest::newRow("operators") << "mu + tau * x - 1" << "mu + tau * d[\"x\"] - 1" << 1;
    QTest::newRow("parentheses kept where needed") << "(mu - tau) * (x - (1 - mu))"
                                                   << "(mu - tau) * (d[\"x\"] - (1 - mu))" << 1;
    QTest::newRow("left associativity") << "mu - (tau - x)" << "mu - (tau - d[\"x\"])" << 1;
    QTest::newRow("integer division is real") << "1 / N" << "1.0 / N" << 0;
    QTest::newRow("sizes divided") << "N / K" << "static_cast<double>(N) / K" << 0;
    QTest::newRow("integer sizes stay integers") << "K * 2 + 1" << "K * 2 + 1" << 0;
    QTest::newRow("integer array over a real") << "k * 0.5" << "d[\"k\"].to(at::kDouble) * 0.5" << 1;
    QTest::newRow("integer array divided") << "k / 2" << "d[\"k\"].to(at::kDouble) / 2" << 1;
    QTest::newRow("size over an integer array") << "N / k" << "N / d[\"k\"].to(at::kDouble)" << 1;
    QTest::newRow("power") << "x ^ 2" << "vt::pow(d[\"x\"], 2)" << 1;
    QTest::newRow("negation of a power") << "-x ^ 2" << "-vt::pow(d[\"x\"], 2)" << 1;
    QTest::newRow("double negation") << "-(-mu)" << "-(-mu)" << 0;
    QTest::newRow("matrix times vector") << "X @ beta" << "vt::matmul(d[\"X\"], beta)" << 1;
    QTest::newRow("vector times vector") << "beta @ x" << "vt::dot(beta, d[\"x\"])" << 0;
    QTest::newRow("elementwise function") << "inv_logit(mu + x)" << "vt::inv_logit(mu + d[\"x\"])" << 1;
    QTest::newRow("reduction") << "sum(x) / N" << "vt::sum(d[\"x\"]) / N" << 0;
    QTest::newRow("eye") << "eye(N)" << "vt::eye(N)" << 2;
    QTest::newRow("lags") << "lags(x, K)" << "vt::lags(d[\"x\"], K)" << 2;
    QTest::newRow("gp covariance") << "gp_exp_quad_cov(x, mu, tau)"
                                   << "vt::gp_exp_quad_cov(d[\"x\"], mu, tau)" << 2;
    QTest::newRow("literal index") << "beta[1]" << "beta[0]" << 0;
    QTest::newRow("size index") << "beta[K]" << "beta[K - 1]" << 0;
    QTest::newRow("index from the data") << "beta[first]" << "beta[d[\"first\"].item<int64_t>() - 1]" << 0;
    QTest::newRow("two indices") << "X[2, K]" << "d[\"X\"][1][K - 1]" << 0;
    QTest::newRow("column") << "X[:, 2]" << "d[\"X\"].select(1, 1)" << 1;
    QTest::newRow("range of columns") << "X[:, 2:K]" << "d[\"X\"].slice(1, 1, K)" << 2;
    QTest::newRow("range from K + 1") << "x[(K + 1):T]" << "d[\"x\"].slice(0, K, T)" << 1;
    QTest::newRow("range from K + 2") << "x[(K + 2):T]" << "d[\"x\"].slice(0, K + 1, T)" << 1;
    QTest::newRow("integer array index") << "beta[county]" << "beta.index_select(0, d[\"county\"] - 1)" << 1;
    QTest::newRow("integer matrix index")
        << "beta[G]" << "beta.index_select(0, (d[\"G\"] - 1).reshape(-1)).unflatten(0, d[\"G\"].sizes())"
        << 2;
    QTest::newRow("random variable indexed") << "mu * beta[2]" << "mu * beta[1]" << 0;
  }

  void translates() {
    QFETCH(QString, expression);
    QFETCH(QString, cpp);
    QFETCH(int, rank);
    const cg::CppValue value = cg::ExpressionWriter(scope()).write(parsed(expression));
    QCOMPARE(QString::fromStdString(value.text), cpp);
    QCOMPARE(value.rank, int64_t{rank});
  }

  void types_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("form");
    QTest::addColumn<bool>("integer");
    QTest::newRow("size arithmetic") << "N - 1" << int(cg::Form::cpp_int) << true;
    QTest::newRow("real literal") << "2.5 * 2" << int(cg::Form::cpp_real) << false;
    QTest::newRow("integer array") << "k + 1" << int(cg::Form::tensor) << true;
    QTest::newRow("variable arithmetic") << "mu * 2" << int(cg::Form::tensor) << false;
    QTest::newRow("negated variable") << "-mu" << int(cg::Form::tensor) << false;
    QTest::newRow("variable itself") << "mu" << int(cg::Form::variable) << false;
  }

  void types() {
    QFETCH(QString, expression);
    QFETCH(int, form);
    QFETCH(bool, integer);
    const cg::CppValue value = cg::ExpressionWriter(scope()).write(parsed(expression));
    QCOMPARE(int(value.form), form);
    QCOMPARE(value.integer, integer);
  }

  void errors_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("column");  // 0-based, in the expression
    QTest::newRow("unknown name") << "mu + theta" << "'theta' has no value here" << 5;
    QTest::newRow("matmul of a scalar") << "mu @ x" << "'@' multiplies matrices and vectors" << 0;
    QTest::newRow("real index") << "beta[x]" << "indices must be integers from the data" << 5;
    QTest::newRow("real size") << "eye(mu)" << "must be an integer known from the data" << 4;
    QTest::newRow("too many indices") << "beta[1, 2]" << "has 1 dimension(s) but is indexed with 2" << 0;
    QTest::newRow("arity") << "exp(x, x)" << "exp takes 1 argument, got 2" << 0;
  }

  void errors() {
    QFETCH(QString, expression);
    QFETCH(QString, message);
    QFETCH(int, column);
    try {
      cg::ExpressionWriter(scope()).write(parsed(expression));
      QFAIL("expected an error");
    } catch (const vm::ModelError& e) {
      QVERIFY2(QString(e.what()).contains(message), e.what());
      QCOMPARE(e.span().begin, size_t(4 + column));
    }
  }
};

QTEST_APPLESS_MAIN(TestCppExpression)
#include "tst_cpp_expression.moc"
