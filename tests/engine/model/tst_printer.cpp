// Printer: canonical text with minimal parentheses, and parse(print(tree)) == tree for the
// reference models and for thousands of random expression trees.

#include <random>

#include <QtTest/QtTest>

#include "engine/model/parser.h"
#include "engine/model/printer.h"

using variate::model::Argument;
using variate::model::BinaryOp;
using variate::model::Deterministic;
using variate::model::Expr;
using variate::model::ParseResult;
using variate::model::Program;
using variate::model::Source;
using variate::model::Span;
using variate::model::Statement;

namespace {

QString canonical(const std::string& text) {
  const Source source("m.vmod", text);
  const ParseResult result = variate::model::parse(source);
  if (!result.ok()) return "ERROR " + QString::fromStdString(result.diagnostics.format(source));
  return QString::fromStdString(variate::model::to_string(result.program));
}

// Random trees of every node kind the parser can produce.
class TreeGenerator {
 public:
  explicit TreeGenerator(unsigned seed) : random_(seed) {}

  Expr expression(int depth) {
    const int choice = depth <= 0 ? pick(2) : pick(8);
    switch (choice) {
      case 0: return number();
      case 1: return Expr::identifier(name(), {});
      case 2: return Expr::negate(expression(depth - 1), {});
      case 3:
      case 4: {
        static const BinaryOp ops[] = {BinaryOp::add, BinaryOp::subtract, BinaryOp::multiply,
                                       BinaryOp::divide, BinaryOp::matmul, BinaryOp::power};
        return Expr::binary(ops[pick(6)], expression(depth - 1), expression(depth - 1), {});
      }
      case 5: {
        std::vector<Argument> arguments(pick(4));
        const std::size_t positional = pick(static_cast<int>(arguments.size()) + 1);
        for (std::size_t i = 0; i < arguments.size(); ++i) {
          if (i >= positional) arguments[i].name = "arg" + std::to_string(i);
          arguments[i].value = expression(depth - 1);
        }
        return Expr::call(name(), std::move(arguments), {});
      }
      case 6: {
        std::vector<Expr> items(1 + pick(3));
        for (Expr& item : items) {
          const int kind = pick(4);
          if (kind == 0) {
            item = Expr::full_slice({});
          } else if (kind == 1) {
            item = Expr::range(expression(depth - 1), expression(depth - 1), {});
          } else {
            item = expression(depth - 1);
          }
        }
        return Expr::index(expression(depth - 1), std::move(items), {});
      }
      default: return number();
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  Expr number() {
    static const double reals[] = {0.1, 2.5, 1e-10, 123456.789, 1e300, 3.0, 0.0, 1.0 / 3.0};
    if (pick(2) == 0) return Expr::number(pick(1000), true, {});
    return Expr::number(reals[pick(8)], false, {});
  }

  std::string name() {
    static const char* names[] = {"a", "b", "theta", "x_1", "Normal", "log"};
    return names[pick(6)];
  }

  std::mt19937 random_;
};

QString reference_text(const QString& folder) {
  QFile file(QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + folder + "/model.vmod");
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

}  // namespace

class TestPrinter : public QObject {
  Q_OBJECT

 private slots:
  void canonicalText_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("spaces around operators") << "x=a+b*c" << "x = a + b * c\n";
    QTest::newRow("needed parentheses kept") << "x = (a+b)*c" << "x = (a + b) * c\n";
    QTest::newRow("redundant parentheses dropped") << "x = ((a)) + (b*c)" << "x = a + b * c\n";
    QTest::newRow("right operand of minus") << "x = a-(b-c)" << "x = a - (b - c)\n";
    QTest::newRow("left chain") << "x = (a-b)-c" << "x = a - b - c\n";
    QTest::newRow("right operand of sum") << "x = a+(b+c)" << "x = a + (b + c)\n";
    QTest::newRow("divisor product") << "x = a/(b*c)" << "x = a / (b * c)\n";
    QTest::newRow("matmul chain") << "x = (a@b)@c" << "x = a @ b @ c\n";
    QTest::newRow("left-nested power") << "x = (2^3)^2" << "x = (2 ^ 3) ^ 2\n";
    QTest::newRow("right-nested power") << "x = 2^(3^2)" << "x = 2 ^ 3 ^ 2\n";
    QTest::newRow("power of a negation") << "x = (-x)^2" << "x = (-x) ^ 2\n";
    QTest::newRow("negation of a power") << "x = -(x^2)" << "x = -x ^ 2\n";
    QTest::newRow("negative exponent") << "x = x^(-2)" << "x = x ^ -2\n";
    QTest::newRow("exponent sum") << "x = x^(a+1)" << "x = x ^ (a + 1)\n";
    QTest::newRow("negated sum") << "x = -(a+b)" << "x = -(a + b)\n";
    QTest::newRow("double negation") << "x = a - -b" << "x = a - -b\n";
    QTest::newRow("index of a product") << "x = (a*b)[1]" << "x = (a * b)[1]\n";
    QTest::newRow("index of a call") << "x = (f(x))[1]" << "x = f(x)[1]\n";
    QTest::newRow("range with sums") << "x = y[(K+1):T]" << "x = y[(K + 1):T]\n";
    QTest::newRow("slices") << "x = X[ : , 2 : K ]" << "x = X[:, 2:K]\n";
    QTest::newRow("named argument") << "k ~ Poisson( log_rate=f )" << "k ~ Poisson(log_rate = f)\n";
    QTest::newRow("empty call") << "s ~ HalfFlat( )" << "s ~ HalfFlat()\n";
    QTest::newRow("data") << "data X : real [ N , K ]" << "data X: real[N, K]\n";
    QTest::newRow("data bounds") << "data s : real < lower = 0 > [ J ]" << "data s: real<lower=0>[J]\n";
    QTest::newRow("data both bounds") << "data p: real<upper=1,lower=-a>" << "data p: real<lower=-a, upper=1>\n";
    QTest::newRow("data bound of a sum") << "data x: real<upper=(lo+10)>[N]" << "data x: real<upper=lo + 10>[N]\n";
    QTest::newRow("data bound of a power") << "data x: real<upper=2^k>" << "data x: real<upper=2 ^ k>\n";
    QTest::newRow("bounded parameter") << "b : real < lower = 0 , upper = (1-a) > [ K ]" << "b: real<lower=0, upper=1 - a>[K]\n";
    QTest::newRow("bound of a comparison") << "b: real<upper=(a<1?1:2)>" << "b: real<upper=(a < 1 ? 1 : 2)>\n";
    QTest::newRow("bounded parameter, upper only") << "b: real<upper=-a>" << "b: real<upper=-a>\n";
    QTest::newRow("flat parameter") << "b: real[K]" << "b: real[K]\n";
    QTest::newRow("iid copies") << "b [K-1] ~ Normal(0,1)" << "b[K - 1] ~ Normal(0, 1)\n";
    QTest::newRow("constraint") << "c : ordered [K] ~ Normal(0,1)" << "c: ordered[K] ~ Normal(0, 1)\n";
    QTest::newRow("numbers") << "x = 3. + .5 + 1e-10 + 2.50 + 1E3 + 007"
                             << "x = 3.0 + 0.5 + 1e-10 + 2.5 + 1000.0 + 7\n";
    QTest::newRow("comments and blank lines")
        << "# head\nx = 1 # tail\n\n\ny = 2\n# end\n" << "# head\nx = 1  # tail\n\ny = 2\n# end\n";
    QTest::newRow("multi-line call joined")
        << "y ~ Normal(a\n    + b,  # inside\n    c)\n" << "# inside\ny ~ Normal(a + b, c)\n";
  }
  void canonicalText() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(canonical(text.toStdString()), expected);
    // The canonical text is a fixed point.
    QCOMPARE(canonical(expected.toStdString()), expected);
  }

  void formatNumber_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<bool>("isInteger");
    QTest::addColumn<QString>("expected");
    QTest::newRow("integer") << 2.0 << true << "2";
    QTest::newRow("integral real") << 2.0 << false << "2.0";
    QTest::newRow("tenth") << 0.1 << false << "0.1";
    QTest::newRow("small") << 1e-10 << false << "1e-10";
    QTest::newRow("huge") << 1e300 << false << "1e+300";
    QTest::newRow("third") << 1.0 / 3.0 << false << "0.3333333333333333";
    QTest::newRow("large integer") << 9007199254740992.0 << true << "9007199254740992";
    QTest::newRow("large real") << 123456789012.0 << false << "123456789012.0";
  }
  void formatNumber() {
    QFETCH(double, value);
    QFETCH(bool, isInteger);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(variate::model::format_number(value, isInteger)), expected);
  }

  void referenceModelsRoundTrip_data() {
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("expected");
    // Six reference models are already canonical; two differ only in layout.
    const QString ark = reference_text("arK-arK");
    const QString mesquite = reference_text("mesquite-logmesquite_logvas");
    QString mesquite_joined = mesquite;
    mesquite_joined.replace(QRegularExpression("\n +\\+"), " +");
    QTest::newRow("arK") << "arK-arK" << QString(ark).replace("y[(K+1):T]", "y[(K + 1):T]");
    QTest::newRow("diamonds") << "diamonds-diamonds" << reference_text("diamonds-diamonds");
    QTest::newRow("earnings") << "earnings-logearn_interaction"
                              << reference_text("earnings-logearn_interaction");
    QTest::newRow("eight schools") << "eight_schools-eight_schools_noncentered"
                                   << reference_text("eight_schools-eight_schools_noncentered");
    QTest::newRow("gp_pois_regr") << "gp_pois_regr-gp_pois_regr"
                                  << reference_text("gp_pois_regr-gp_pois_regr");
    QTest::newRow("kidiq") << "kidiq-kidscore_momhsiq" << reference_text("kidiq-kidscore_momhsiq");
    QTest::newRow("mesquite") << "mesquite-logmesquite_logvas" << mesquite_joined;
    QTest::newRow("sblrc") << "sblrc-blr" << reference_text("sblrc-blr");
  }
  void referenceModelsRoundTrip() {
    QFETCH(QString, folder);
    QFETCH(QString, expected);
    const QString text = reference_text(folder);
    QVERIFY(!text.isEmpty());
    const Source source("model.vmod", text.toStdString());
    const ParseResult first = variate::model::parse(source);
    QVERIFY(first.ok());
    const std::string printed = variate::model::to_string(first.program);
    QCOMPARE(QString::fromStdString(printed), expected);
    const ParseResult second = variate::model::parse(Source("printed.vmod", printed));
    QVERIFY(second.ok());
    QVERIFY(variate::model::structurally_equal(first.program, second.program));
  }

  void randomTreesRoundTrip() {
    TreeGenerator generator(7);
    for (int i = 0; i < 3000; ++i) {
      Program program;
      Statement statement;
      Deterministic deterministic;
      deterministic.name = "x";
      deterministic.value = generator.expression(1 + i % 6);
      statement.node = deterministic;
      program.statements.push_back(statement);
      const std::string printed = variate::model::to_string(program);
      const Source source("printed.vmod", printed);
      const ParseResult result = variate::model::parse(source);
      QVERIFY2(result.ok(), qPrintable(QString::fromStdString(result.diagnostics.format(source))));
      QVERIFY2(variate::model::structurally_equal(program, result.program), printed.c_str());
    }
  }

  void structuralEqualityNoticesDifferences() {
    // The round-trip checks above are only as good as this comparison.
    const auto parsed = [](const std::string& text) {
      return variate::model::parse(Source("m.vmod", text)).program;
    };
    const Program base = parsed("x = a + b * 2\n");
    QVERIFY(variate::model::structurally_equal(base, parsed("x  =  a+b*2")));
    QVERIFY(!variate::model::structurally_equal(base, parsed("x = (a + b) * 2")));
    QVERIFY(!variate::model::structurally_equal(base, parsed("x = a + b * 2.0")));
    QVERIFY(!variate::model::structurally_equal(base, parsed("x = a - b * 2")));
    QVERIFY(!variate::model::structurally_equal(base, parsed("y = a + b * 2")));
    QVERIFY(!variate::model::structurally_equal(base, parsed("x = a + b * 2  # note")));
    QVERIFY(!variate::model::structurally_equal(parsed("k ~ P(log_rate = f)"), parsed("k ~ P(f)")));
    QVERIFY(!variate::model::structurally_equal(parsed("z = X[:, 1]"), parsed("z = X[1, 1]")));
    QVERIFY(!variate::model::structurally_equal(parsed("c: ordered[K] ~ N(0, 1)"),
                                                parsed("c: simplex[K] ~ N(0, 1)")));
  }
};

QTEST_APPLESS_MAIN(TestPrinter)
#include "tst_printer.moc"
