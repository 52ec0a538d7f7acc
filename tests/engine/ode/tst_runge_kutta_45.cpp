// The Dormand-Prince 5(4) solver against analytic solutions (exponential decay, the
// harmonic oscillator) to its tolerances, its forward sensitivities against the analytic
// ones and against central finite differences (Lotka-Volterra), tighter tolerances giving
// smaller errors, and a stiff problem failing with a clear message at its step limit.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/ode/runge_kutta_45.h"
#include "tests/support/ode_systems.h"

namespace vo = variate::ode;
using ode_systems::decay;
using ode_systems::linspace;
using ode_systems::lotka_volterra;

namespace {

// y1' = y2, y2' = -w^2 y1, theta = {w}.
vo::OdeSystem oscillator(double w) {
  vo::OdeSystem s;
  s.states = 2;
  s.parameters = 1;
  s.rhs = [w](double, const double* y, double* dydt) {
    dydt[0] = y[1];
    dydt[1] = -w * w * y[0];
  };
  s.jacobians = [w](double, const double* y, double* jy, double* jtheta) {
    jy[0] = 0, jy[1] = 1, jy[2] = -w * w, jy[3] = 0;
    jtheta[0] = 0, jtheta[1] = -2 * w * y[0];
  };
  return s;
}

}  // namespace

class TestRungeKutta45 : public QObject {
  Q_OBJECT

 private slots:
  void exponentialDecayAndItsSensitivities() {
    const double k = 0.7, y0 = 2.5;
    const std::vector<double> times = linspace(0, 10, 20);
    const vo::OdeSolution s = vo::solve_rk45(decay(k), 0, {y0}, times, {}, true);
    QCOMPARE(s.values.size(), times.size());
    for (size_t i = 0; i < times.size(); ++i) {
      const double exact = y0 * std::exp(-k * times[i]);
      QVERIFY2(std::abs(s.values[i] - exact) <= 1e-5 * (1 + exact), qPrintable(QString::number(s.values[i] - exact)));
      // d y / d y0 = exp(-k t), d y / d k = -t y.
      QVERIFY(std::abs(s.sensitivities[2 * i] - std::exp(-k * times[i])) <= 1e-5);
      QVERIFY(std::abs(s.sensitivities[2 * i + 1] + times[i] * exact) <= 1e-5 * (1 + times[i] * exact));
    }
  }

  void harmonicOscillator() {
    const double w = 2.0;
    const std::vector<double> times = linspace(0, 10, 40);
    const vo::OdeSolution s = vo::solve_rk45(oscillator(w), 0, {1, 0}, times, {}, true);
    for (size_t i = 0; i < times.size(); ++i) {
      const double t = times[i];
      QVERIFY2(std::abs(s.values[2 * i] - std::cos(w * t)) <= 2e-5, qPrintable(QString::number(t)));
      QVERIFY(std::abs(s.values[2 * i + 1] + w * std::sin(w * t)) <= 4e-5);
      // d y1 / d w = -t sin(w t): column 2 (after y0's two) of row 0.
      QVERIFY2(std::abs(s.sensitivities[(2 * i) * 3 + 2] + t * std::sin(w * t)) <= 1e-4,
               qPrintable(QString("t = %1: %2").arg(t).arg(s.sensitivities[(2 * i) * 3 + 2] + t * std::sin(w * t))));
    }
  }

  void tighterTolerancesGiveSmallerErrors() {
    const std::vector<double> times = {10};
    double previous = INFINITY;
    for (const double tolerance : {1e-4, 1e-6, 1e-8, 1e-10}) {
      const vo::OdeSolution s =
          vo::solve_rk45(oscillator(2.0), 0, {1, 0}, times, {tolerance, tolerance, 1000000}, false);
      const double error = std::abs(s.values[0] - std::cos(20.0));
      QVERIFY2(error < previous, qPrintable(QString("%1: %2").arg(tolerance).arg(error)));
      QVERIFY2(error <= 100 * tolerance, qPrintable(QString("%1: %2").arg(tolerance).arg(error)));
      QVERIFY(s.sensitivities.empty());
      previous = error;
    }
  }

  // Lotka-Volterra's sensitivities against central differences of the solution.
  void sensitivitiesEqualFiniteDifferences() {
    const std::string problem = ode_systems::sensitivity_problem(vo::solve_rk45, {1e-10, 1e-10, 1000000}, 1e-4);
    QVERIFY2(problem.empty(), problem.c_str());
  }

  // y' = -1000 (y - cos t): stiff; rk45's steps stay ~2.8 / 1000 long however smooth y is.
  void aStiffProblemStopsAtTheStepLimit() {
    vo::OdeSystem stiff;
    stiff.states = 1;
    stiff.rhs = [](double t, const double* y, double* dydt) { dydt[0] = -1000 * (y[0] - std::cos(t)); };
    bool thrown = false;
    try {
      vo::solve_rk45(stiff, 0, {0}, {10}, {1e-6, 1e-6, 500}, false);
    } catch (const vo::StepLimitError& e) {
      thrown = true;
      QCOMPARE(QString(e.what()),
               QString("the ODE solver rk45 took more than 500 steps between t = ") +
                   QString(e.what()).section("between t = ", 1).section(' ', 0, 0) +
                   " and t = 10 (max_num_steps); the system may be stiff: use the stiff solver, ode_bdf, "
                   "or allow more steps");
    }
    QVERIFY(thrown);
    // With the default limit it gets there, near cos t.
    const vo::OdeSolution s = vo::solve_rk45(stiff, 0, {0}, {10}, {}, false);
    QVERIFY(std::abs(s.values[0] - std::cos(10.0)) <= 1e-3);
  }

  void refusesBadArguments() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_rk45(decay(1), 0, {1}, {1, 0.5}, {}, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_rk45(decay(1), 0, {1}, {0}, {}, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_rk45(decay(1), 0, {1, 2}, {1}, {}, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_rk45(decay(1), 0, {1}, {1}, {0, 1e-6, 10}, false));
  }
};

QTEST_APPLESS_MAIN(TestRungeKutta45)
#include "tst_runge_kutta_45.moc"
