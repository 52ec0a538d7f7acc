// Renaming a node or a user function on the syntax tree: definitions and references (a
// function's calls) follow; the language's function names,
// distribution names, named-argument labels, longer names containing the old one and
// comments stay; invalid names and collisions are refused.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"
#include "engine/model/rename.h"

namespace vm = variate::model;

namespace {

vm::Program parsed(const std::string& text) {
  const vm::Source source("m.vmod", text);
  vm::ParseResult result = vm::parse(source);
  if (!result.ok()) qFatal("%s", result.diagnostics.format(source).c_str());
  return std::move(result.program);
}

QString renamed(const std::string& text, const std::string& from, const std::string& to) {
  vm::Program program = parsed(text);
  vm::rename_node(program, from, to);
  return QString::fromStdString(vm::to_string(program));
}

}  // namespace

class TestRename : public QObject {
  Q_OBJECT

 private slots:
  void renamesEveryReference_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected");
    QTest::newRow("eight schools")
        << "# mu is the grand mean\nmu ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\ndata J: int\n"
           "theta_trans[J] ~ Normal(0, 1)\ntheta = theta_trans * tau + mu  # mu again\n"
        << "mu" << "grand_mean"
        << "# mu is the grand mean\ngrand_mean ~ Normal(0, 5)\ntau ~ HalfCauchy(5)\ndata J: int\n"
           "theta_trans[J] ~ Normal(0, 1)\ntheta = theta_trans * tau + grand_mean  # mu again\n";
    QTest::newRow("size, index and data declaration")
        << "data N: int\ndata g: int[N]\ndata y: real[N]\na[N] ~ Normal(0, 1)\ny ~ Normal(a[g], 1)\n"
        << "N" << "n_obs"
        << "data n_obs: int\ndata g: int[n_obs]\ndata y: real[n_obs]\na[n_obs] ~ Normal(0, 1)\n"
           "y ~ Normal(a[g], 1)\n";
    QTest::newRow("observed data keeps both statements")
        << "data y: real\nm ~ Normal(0, 1)\ny ~ Normal(m, 1)\n" << "y" << "obs"
        << "data obs: real\nm ~ Normal(0, 1)\nobs ~ Normal(m, 1)\n";
    QTest::newRow("named argument label and mixture component")
        << "data k: int\nmu ~ Normal(0, 1)\nw: simplex[2] ~ Dirichlet(mu)\nk ~ Poisson(log_rate = mu)\n"
           "data z: real\nz ~ Mixture(w, Normal(mu, 1))\n"
        << "mu" << "log_rate"
        << "data k: int\nlog_rate ~ Normal(0, 1)\nw: simplex[2] ~ Dirichlet(log_rate)\n"
           "k ~ Poisson(log_rate = log_rate)\ndata z: real\nz ~ Mixture(w, Normal(log_rate, 1))\n";
    QTest::newRow("function of the same name")
        << "data x: real\nlog = 2 * x\nz = log(log)\n" << "log" << "twice"
        << "data x: real\ntwice = 2 * x\nz = log(twice)\n";
    QTest::newRow("user function: its calls, in nodes and in other functions")
        << "function sq(x: real): real = x * x\nfunction quad(sq: real): real = sq(sq)\n"
           "mu ~ Normal(0, 1)\nm = sq(mu) + quad(mu)\n"
        << "sq"
        << "square"
        << "function square(x: real): real = x * x\nfunction quad(sq: real): real = square(sq)\n"
           "mu ~ Normal(0, 1)\nm = square(mu) + quad(mu)\n";
    QTest::newRow("ODE right-hand side")
        << "function f(t: real, y: vector, k: real): vector = -k * y\nk ~ HalfNormal(1)\n"
           "z = ode_rk45(f, [1.0], 0, [1, 2], k)\n"
        << "f"
        << "decay"
        << "function decay(t: real, y: vector, k: real): vector = -k * y\nk ~ HalfNormal(1)\n"
           "z = ode_rk45(decay, [1.0], 0, [1, 2], k)\n";
    QTest::newRow("a node leaves function bodies alone")
        << "function f(k: real): real = 2 * k\nk ~ HalfNormal(1)\nz = f(k)\n"
        << "k"
        << "rate"
        << "function f(k: real): real = 2 * k\nrate ~ HalfNormal(1)\nz = f(rate)\n";
    QTest::newRow("constraint size")
        << "data K: int\nL: cholesky_corr[K] ~ LKJCorrCholesky(2)\n" << "K" << "D"
        << "data D: int\nL: cholesky_corr[D] ~ LKJCorrCholesky(2)\n";
  }
  void renamesEveryReference() {
    QFETCH(QString, text);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    QCOMPARE(renamed(text.toStdString(), from.toStdString(), to.toStdString()), expected);
  }

  void refusesBadRenames_data() {
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("from");
    QTest::newRow("collision") << "tau" << "mu";
    QTest::newRow("keyword") << "data" << "mu";
    QTest::newRow("keyword int") << "int" << "mu";
    QTest::newRow("digit first") << "2mu" << "mu";
    QTest::newRow("space") << "m u" << "mu";
    QTest::newRow("operator") << "mu+1" << "mu";
    QTest::newRow("empty") << "" << "mu";
    QTest::newRow("unknown node") << "nu" << "sigma";
    QTest::newRow("a function's name") << "half"
                                       << "mu";
  }
  void refusesBadRenames() {
    QFETCH(QString, to);
    QFETCH(QString, from);
    vm::Program program =
        parsed("function half(x: real): real = x / 2\nmu ~ Normal(0, 5)\ntau ~ HalfCauchy(half(mu))\n");
    const std::string before = vm::to_string(program);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vm::rename_node(program, from.toStdString(), to.toStdString()));
    QCOMPARE(vm::to_string(program), before);
  }

  void validNames() {
    QVERIFY(vm::is_valid_name("theta_trans"));
    QVERIFY(vm::is_valid_name("_x2"));
    QVERIFY(vm::is_valid_name("ordered"));  // a constraint type, but not a keyword
    QVERIFY(!vm::is_valid_name("real"));
    QVERIFY(!vm::is_valid_name("x#y"));
    QVERIFY(!vm::is_valid_name("x\n"));
    QVERIFY(!vm::is_valid_name("1.5"));
  }

  void renameToItselfChangesNothing() {
    QCOMPARE(renamed("mu ~ Normal(0, 5)\n", "mu", "mu"), QString("mu ~ Normal(0, 5)\n"));
  }
};

QTEST_GUILESS_MAIN(TestRename)
#include "tst_rename.moc"
