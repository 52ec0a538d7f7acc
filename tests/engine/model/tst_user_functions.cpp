// User functions, `function NAME(a: real, v: vector): vector = EXPR`: how they parse and
// print, that a call computes its body with the arguments in place (on LibTorch, on the
// tape with equal gradients, in the draws), nested calls and calls from recurrences, the
// declared types checked when the data is bound, and the located error of each misuse.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/model/parser.h"
#include "engine/model/printer.h"
#include "engine/tape/compiler/select_target.h"
#include "tests/support/model_text.h"

namespace vm = variate::model;

namespace {

const char* kData = R"({"N": 3, "x": [1, 2, 3], "k": [0, 2, 5], "X": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]})";
const char* kHeader = "data N: int\ndata x: real[N]\ndata k: int[N]\ndata X: real[N, N]\n";  // 4 lines

// Lotka-Volterra's right-hand side, as an ODE model gives it.
const char* kPredatorPrey =
    "function lotka_volterra(t: real, z: vector, theta: vector): vector = "
    "[(theta[1] - theta[2] * z[2]) * z[1], (-theta[3] + theta[4] * z[1]) * z[2]]\n";

}  // namespace

class TestUserFunctions : public QObject {
  Q_OBJECT

 private slots:
  void printsAsWritten() {
    const std::string text = std::string(kPredatorPrey) +
                             "function affine(a: real, b: real, x: vector): vector = a + b * x\n"
                             "function count(n: int): int = n\n"
                             "function trace(M: matrix): real = sum(M)\n"
                             "y = affine(1, 2, lotka_volterra(0, [1, 2], [1, 0.5, 1, 0.5]))\n";
    const std::string problem = model_text::round_trip_problem(text);
    QVERIFY2(problem.empty(), problem.c_str());
  }

  void aCallComputesItsBody_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("a vector result") << QString(kPredatorPrey) + "q = lotka_volterra(0, [10, 5], [1, 0.1, 2, 0.05])"
                                     << QList<double>{(1 - 0.1 * 5) * 10, (-2 + 0.05 * 10) * 5};
    QTest::newRow("elementwise over data")
        << "function scale(a: real, v: vector): vector = a * v + 1\nq = scale(2, x)" << QList<double>{3, 5, 7};
    QTest::newRow("a call in a call") << "function sq(v: vector): vector = v * v\n"
                                         "function twice(v: vector): vector = sq(v) + sq(v)\nq = twice(x - 1)"
                                      << QList<double>{0, 2, 8};
    QTest::newRow("a matrix argument") << "function total(M: matrix): real = sum(M)\nq = total(X)" << QList<double>{45};
    QTest::newRow("a density in the body") << "function lp(y: vector, s: real): real = sum(Normal(0, s).log_prob(y))\n"
                                              "q = lp([0, 0], 1)"
                                           << QList<double>{-std::log(2 * M_PI)};
    QTest::newRow("declared after its use")
        << "q = half(x)\nfunction half(v: vector): vector = v / 2" << QList<double>{0.5, 1, 1.5};
  }
  void aCallComputesItsBody() {
    QFETCH(QString, model);
    QFETCH(QList<double>, expected);
    const auto result = model_text::compile(kHeader + (model + "\nm ~ Normal(0, 1)\n").toStdString(), kData);
    QVERIFY2(result.ok(), result.report().c_str());
    const std::vector<double> got = model_text::elements_of(result.model->data_values().at("q").tensor);
    const std::string problem =
        model_text::elements_problem(got, std::vector<double>(expected.begin(), expected.end()));
    QVERIFY2(problem.empty(), problem.c_str());
  }

  // Of parameters: the tape's density and gradient equal LibTorch's at 20 points.
  void theTapeAgreesWithLibTorch() {
    const std::string model = std::string(kHeader) + kPredatorPrey +
                              "function center(v: vector, m: real): vector = v - m\n"
                              "theta[4] ~ LogNormal(0, 0.5)\nz0[2] ~ LogNormal(1, 0.5)\nsigma ~ Exponential(1)\n"
                              "s[1] = z0\n"
                              "s[t] = s[t - 1] + 0.1 * lotka_volterra(t, s[t - 1], theta) for t in 2:N\n"
                              "target += sum(Normal(0, sigma).log_prob(center(log(s[N]), log(x[1]))))\n"
                              "growth = lotka_volterra(0, z0, theta)\n";
    const auto compiled = model_text::compile(model, kData);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto tape = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(tape.fallback_reason.empty(), tape.fallback_reason.c_str());
    const variate::UnconstrainedTarget torch = compiled.model->target();
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261206);
    const at::Tensor thetas = at::randn({20, torch.dimension()}, generator, at::kDouble);
    for (int point = 0; point < 20; ++point) {
      const auto [lp_torch, g_torch] = torch.log_density_and_gradient(thetas[point]);
      const auto [lp_tape, g_tape] = tape.target.log_density_and_gradient(thetas[point]);
      const double want = lp_torch.item<double>();
      QVERIFY2(std::abs(lp_tape.item<double>() - want) <= 1e-12 * std::max(1.0, std::abs(want)),
               qPrintable(QString("lp %1 vs %2").arg(lp_tape.item<double>(), 0, 'g', 17).arg(want, 0, 'g', 17)));
      QVERIFY(at::allclose(g_tape, g_torch, 1e-12, 1e-12));
    }
  }

  void errors_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a name of the model")
        << "function f(a: real): real = a + N\nq = f(1)\n"
        << "m.vmod:5:33: error: 'N' is not an argument of 'f': a function reads only its arguments; pass 'N' as one";
    QTest::newRow("too many arguments") << "function f(a: real): real = a\nq = f(1, 2)\n"
                                        << "m.vmod:6:5: error: 'f' takes 1 argument (a: real), got 2";
    QTest::newRow("a named argument")
        << "function f(a: real, b: real): real = a\nq = f(1, b = 2)\n"
        << "m.vmod:6:10: error: 'f' takes its arguments by position (a: real, b: real); write '2' without 'b ='";
    QTest::newRow("recursion")
        << "function f(a: real): real = g(a)\nfunction g(a: real): real = f(a) + 1\nq = f(1)\n"
        << "m.vmod:5:10: error: the function 'f' calls itself (f -> g -> f); a function cannot recurse";
    QTest::newRow("declared twice") << "function f(a: real): real = a\nfunction f(b: real): real = b\nq = f(1)\n"
                                    << "m.vmod:6:10: error: the function 'f' is already declared (line 5)";
    QTest::newRow("a name of the language")
        << "function exp(a: real): real = a\nq = exp(1)\n"
        << "m.vmod:5:10: error: 'exp' is a function or distribution of the language; name yours otherwise";
    QTest::newRow("a name of a node")
        << "function q(a: real): real = a\nq = 1\n"
        << "m.vmod:5:10: error: 'q' names both a function and a node of the model; rename one of them";
    QTest::newRow("an argument of the wrong rank")
        << "function f(v: vector): real = sum(v)\nq = f(X)\n"
        << "m.vmod:6:7: error: argument 1 of 'f' ('X') is declared vector but has shape [3, 3]";
    QTest::newRow("a result of the wrong rank")
        << "function f(v: vector): real = v * 2\nq = f(x)\n"
        << "m.vmod:6:5: error: the value of 'f(x)' is declared real but has shape [3]";
    QTest::newRow("reals for an int")
        << "function f(n: int): int = n\nq = f(x[1])\n"
        << "m.vmod:6:7: error: argument 1 of 'f' ('x[1]') is declared int but holds reals";
    QTest::newRow("an argument named twice") << "function f(a: real, a: vector): real = a\nq = f(1, x)\n"
                                             << "m.vmod:5:21: error: the argument 'a' of 'f' is named twice";
    QTest::newRow("an unknown type")
        << "function f(a: array): real = 1\n"
        << "m.vmod:5:15: error: expected a type for the argument 'a' (real, int, vector or matrix), got 'array'";
  }
  void errors() {
    QFETCH(QString, model);
    QFETCH(QString, expected);
    const std::string error = model_text::first_error_of(kHeader + model.toStdString() + "m ~ Normal(0, 1)\n", kData);
    QVERIFY(!error.empty());
    QCOMPARE(QString::fromStdString(error), expected);
  }
};

QTEST_APPLESS_MAIN(TestUserFunctions)
#include "tst_user_functions.moc"
