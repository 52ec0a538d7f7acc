// Parser: the reference models, precedence, calls, indexing, comments, spans, and errors
// (every error in a file, located and worded as a compiler would, on hostile input too).

#include <random>

#include <QtTest/QtTest>

#include "engine/model/parser.h"
#include "engine/model/printer.h"

using variate::model::BaseType;
using variate::model::Constraint;
using variate::model::DataDecl;
using variate::model::Deterministic;
using variate::model::Expr;
using variate::model::ExprKind;
using variate::model::ParseResult;
using variate::model::RandomStmt;
using variate::model::Source;
using variate::model::Statement;
using variate::model::StatementKind;

namespace {

ParseResult parse_text(const std::string& text, const Source** keep = nullptr) {
  static std::vector<std::unique_ptr<Source>> sources;  // diagnostics are formatted later
  sources.push_back(std::make_unique<Source>("m.vmod", text));
  if (keep) *keep = sources.back().get();
  return variate::model::parse(*sources.back());
}

QStringList messages(const Source& source, const ParseResult& result) {
  QStringList out;
  for (const auto& diagnostic : result.diagnostics) {
    out << QString::fromStdString(variate::model::format(source, diagnostic)).section('\n', 0, 0);
  }
  return out;
}

// Every operation in parentheses, so the tree shape is visible: "(a + (b * c))".
QString grouped(const Expr& e) {
  const auto list = [](const std::vector<Expr>& items, std::size_t first) {
    QStringList parts;
    for (std::size_t i = first; i < items.size(); ++i) parts << grouped(items[i]);
    return parts.join(", ");
  };
  switch (e.kind) {
    case ExprKind::number:
      return QString::fromStdString(variate::model::format_number(e.value, e.is_integer));
    case ExprKind::name: return QString::fromStdString(e.name);
    case ExprKind::negate: return "(-" + grouped(e.operands[0]) + ")";
    case ExprKind::binary:
      return "(" + grouped(e.operands[0]) + " " + variate::model::binary_op_text(e.op) + " " +
             grouped(e.operands[1]) + ")";
    case ExprKind::call: {
      QStringList parts;
      for (const auto& argument : e.arguments) {
        parts << (argument.is_named() ? QString::fromStdString(argument.name) + "=" : QString()) +
                     grouped(argument.value);
      }
      return QString::fromStdString(e.name) + "(" + parts.join(", ") + ")";
    }
    case ExprKind::index: return grouped(e.operands[0]) + "[" + list(e.operands, 1) + "]";
    case ExprKind::full_slice: return ":";
    case ExprKind::range: return "{" + grouped(e.operands[0]) + ":" + grouped(e.operands[1]) + "}";
    case ExprKind::density:
      return grouped(e.operands[0]) + "." + QString::fromStdString(e.name) + "(" + grouped(e.operands[1]) + ")";
  }
  return "?";
}

// "data y:real[1]", "~beta[1]:Normal", "=theta", "~x:ordered[1]:Normal".
QString summary(const Statement& statement) {
  const QString name = QString::fromStdString(statement.name());
  if (const auto* data = statement.as<DataDecl>()) {
    QString text = "data " + name + ":" + variate::model::base_type_name(data->type);
    if (!data->dims.empty()) text += QString("[%1]").arg(data->dims.size());
    return text;
  }
  if (const auto* random = statement.as<RandomStmt>()) {
    QString text = "~" + name;
    if (!random->dims.empty()) text += QString("[%1]").arg(random->dims.size());
    if (random->constraint != Constraint::none) {
      text += QString(":%1[%2]")
                  .arg(variate::model::constraint_name(random->constraint))
                  .arg(random->constraint_dims.size());
    }
    return text + ":" + QString::fromStdString(random->distribution.name);
  }
  return "=" + name;
}

QString summary(const ParseResult& result) {
  QStringList parts;
  for (const Statement& statement : result.program.statements) parts << summary(statement);
  return parts.join(", ");
}

const Expr& value_of(const ParseResult& result, std::size_t i = 0) {
  return std::get<Deterministic>(result.program.statements.at(i).node).value;
}

QString reference_path(const QString& folder) {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + folder + "/model.vmod";
}

}  // namespace

class TestParser : public QObject {
  Q_OBJECT

 private slots:
  void referenceModelsParse_data() {
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("expected");
    QTest::newRow("arK") << "arK-arK"
                         << "data K:int, data T:int, data y:real[1], =y_lagged, =y_target, "
                            "~alpha:Normal, ~beta[1]:Normal, ~sigma:HalfCauchy, ~y_target:Normal";
    QTest::newRow("diamonds") << "diamonds-diamonds"
                              << "data N:int, data K:int, data Y:real[1], data X:real[2], "
                                 "data prior_only:int, =means_X, =Xc, ~b[1]:Normal, "
                                 "~Intercept:StudentT, ~sigma:HalfStudentT, ~Y:Normal, =b_Intercept";
    QTest::newRow("earnings") << "earnings-logearn_interaction"
                              << "data N:int, data earn:real[1], data height:real[1], "
                                 "data male:real[1], =log_earn, =inter, ~beta[1]:Flat, "
                                 "~sigma:HalfFlat, ~log_earn:Normal";
    QTest::newRow("eight schools") << "eight_schools-eight_schools_noncentered"
                                   << "data J:int, data y:real[1], data sigma:real[1], ~mu:Normal, "
                                      "~tau:HalfCauchy, ~theta_trans[1]:Normal, =theta, ~y:Normal";
    QTest::newRow("gp_pois_regr") << "gp_pois_regr-gp_pois_regr"
                                  << "data N:int, data x:real[1], data k:int[1], ~rho:Gamma, "
                                     "~alpha:HalfNormal, ~f_tilde[1]:Normal, =L_cov, =f, ~k:Poisson";
    QTest::newRow("kidiq") << "kidiq-kidscore_momhsiq"
                           << "data N:int, data kid_score:real[1], data mom_iq:real[1], "
                              "data mom_hs:real[1], ~beta[1]:Flat, ~sigma:HalfCauchy, "
                              "~kid_score:Normal";
    QTest::newRow("mesquite") << "mesquite-logmesquite_logvas"
                              << "data N:int, data weight:real[1], data diam1:real[1], "
                                 "data diam2:real[1], data canopy_height:real[1], "
                                 "data total_height:real[1], data density:real[1], "
                                 "data group:real[1], =log_weight, =log_canopy_volume, "
                                 "=log_canopy_area, =log_canopy_shape, =log_total_height, "
                                 "=log_density, ~beta[1]:Flat, ~sigma:HalfFlat, ~log_weight:Normal";
    QTest::newRow("sblrc") << "sblrc-blr"
                           << "data N:int, data D:int, data X:real[2], data y:real[1], "
                              "~beta[1]:Normal, ~sigma:HalfNormal, ~y:Normal";
  }
  void referenceModelsParse() {
    QFETCH(QString, folder);
    QFETCH(QString, expected);
    QFile file(reference_path(folder));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    const Source* source = nullptr;
    const ParseResult result = parse_text(file.readAll().toStdString(), &source);
    QVERIFY2(result.ok(), qPrintable(messages(*source, result).join('\n')));
    QVERIFY(result.diagnostics.empty());
    QCOMPARE(summary(result), expected);
    // Each file opens with a comment naming the model; it belongs to the first statement.
    QCOMPARE(result.program.statements.front().comments_before.size(), std::size_t{1});
  }

  void referenceDetails() {
    const ParseResult result = parse_text(
        "y_target = y[(K+1):T]\n"
        "Xc = X[:, 2:K] - means_X\n"
        "b[K - 1] ~ Normal(0, 1)\n"
        "k ~ Poisson(log_rate = f)\n"
        "L_cov = cholesky(gp_exp_quad_cov(x, alpha, rho) + 1e-10 * eye(N))\n");
    QVERIFY(result.ok());
    QCOMPARE(grouped(value_of(result, 0)), QString("y[{(K + 1):T}]"));
    QCOMPARE(grouped(value_of(result, 1)), QString("(X[:, {2:K}] - means_X)"));
    const auto& b = std::get<RandomStmt>(result.program.statements[2].node);
    QCOMPARE(grouped(b.dims.at(0)), QString("(K - 1)"));
    const auto& k = std::get<RandomStmt>(result.program.statements[3].node);
    QCOMPARE(grouped(k.distribution), QString("Poisson(log_rate=f)"));
    QCOMPARE(grouped(value_of(result, 4)),
             QString("cholesky((gp_exp_quad_cov(x, alpha, rho) + (1e-10 * eye(N))))"));
  }

  void precedenceAndAssociativity_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected");
    QTest::newRow("product before sum") << "a + b * c" << "(a + (b * c))";
    QTest::newRow("sum is left-associative") << "a - b - c" << "((a - b) - c)";
    QTest::newRow("division is left-associative") << "a / b / c" << "((a / b) / c)";
    QTest::newRow("matmul binds like product") << "a @ b * c" << "((a @ b) * c)";
    QTest::newRow("matmul before sum") << "a + X @ b" << "(a + (X @ b))";
    QTest::newRow("power is right-associative") << "2 ^ 3 ^ 2" << "(2 ^ (3 ^ 2))";
    QTest::newRow("minus binds looser than power") << "-x ^ 2" << "(-(x ^ 2))";
    QTest::newRow("minus binds tighter than product") << "-a * b" << "((-a) * b)";
    QTest::newRow("negative exponent") << "x ^ -2" << "(x ^ (-2))";
    QTest::newRow("double minus") << "a - -b" << "(a - (-b))";
    QTest::newRow("parentheses override") << "(a + b) * c" << "((a + b) * c)";
    QTest::newRow("parentheses on the right") << "a - (b - c)" << "(a - (b - c))";
    QTest::newRow("index binds tightest") << "-a[1] ^ 2" << "(-(a[1] ^ 2))";
    QTest::newRow("index of a call") << "f(x)[2]" << "f(x)[2]";
    QTest::newRow("index of a group") << "(a + b)[1]" << "(a + b)[1]";
    QTest::newRow("chained index") << "a[1][2]" << "a[1][2]";
    QTest::newRow("power of a call") << "exp(x) ^ 2 * 3" << "((exp(x) ^ 2) * 3)";
    QTest::newRow("real literals") << "2.5 * .5 + 3. - 1e-10" << "(((2.5 * 0.5) + 3.0) - 1e-10)";
    QTest::newRow("mixed") << "a + b * c ^ d - e / f"
                           << "((a + (b * (c ^ d))) - (e / f))";
  }
  void precedenceAndAssociativity() {
    QFETCH(QString, expression);
    QFETCH(QString, expected);
    const ParseResult result = parse_text(("x = " + expression).toStdString());
    QVERIFY(result.ok());
    QCOMPARE(grouped(value_of(result)), expected);
  }

  void integerLiteralsKeepTheirForm() {
    const ParseResult result = parse_text("x = 2 + 2.0");
    const Expr& sum = value_of(result);
    QVERIFY(sum.operands[0].is_integer);
    QVERIFY(!sum.operands[1].is_integer);
    QCOMPARE(sum.operands[1].value, 2.0);
  }

  void namedArguments() {
    const ParseResult result = parse_text("y ~ Binomial(n, logits = a + b)\n");
    QVERIFY(result.ok());
    const Expr& call = std::get<RandomStmt>(result.program.statements[0].node).distribution;
    QCOMPARE(call.kind, ExprKind::call);
    QCOMPARE(call.arguments.size(), std::size_t{2});
    QVERIFY(!call.arguments[0].is_named());
    QCOMPARE(call.arguments[1].name, std::string("logits"));
    QCOMPARE(grouped(call.arguments[1].value), QString("(a + b)"));
    QCOMPARE(call.arguments[1].name_span.begin, std::size_t{16});
  }

  void emptyCallAndNestedCalls() {
    const ParseResult result = parse_text("sigma ~ HalfFlat()\nm = colmeans(log(X[:, 2:K]))");
    QVERIFY(result.ok());
    QVERIFY(std::get<RandomStmt>(result.program.statements[0].node).distribution.arguments.empty());
    QCOMPARE(grouped(value_of(result, 1)), QString("colmeans(log(X[:, {2:K}]))"));
  }

  void slicesAndRanges() {
    const ParseResult result = parse_text("z = X[:, 2:K, (K+1):T, county]");
    QVERIFY(result.ok());
    const Expr& index = value_of(result);
    QCOMPARE(index.kind, ExprKind::index);
    QCOMPARE(index.operands.size(), std::size_t{5});
    QCOMPARE(index.operands[1].kind, ExprKind::full_slice);
    QCOMPARE(index.operands[2].kind, ExprKind::range);
    QCOMPARE(index.operands[3].kind, ExprKind::range);
    QCOMPARE(index.operands[3].operands[0].kind, ExprKind::binary);
    QCOMPARE(index.operands[4].kind, ExprKind::name);
  }

  void declarations() {
    const ParseResult result = parse_text(
        "data N: int\ndata X: real[N, K]\ndata k: int[N]\n"
        "c: ordered[K] ~ Normal(0, 1)\np: positive_ordered[K] ~ Exponential(1)\n"
        "s: simplex[K] ~ Dirichlet(alpha)\nL: cholesky_corr[K] ~ LKJCorrCholesky(2)\n");
    QVERIFY(result.ok());
    QCOMPARE(summary(result), QString("data N:int, data X:real[2], data k:int[1], "
                                      "~c:ordered[1]:Normal, ~p:positive_ordered[1]:Exponential, "
                                      "~s:simplex[1]:Dirichlet, ~L:cholesky_corr[1]:LKJCorrCholesky"));
    QCOMPARE(std::get<DataDecl>(result.program.statements[1].node).type, BaseType::real);
    QCOMPARE(std::get<DataDecl>(result.program.statements[0].node).type, BaseType::integer);
    QCOMPARE(result.program.statements[3].kind(), StatementKind::random);
    QCOMPARE(result.program.statements[0].kind(), StatementKind::data);
  }

  void multiLineCall() {
    const std::string text =
        "log_weight ~ Normal(beta[1] + beta[2] * a\n"
        "                    + beta[3] * b,\n"
        "                    sigma)\n"
        "next = 1\n";
    const ParseResult result = parse_text(text);
    QVERIFY(result.ok());
    QCOMPARE(result.program.statements.size(), std::size_t{2});
    const Statement& statement = result.program.statements[0];
    const Expr& call = std::get<RandomStmt>(statement.node).distribution;
    QCOMPARE(grouped(call), QString("Normal(((beta[1] + (beta[2] * a)) + (beta[3] * b)), sigma)"));
    QCOMPARE(statement.span.begin, std::size_t{0});
    QCOMPARE(statement.span.end, text.find("\nnext"));
  }

  void spans() {
    const Source* source = nullptr;
    const ParseResult result = parse_text("theta = theta_trans * (tau + mu)\n", &source);
    const Statement& statement = result.program.statements[0];
    const auto text = [&](variate::model::Span span) { return std::string(source->text(span)); };
    QCOMPARE(text(statement.span), std::string("theta = theta_trans * (tau + mu)"));
    QCOMPARE(text(statement.name_span()), std::string("theta"));
    const Expr& product = value_of(result);
    QCOMPARE(text(product.span), std::string("theta_trans * (tau + mu)"));
    QCOMPARE(text(product.operands[0].span), std::string("theta_trans"));
    QCOMPARE(text(product.operands[1].span), std::string("(tau + mu)"));
    QCOMPARE(text(product.operands[1].operands[1].span), std::string("mu"));
  }

  void commentsAreAttached() {
    const ParseResult result = parse_text(
        "# Header\n"
        "# second line\n"
        "data N: int  # count\n"
        "\n"
        "mu ~ Normal(0,  # inside\n"
        "   1)  # after\n"
        "x = 1\n"
        "\n"
        "# orphan\n");
    QVERIFY(result.ok());
    const auto& s = result.program.statements;
    QCOMPARE(s.size(), std::size_t{3});
    QCOMPARE(s[0].comments_before.size(), std::size_t{2});
    QCOMPARE(s[0].comments_before[0].text, std::string(" Header"));
    QCOMPARE(s[0].comments_before[1].text, std::string(" second line"));
    QCOMPARE(s[0].comment_after->text, std::string(" count"));
    QVERIFY(!s[0].blank_line_before);
    QCOMPARE(s[1].comments_before.size(), std::size_t{1});
    QCOMPARE(s[1].comments_before[0].text, std::string(" inside"));
    QCOMPARE(s[1].comment_after->text, std::string(" after"));
    QVERIFY(s[1].blank_line_before);
    QVERIFY(s[2].comments_before.empty());
    QVERIFY(!s[2].comment_after);
    QVERIFY(!s[2].blank_line_before);
    QCOMPARE(result.program.trailing_comments.size(), std::size_t{1});
    QCOMPARE(result.program.trailing_comments[0].text, std::string(" orphan"));
  }

  void errors_data();
  void errors();
  void formattedError();
  void everyErrorInAFileIsReported();
  void statementsAfterAnUnclosedParenthesisAreParsed();
  void deepNestingIsAnError_data();
  void deepNestingIsAnError();
  void longSumsWithinTheLimitParse();
  void randomBytesFinishQuicklyWithCappedErrors();
};

void TestParser::errors_data() {
  QTest::addColumn<QByteArray>("text");
  QTest::addColumn<QStringList>("expected");
  const auto row = [](const char* name, const char* text, QStringList expected) {
    QTest::newRow(name) << QByteArray(text) << expected;
  };
  row("missing '~'", "mu Normal(0, 5)\n",
      {"m.vmod:1:4: error: expected '~' or '=' after 'mu', got 'Normal'"});
  row("name alone", "mu\n", {"m.vmod:1:3: error: expected '~' or '=' after 'mu', got end of line"});
  row("unknown character", "mu ~ Normal(0, 5) $\n",
      {"m.vmod:1:19: error: unexpected character '$'"});
  row("unclosed parenthesis", "mu ~ Normal(0, 5\n", {"m.vmod:1:12: error: '(' was never closed"});
  row("unexpected end of file", "mu ~", {"m.vmod:1:5: error: expected a distribution such as "
                                        "'Normal(0, 1)' after '~', got end of file"});
  row("end of file after an operator", "x = 2 *",
      {"m.vmod:1:8: error: expected an expression after '*', got end of file"});
  row("end of line after an operator", "x = 2 +\ny = 1\n",
      {"m.vmod:1:8: error: expected an expression after '+', got end of line"});
  row("bad number", "x = 1e\n", {"m.vmod:1:5: error: malformed number '1e': the exponent has no digits"});
  row("non-UTF-8 bytes", "x = \xFF\n", {"m.vmod:1:5: error: invalid UTF-8 byte 0xFF"});
  row("missing name after data", "data : real", {"m.vmod:1:6: error: expected a name after 'data', got ':'"});
  row("keyword as a name", "data real: int", {"m.vmod:1:6: error: expected a name after 'data', got 'real'"});
  row("missing ':' in data", "data N int", {"m.vmod:1:8: error: expected ':' after 'N', got 'int'"});
  row("unknown base type", "data N: float",
      {"m.vmod:1:9: error: expected 'real' or 'int' after ':', got 'float'"});
  row("unknown constraint", "x: sorted[K] ~ Normal(0, 1)",
      {"m.vmod:1:4: error: expected 'real' (a bounded parameter, as in real<lower=0>) or a constraint (ordered, "
       "positive_ordered, simplex or cholesky_corr) after ':', got 'sorted'"});
  row("data type as constraint", "x: int[3]",
      {"m.vmod:1:4: error: expected 'real' (a bounded parameter, as in real<lower=0>) or a constraint (ordered, "
       "positive_ordered, simplex or cholesky_corr) after ':', got 'int' (data is declared as 'data x: int')"});
  row("bounds not closed", "x: real<lower=0",
      {"m.vmod:1:16: error: expected '>' to close the bounds of 'x', got end of file"});
  row("constraint without dimensions", "x: ordered ~ Normal(0, 1)",
      {"m.vmod:1:12: error: expected '[' after 'ordered', got '~'"});
  row("constraint then '='", "x: ordered[K] = 3",
      {"m.vmod:1:15: error: expected '~' after 'ordered[K]', got '='"});
  row("dimensions then '='", "theta[J, K - 1] = 3",
      {"m.vmod:1:17: error: expected '~' after 'theta[J, K - 1]', got '='"});
  row("distribution without arguments", "y ~ Normal\n",
      {"m.vmod:1:11: error: expected '(' after the distribution 'Normal', got end of line"});
  row("number as distribution", "y ~ 3",
      {"m.vmod:1:5: error: expected a distribution such as 'Normal(0, 1)' after '~', got '3'"});
  row("missing comma", "y ~ Normal(mu sigma)",
      {"m.vmod:1:15: error: expected ',' or ')' in the arguments of 'Normal', got 'sigma'"});
  row("trailing comma", "y ~ Normal(mu, )", {"m.vmod:1:16: error: expected an argument after ',', got ')'"});
  row("positional after named", "y ~ Binomial(logits = a, n)",
      {"m.vmod:1:26: error: positional argument after a named argument in the call of 'Binomial'"});
  row("duplicate named argument", "y ~ P(a = 1, a = 2)",
      {"m.vmod:1:14: error: duplicate argument 'a' in the call of 'P'"});
  row("index missing a comma", "z = X[1 2]", {"m.vmod:1:9: error: expected ',' or ']' in the index of 'X', got '2'"});
  row("empty index", "z = X[]", {"m.vmod:1:7: error: expected an expression after '[', got ']'"});
  row("open range", "z = y[2:]", {"m.vmod:1:9: error: expected an expression after ':', got ']'"});
  row("missing ')' in a group", "x = (a + b c)", {"m.vmod:1:12: error: expected ')', got 'c'"});
  row("unary plus", "x = +1", {"m.vmod:1:5: error: expected an expression after '=', got '+'"});
  row("text after the statement", "y ~ Normal(0, 1) + 2",
      {"m.vmod:1:18: error: expected end of line after the statement, got '+'"});
  row("calling a call", "x = f(1)(2)", {"m.vmod:1:9: error: expected end of line after the statement, got '('"});
  row("statement starting with an operator", "+ x",
      {"m.vmod:1:1: error: expected 'data' or a name at the start of a statement, got '+'"});
  row("keyword as a statement", "int = 3",
      {"m.vmod:1:1: error: expected 'data' or a name at the start of a statement, got 'int'"});
  row("mismatched bracket", "z = f(a]",
      {"m.vmod:1:8: error: closing ']' does not match '('", "m.vmod:1:6: note: '(' opened here"});
  row("unmatched bracket", "z = a)", {"m.vmod:1:6: error: unmatched ')'"});
}

void TestParser::errors() {
  QFETCH(QByteArray, text);
  QFETCH(QStringList, expected);
  const Source* source = nullptr;
  const ParseResult result = parse_text(text.toStdString(), &source);
  QCOMPARE(messages(*source, result), expected);
  QVERIFY(!result.ok());
}

void TestParser::formattedError() {
  const Source* source = nullptr;
  const ParseResult result = parse_text("data J: int\nmu Normal(0, 5)\n", &source);
  QCOMPARE(QString::fromStdString(result.diagnostics.format(*source)),
           QString("m.vmod:2:4: error: expected '~' or '=' after 'mu', got 'Normal'\n"
                   "mu Normal(0, 5)\n"
                   "   ^~~~~~\n"));
  QCOMPARE(summary(result), QString("data J:int"));
}

void TestParser::everyErrorInAFileIsReported() {
  const Source* source = nullptr;
  const ParseResult result = parse_text(
      "data J: int\n"
      "mu Normal(0, 5)\n"
      "tau ~ HalfCauchy(5)\n"
      "theta = theta_trans * $ + mu\n"
      "y ~ Normal(theta sigma)\n"
      "z = 1e\n"
      "w ~ Normal(0, 1)\n"
      "q = (1 +\n",
      &source);
  QCOMPARE(messages(*source, result),
           QStringList({"m.vmod:2:4: error: expected '~' or '=' after 'mu', got 'Normal'",
                        "m.vmod:4:23: error: unexpected character '$'",
                        "m.vmod:5:18: error: expected ',' or ')' in the arguments of 'Normal', got 'sigma'",
                        "m.vmod:6:5: error: malformed number '1e': the exponent has no digits",
                        "m.vmod:8:5: error: '(' was never closed"}));
  // The statements that parsed are kept (z parsed: its number was reported by the lexer).
  QCOMPARE(summary(result), QString("data J:int, ~tau:HalfCauchy, =z, ~w:Normal"));
}

void TestParser::statementsAfterAnUnclosedParenthesisAreParsed() {
  const Source* source = nullptr;
  const ParseResult result = parse_text(
      "L = cholesky(K + eye(N)\nf = L @ z\ny ~ Normal(f, 1\n\nk ~ Poisson(log_rate = f)\n",
      &source);
  QCOMPARE(messages(*source, result),
           QStringList({"m.vmod:2:1: error: expected ',' or ')' in the arguments of 'cholesky', got 'f'",
                        "m.vmod:1:13: error: '(' was never closed",
                        "m.vmod:3:11: error: '(' was never closed"}));
  QCOMPARE(summary(result), QString("~y:Normal, ~k:Poisson"));
}

void TestParser::deepNestingIsAnError_data() {
  QTest::addColumn<QString>("expression");
  QTest::addColumn<QString>("expected");
  const int n = 100000;
  const QString nested = "too many nested parentheses, brackets or operators (the limit is 256)";
  QTest::newRow("parentheses") << QString(n, '(') + "1" + QString(n, ')') << "1:261: error: " + nested;
  QTest::newRow("unary minus") << QString(n, '-') + "1" << "1:261: error: " + nested;
  QTest::newRow("power") << QString("a^").repeated(n) + "1" << "1:517: error: " + nested;
  QTest::newRow("brackets") << QString("a[").repeated(n) + "1" + QString(n, ']')
                            << "1:261: error: " + nested;
  QTest::newRow("calls") << QString("f(").repeated(n) + "1" + QString(n, ')')
                         << "1:261: error: " + nested;
  QTest::newRow("long sum") << QString("a + ").repeated(n) + "1"
                            << "1:16391: error: expression too long (the limit is 4096 nested operations)";
}

void TestParser::deepNestingIsAnError() {
  QFETCH(QString, expression);
  QFETCH(QString, expected);
  const Source* source = nullptr;
  QElapsedTimer timer;
  timer.start();
  const ParseResult result = parse_text(("x = " + expression + "\ny = 2\n").toStdString(), &source);
  qInfo("took %lld ms", static_cast<long long>(timer.elapsed()));  // reported, not asserted
  QCOMPARE(messages(*source, result), QStringList({"m.vmod:" + expected}));
  // The statement after it is still read.
  QCOMPARE(summary(result), QString("=y"));
}

void TestParser::longSumsWithinTheLimitParse() {
  const ParseResult result = parse_text(("x = " + QString("a + ").repeated(4000) + "1").toStdString());
  QVERIFY(result.ok());
  QCOMPARE(value_of(result).kind, ExprKind::binary);
}

void TestParser::randomBytesFinishQuicklyWithCappedErrors() {
  std::mt19937_64 generator(20240601);
  std::string bytes(10 * 1000 * 1000, '\0');
  for (char& c : bytes) c = static_cast<char>(generator() & 0xFF);
  const Source* source = nullptr;
  QElapsedTimer timer;
  timer.start();
  const ParseResult result = parse_text(bytes, &source);
  qInfo("took %lld ms", static_cast<long long>(timer.elapsed()));  // reported, not asserted
  QVERIFY(result.diagnostics.stopped());
  QCOMPARE(result.diagnostics.error_count(), variate::model::Diagnostics::max_errors);
  QVERIFY(messages(*source, result).last().endsWith("error: too many errors; stopping"));
  // Formatting the report stays bounded as well (long lines show a window).
  QVERIFY(result.diagnostics.format(*source).size() < 200 * 1000);
}

QTEST_APPLESS_MAIN(TestParser)
#include "tst_parser.moc"
