// The stiff solver (SDIRK4) against analytic solutions (exponential decay, a stiff linear
// system with eigenvalues -1 and -1000, y' = -lambda (y - cos t)) to its tolerances, in
// few steps where rk45 needs thousands; its sensitivities against the analytic ones and
// central finite differences (Lotka-Volterra); the step limit's message.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/ode/runge_kutta_45.h"
#include "engine/ode/sdirk4.h"
#include "tests/support/ode_systems.h"

namespace vo = variate::ode;
using ode_systems::decay;
using ode_systems::linspace;
using ode_systems::lotka_volterra;

namespace {

// y' = A y, A = [[-2, 1], [998, -999]]: eigenvalues -1 (vector (1, 1)) and -1000 (vector
// (1, -998)); theta = {} .
vo::OdeSystem stiff_linear() {
  vo::OdeSystem s;
  s.states = 2;
  s.rhs = [](double, const double* y, double* dydt) {
    dydt[0] = -2 * y[0] + y[1];
    dydt[1] = 998 * y[0] - 999 * y[1];
  };
  s.jacobians = [](double, const double*, double* jy, double*) { jy[0] = -2, jy[1] = 1, jy[2] = 998, jy[3] = -999; };
  return s;
}

// y' = -lambda (y - cos t), theta = {lambda}.
vo::OdeSystem relaxation(double lambda) {
  vo::OdeSystem s;
  s.states = 1;
  s.parameters = 1;
  s.rhs = [lambda](double t, const double* y, double* dydt) { dydt[0] = -lambda * (y[0] - std::cos(t)); };
  s.jacobians = [lambda](double t, const double* y, double* jy, double* jtheta) {
    jy[0] = -lambda;
    jtheta[0] = -(y[0] - std::cos(t));
  };
  return s;
}

// Its solution from y(0) = 0.
double relaxation_solution(double lambda, double t) {
  const double l2 = lambda * lambda;
  return (l2 * std::cos(t) + lambda * std::sin(t) - l2 * std::exp(-lambda * t)) / (l2 + 1);
}

}  // namespace

class TestSdirk4 : public QObject {
  Q_OBJECT

 private slots:
  void exponentialDecayAndItsSensitivities() {
    const double k = 0.7, y0 = 2.5;
    const std::vector<double> times = linspace(0, 10, 20);
    const vo::OdeSolution s = vo::solve_sdirk4(decay(k), 0, {y0}, times, {}, true);
    QCOMPARE(s.values.size(), times.size());
    for (size_t i = 0; i < times.size(); ++i) {
      const double exact = y0 * std::exp(-k * times[i]);
      QVERIFY2(std::abs(s.values[i] - exact) <= 1e-5 * (1 + exact), qPrintable(QString::number(s.values[i] - exact)));
      QVERIFY(std::abs(s.sensitivities[2 * i] - std::exp(-k * times[i])) <= 1e-5);
      QVERIFY2(std::abs(s.sensitivities[2 * i + 1] + times[i] * exact) <= 1e-5 * (1 + times[i] * exact),
               qPrintable(QString("t = %1: %2").arg(times[i]).arg(s.sensitivities[2 * i + 1] + times[i] * exact)));
    }
  }

  void aStiffLinearSystemInFewSteps() {
    const std::vector<double> times = {0.001, 0.01, 0.1, 1, 5, 10, 20};
    // y(0) = (1, 1) + (1, -998): both modes present.
    const vo::OdeSolution s = vo::solve_sdirk4(stiff_linear(), 0, {2, -997}, times, {1e-6, 1e-6, 400}, false);
    for (size_t k = 0; k < times.size(); ++k) {
      const double slow = std::exp(-times[k]), fast = std::exp(-1000 * times[k]);
      const double exact[2] = {slow + fast, slow - 998 * fast};
      for (int i = 0; i < 2; ++i) {
        QVERIFY2(std::abs(s.values[2 * k + i] - exact[i]) <= 1e-4 * (1 + std::abs(exact[i])),
                 qPrintable(
                     QString("y%1(%2) = %3, exactly %4").arg(i).arg(times[k]).arg(s.values[2 * k + i]).arg(exact[i])));
      }
    }
    // rk45 cannot take the same problem in the same number of steps.
    QVERIFY_THROWS_EXCEPTION(vo::StepLimitError,
                             vo::solve_rk45(stiff_linear(), 0, {2, -997}, times, {1e-6, 1e-6, 400}, false));
  }

  void stiffRelaxationAndItsSensitivity() {
    const double lambda = 1000;
    const std::vector<double> times = linspace(0, 10, 10);
    const vo::OdeSolution s = vo::solve_sdirk4(relaxation(lambda), 0, {0}, times, {1e-6, 1e-6, 500}, true);
    for (size_t k = 0; k < times.size(); ++k) {
      const double t = times[k], exact = relaxation_solution(lambda, t);
      QVERIFY2(std::abs(s.values[k] - exact) <= 1e-5, qPrintable(QString::number(s.values[k] - exact)));
      const double h = 1e-3;  // d y / d lambda by central differences of the analytic solution
      const double derivative = (relaxation_solution(lambda + h, t) - relaxation_solution(lambda - h, t)) / (2 * h);
      QVERIFY2(std::abs(s.sensitivities[2 * k + 1] - derivative) <= 1e-6,
               qPrintable(QString("%1 against %2").arg(s.sensitivities[2 * k + 1]).arg(derivative)));
    }
  }

  void tighterTolerancesGiveSmallerErrors() {
    double previous = INFINITY;
    for (const double tolerance : {1e-4, 1e-6, 1e-8}) {
      const vo::OdeSolution s = vo::solve_sdirk4(decay(0.7), 0, {1}, {5}, {tolerance, tolerance, 1000000}, false);
      const double error = std::abs(s.values[0] - std::exp(-3.5));
      QVERIFY2(error < previous, qPrintable(QString("%1: %2").arg(tolerance).arg(error)));
      QVERIFY2(error <= 100 * tolerance, qPrintable(QString("%1: %2").arg(tolerance).arg(error)));
      previous = error;
    }
  }

  // The sensitivities are the derivatives of the computed solution: central differences
  // of it agree closely at tight tolerances.
  void sensitivitiesEqualFiniteDifferences() {
    const std::string problem = ode_systems::sensitivity_problem(vo::solve_sdirk4, {1e-9, 1e-9, 1000000}, 1e-3);
    QVERIFY2(problem.empty(), problem.c_str());
  }

  void theStepLimitStopsIt() {
    bool thrown = false;
    try {
      vo::solve_sdirk4(decay(1), 0, {1}, {100}, {1e-10, 1e-10, 20}, false);
    } catch (const vo::StepLimitError& e) {
      thrown = true;
      QVERIFY2(QString(e.what()).startsWith("the ODE solver bdf (SDIRK4) took more than 20 steps between t = "),
               e.what());
      QVERIFY(QString(e.what()).endsWith(" and t = 100 (max_num_steps); loosen the tolerances, or allow more steps"));
    }
    QVERIFY(thrown);
  }

  void refusesBadArguments() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_sdirk4(decay(1), 0, {1}, {1, 0.5}, {}, false));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vo::solve_sdirk4(decay(1), 0, {1, 2}, {1}, {}, false));
  }
};

QTEST_APPLESS_MAIN(TestSdirk4)
#include "tst_sdirk4.moc"
