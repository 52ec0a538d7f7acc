// The ODE solvers in the language, `ode_rk45(f, y0, t0, ts, ...)`, `ode_bdf`, and their
// `_tol` forms: how they print, values against analytic solutions (folded from data),
// the tape's log density and gradient equal to LibTorch's at 20 points (Lotka-Volterra,
// and a right-hand side with a branch on t, data and an int passed to it), gradients
// against finite differences, a point where the solver reaches its step limit rejected
// on both backends with the reason, and the located error of each misuse.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/model/invalid_argument.h"
#include "engine/tape/compiler/select_target.h"
#include "tests/support/model_text.h"

namespace vm = variate::model;

namespace {

const char* kData = R"({"N": 4, "ts": [0.5, 1, 2, 4], "z": [[10, 5], [9, 6], [7, 7], [6, 5]], "dose": [30, 2]})";
const char* kHeader = "data N: int\ndata ts: real[N]\ndata z: real[N, 2]\ndata dose: real[2]\n";  // 4 lines

const char* kDecay = "function decay(t: real, y: vector, k: real): vector = -k * y\n";
const char* kPredatorPrey =
    "function lotka_volterra(t: real, z: vector, theta: vector): vector = "
    "[(theta[1] - theta[2] * z[2]) * z[1], (-theta[3] + theta[4] * z[1]) * z[2]]\n";
// One compartment, absorption from a dose after t = 0, Michaelis-Menten elimination;
// `unit` (an int, data) scales time.
const char* kCompartment =
    "function compartment(t: real, c: vector, theta: vector, dose: vector, unit: int): vector = "
    "[(t > 0 ? exp(-theta[1] * t * unit) * dose[1] * theta[1] / dose[2] : 0) - theta[3] / dose[2] * c[1] / "
    "(theta[2] + c[1])]\n";

}  // namespace

class TestOdeLanguage : public QObject {
  Q_OBJECT

 private slots:
  void printsAsWritten() {
    const std::string text = std::string(kDecay) + kPredatorPrey +
                             "a = ode_rk45(decay, [1.0], 0, ts, 0.5)\n"
                             "b = ode_bdf_tol(lotka_volterra, [10, 5], 0, ts, 1e-8, 1e-8, 10000, [1, 0.1, 2, 0.05])\n";
    const std::string problem = model_text::round_trip_problem(text);
    QVERIFY2(problem.empty(), problem.c_str());
  }

  // y' = -k y from y(0) = 2: y(t) = 2 exp(-k t), each solver to its tolerances.
  void solvesExponentialDecay_data() {
    QTest::addColumn<QString>("call");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("rk45") << "ode_rk45(decay, [2.0], 0, ts, 0.5)" << 1e-5;
    QTest::newRow("bdf") << "ode_bdf(decay, [2.0], 0, ts, 0.5)" << 1e-4;
    QTest::newRow("rk45 tight") << "ode_rk45_tol(decay, [2.0], 0, ts, 1e-10, 1e-10, 100000, 0.5)" << 1e-9;
    QTest::newRow("bdf tight") << "ode_bdf_tol(decay, [2.0], 0, ts, 1e-10, 1e-10, 100000, 0.5)" << 1e-7;
  }
  void solvesExponentialDecay() {
    QFETCH(QString, call);
    QFETCH(double, tolerance);
    const auto result = model_text::compile(
        kHeader + std::string(kDecay) + "q = " + call.toStdString() + "\nm ~ Normal(0, 1)\n", kData);
    QVERIFY2(result.ok(), result.report().c_str());
    const at::Tensor q = result.model->data_values().at("q").tensor;
    QCOMPARE(q.sizes().vec(), (std::vector<int64_t>{4, 1}));
    const std::vector<double> got = model_text::elements_of(q), times = {0.5, 1, 2, 4};
    for (size_t k = 0; k < times.size(); ++k) {
      const double exact = 2 * std::exp(-0.5 * times[k]);
      QVERIFY2(std::abs(got[k] - exact) <= tolerance,
               qPrintable(QString("t = %1: %2, exactly %3").arg(times[k]).arg(got[k]).arg(exact)));
    }
  }

  // Of parameters: the tape's density and gradient equal LibTorch's at 20 points, and
  // central differences of the density agree with the gradient.
  void theTapeAgreesWithLibTorch_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("lotka-volterra, rk45")
        << QString(kPredatorPrey) +
               "theta[4] ~ LogNormal(log([1, 0.05, 1, 0.05]), 0.3)\nz0[2] ~ LogNormal(log(10), 0.3)\n"
               "s = ode_rk45(lotka_volterra, z0, 0, ts, theta)\nz ~ LogNormal(log(s), 0.25)\n";
    QTest::newRow("a branch on t, data and an int, bdf")
        << QString(kCompartment) +
               "k[3] ~ LogNormal(0, 0.5)\nsigma ~ Exponential(1)\n"
               "c = ode_bdf(compartment, [0.0], 0, ts, k, dose, 1)\nz1 = z[:, 1]\nz1 ~ LogNormal(log(c[:, 1]), "
               "sigma)\n";
  }
  void theTapeAgreesWithLibTorch() {
    QFETCH(QString, model);
    const auto compiled = model_text::compile(kHeader + model.toStdString(), kData);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto tape = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(tape.fallback_reason.empty(), tape.fallback_reason.c_str());
    const variate::UnconstrainedTarget torch = compiled.model->target();
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261207);
    const at::Tensor thetas = 0.5 * at::randn({20, torch.dimension()}, generator, at::kDouble);
    for (int point = 0; point < 20; ++point) {
      const auto [lp_torch, g_torch] = torch.log_density_and_gradient(thetas[point]);
      const auto [lp_tape, g_tape] = tape.target.log_density_and_gradient(thetas[point]);
      const double want = lp_torch.item<double>();
      QVERIFY2(std::isfinite(want), qPrintable(QString("point %1: %2").arg(point).arg(want)));
      QVERIFY2(std::abs(lp_tape.item<double>() - want) <= 1e-12 * std::max(1.0, std::abs(want)),
               qPrintable(QString("lp %1 vs %2").arg(lp_tape.item<double>(), 0, 'g', 17).arg(want, 0, 'g', 17)));
      const double scale = std::max(1.0, g_torch.abs().max().item<double>());
      const double error = (g_tape - g_torch).abs().max().item<double>();
      QVERIFY2(error <= 1e-11 * scale, qPrintable(QString("gradient differs by %1 (scale %2)").arg(error).arg(scale)));
    }
    // The gradient of the computed solution: central differences agree to the solver's
    // tolerance (each side solved with its own steps).
    const at::Tensor theta = thetas[0];
    const at::Tensor gradient = std::get<1>(tape.target.log_density_and_gradient(theta));
    for (int64_t i = 0; i < theta.numel(); ++i) {
      const double h = 1e-5;
      at::Tensor up = theta.clone(), down = theta.clone();
      up[i] += h;
      down[i] -= h;
      const double numeric =
          (tape.target.log_density(up).item<double>() - tape.target.log_density(down).item<double>()) / (2 * h);
      const double analytic = gradient[i].item<double>();
      QVERIFY2(std::abs(numeric - analytic) <= 1e-3 * std::max(1.0, std::abs(analytic)),
               qPrintable(QString("d lp / d q%1: %2, differences %3").arg(i).arg(analytic).arg(numeric)));
    }
  }

  // A stiff system given to rk45 with few steps: the point's density is 0 on both
  // backends, counted as a rejection and explained with the solver's message.
  void theStepLimitRejectsThePoint() {
    const std::string model = std::string(kHeader) + kDecay +
                              "k ~ LogNormal(0, 1)\n"
                              "s = ode_rk45_tol(decay, [1.0], 0, ts, 1e-6, 1e-6, 50, k)\n"
                              "z1 = z[:, 1]\nz1 ~ Normal(s[:, 1], 1)\n";
    const auto compiled = model_text::compile(model, kData);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto tape = variate::tape::select_target(*compiled.model, variate::tape::Backend::automatic);
    QVERIFY2(tape.fallback_reason.empty(), tape.fallback_reason.c_str());
    const at::Tensor stiff = at::tensor({std::log(2000.0)}, at::kDouble);  // k = 2000
    const variate::UnconstrainedTarget torch = compiled.model->target();
    for (const variate::UnconstrainedTarget* target : {&tape.target, &torch}) {
      QCOMPARE(target->log_density(stiff).item<double>(), -INFINITY);
      QCOMPARE(target->argument_rejections().count, int64_t{1});
      QVERIFY(std::isfinite(target->log_density(at::tensor({0.0}, at::kDouble)).item<double>()));
    }
    const auto invalid = vm::find_invalid_argument(*compiled.model, stiff);
    QVERIFY(invalid.has_value());
    QVERIFY2(QString(invalid->what())
                 .startsWith("'ode_rk45_tol(decay, [1.0], 0, ts, 1e-6, 1e-6, 50, k)': the ODE "
                             "solver rk45 took more than 50 steps between t = "),
             invalid->what());
  }

  void errors_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no function")
        << "q = ode_rk45(exp, [1.0], 0, ts)\n"
        << "m.vmod:5:14: error: the first argument of 'ode_rk45' is the right-hand side dy/dt: "
           "the name of a function declared as `function f(t: real, y: vector, ...): vector`";
    QTest::newRow("too few arguments") << QString(kDecay) + "q = ode_bdf(decay, [1.0], 0)\n"
                                       << "m.vmod:6:5: error: 'ode_bdf' takes (f, y0, t0, ts, ...), got 3 arguments";
    QTest::newRow("too few for _tol")
        << QString(kDecay) + "q = ode_rk45_tol(decay, [1.0], 0, ts, 0.5)\n"
        << "m.vmod:6:5: error: 'ode_rk45_tol' takes (f, y0, t0, ts, rel_tol, abs_tol, max_num_steps, ...), got 5 "
           "arguments";
    QTest::newRow("a named argument") << QString(kDecay) + "q = ode_rk45(decay, [1.0], 0, ts, k = 0.5)\n"
                                      << "m.vmod:6:35: error: 'ode_rk45' takes its arguments by position (f, y0, t0, "
                                         "ts, ...)";
    QTest::newRow("not a right-hand side")
        << "function g(a: real, b: real): vector = [a, b]\nq = ode_rk45(g, [1.0], 0, ts)\n"
        << "m.vmod:6:14: error: 'g' is not a right-hand side dy/dt: declare it as `function g(t: real, y: vector, "
           "...): vector`";
    QTest::newRow("arity") << QString(kDecay) + "q = ode_rk45(decay, [1.0], 0, ts)\n"
                           << "m.vmod:6:5: error: 'decay' takes 3 arguments, but 'ode_rk45' passes it t, y and the 0 "
                              "arguments after ts";
    QTest::newRow("times from parameters")
        << QString(kDecay) + "u ~ Exponential(1)\nq = ode_rk45(decay, [1.0], 0, ts * u, 0.5)\n"
        << "m.vmod:7:31: error: the output times ts of 'ode_rk45' ('ts * u') must be data: it cannot depend on "
           "parameters";
    QTest::newRow("a passed value of the wrong rank")
        << QString(kDecay) + "q = ode_rk45(decay, [1.0], 0, ts, ts)\n"
        << "m.vmod:6:35: error: argument 3 of 'decay' ('ts') is declared real but has shape [4]";
    QTest::newRow("a state of the wrong size")
        << "function two(t: real, y: vector): vector = [y[1], y[1]]\nq = ode_rk45(two, [1.0], 0, ts)\n"
        << "m.vmod:6:5: error: the right-hand side 'two' has shape [2] for a state of 1 elements";
    QTest::newRow("times out of order")
        << QString(kDecay) + "q = ode_rk45(decay, [1.0], 0, [1, 0.5], 0.5)\n"
        << "m.vmod:6:5: error: ode_rk45: the output times must be increasing and after the initial time 0; time 2 is "
           "0.5";
  }
  void errors() {
    QFETCH(QString, model);
    QFETCH(QString, expected);
    const std::string error = model_text::first_error_of(kHeader + model.toStdString() + "m ~ Normal(0, 1)\n", kData);
    QVERIFY(!error.empty());
    QCOMPARE(QString::fromStdString(error), expected);
  }
};

QTEST_APPLESS_MAIN(TestOdeLanguage)
#include "tst_ode_language.moc"
