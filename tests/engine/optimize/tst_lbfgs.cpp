// L-BFGS and its line search on functions with known minima: Rosenbrock's valley, an
// ill-conditioned quadratic (condition number 1e6), and a function undefined on half the
// line (the search must step back from infinities); the first step along a huge gradient
// stays short, the tolerances stop it as documented, the observer sees every accepted point
// and can stop the run.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/optimize/lbfgs.h"

namespace vt = variate;

namespace {

double rosenbrock(const std::vector<double>& x, std::vector<double>& g) {
  g.assign(2, 0.0);
  const double a = 1 - x[0], b = x[1] - x[0] * x[0];
  g[0] = -2 * a - 400 * x[0] * b;
  g[1] = 200 * b;
  return a * a + 100 * b * b;
}

// sum_i 10^(6 i / (d - 1)) (x_i - i)^2 / 2: curvatures from 1 to 1e6.
double quadratic(const std::vector<double>& x, std::vector<double>& g) {
  const size_t d = x.size();
  g.assign(d, 0.0);
  double f = 0;
  for (size_t i = 0; i < d; ++i) {
    const double c = std::pow(10.0, 6.0 * i / (d - 1));
    f += 0.5 * c * (x[i] - i) * (x[i] - i);
    g[i] = c * (x[i] - i);
  }
  return f;
}

// x - log(x) (minimum at 1), +inf for x <= 0.
double log_barrier(const std::vector<double>& x, std::vector<double>& g) {
  g.assign(1, 0.0);
  if (x[0] <= 0) return std::numeric_limits<double>::infinity();
  g[0] = 1 - 1 / x[0];
  return x[0] - std::log(x[0]);
}

}  // namespace

class TestLbfgs : public QObject {
  Q_OBJECT

 private slots:
  void findsRosenbrocksMinimum() {
    const vt::LbfgsResult r = vt::minimize_lbfgs(rosenbrock, {-1.2, 1.0}, vt::LbfgsOptions());
    QVERIFY2(vt::converged(r.status), vt::describe(r.status).c_str());
    QVERIFY2(std::abs(r.x[0] - 1) < 1e-4 && std::abs(r.x[1] - 1) < 1e-4,
             qPrintable(QString("%1 %2").arg(r.x[0]).arg(r.x[1])));
    QVERIFY(r.value < 1e-8);
    QVERIFY(r.iterations < 100);
  }

  void handlesIllConditioning() {
    const vt::LbfgsResult r = vt::minimize_lbfgs(quadratic, std::vector<double>(8, 0.0),
                                                 vt::LbfgsOptions().max_iterations(5000));
    QVERIFY2(vt::converged(r.status), vt::describe(r.status).c_str());
    // The flattest direction (curvature 1) is the hardest: it must be within 1e-3 too.
    for (size_t i = 0; i < r.x.size(); ++i) QVERIFY2(std::abs(r.x[i] - i) < 1e-3, qPrintable(QString::number(r.x[i])));
  }

  void stepsBackFromInfinities() {
    // A trial step of 100 from x = 10 lands at -90, where f is +inf: the search zooms back.
    vt::LinePoint start;
    start.x = {10.0};
    start.value = log_barrier(start.x, start.gradient);
    start.slope = -start.gradient[0];
    const vt::LineSearchResult search = vt::strong_wolfe_search(log_barrier, start, {1.0 * -1}, 100.0);
    QVERIFY(search.found);
    QVERIFY2(search.point.x[0] > 0 && search.point.x[0] < 10, qPrintable(QString::number(search.point.x[0])));
    QVERIFY(search.point.value < start.value);
    // And L-BFGS from there reaches the minimum.
    const vt::LbfgsResult r =
        vt::minimize_lbfgs(log_barrier, {10.0}, vt::LbfgsOptions().tol_rel_grad(1).tol_rel_obj(1));
    QVERIFY2(vt::converged(r.status), vt::describe(r.status).c_str());
    QVERIFY2(std::abs(r.x[0] - 1) < 1e-6, qPrintable(QString::number(r.x[0])));
  }

  void theFirstStepIsAtMostOneLong() {
    // A gradient of 1e12 (a scale far from its data's): Stan's init_alpha alone would step 1e9.
    std::vector<double> seen;
    const auto steep = [](const std::vector<double>& x, std::vector<double>& g) {
      g.assign(1, 1e12 * (x[0] - 3) / (1 + std::abs(x[0] - 3)));
      return 1e12 * (std::abs(x[0] - 3) - std::log1p(std::abs(x[0] - 3)));
    };
    vt::minimize_lbfgs(steep, {0.0}, vt::LbfgsOptions().max_iterations(1), [&](const vt::LbfgsIterate& i) {
      seen.push_back(i.x[0]);
      return true;
    });
    QCOMPARE(static_cast<int>(seen.size()), 2);
    QVERIFY2(std::abs(seen[1]) < 10, qPrintable(QString::number(seen[1])));
  }

  void tolerancesStopAsDocumented() {
    // A loose relative-gradient tolerance stops early, and says which test fired.
    const vt::LbfgsResult loose =
        vt::minimize_lbfgs(rosenbrock, {-1.2, 1.0}, vt::LbfgsOptions().tol_rel_grad(1e14).tol_rel_obj(0));
    QCOMPARE(loose.status, vt::LbfgsStatus::converged_relative_gradient);
    const vt::LbfgsResult capped = vt::minimize_lbfgs(rosenbrock, {-1.2, 1.0}, vt::LbfgsOptions().max_iterations(3));
    QCOMPARE(capped.status, vt::LbfgsStatus::max_iterations);
    QCOMPARE(capped.iterations, 3);
    QVERIFY(vt::describe(capped.status).find("Maximum number of iterations") != std::string::npos);
  }

  void observerSeesEveryPointAndCanStop() {
    std::vector<int> seen;
    const vt::LbfgsResult r = vt::minimize_lbfgs(rosenbrock, {-1.2, 1.0}, vt::LbfgsOptions(),
                                                 [&](const vt::LbfgsIterate& i) {
                                                   seen.push_back(i.iteration);
                                                   return i.iteration < 5;
                                                 });
    QCOMPARE(r.status, vt::LbfgsStatus::stopped);
    QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  }

  void aNonFiniteStartIsAnError() {
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::minimize_lbfgs(log_barrier, {-1.0}, vt::LbfgsOptions()));
  }
};

QTEST_APPLESS_MAIN(TestLbfgs)
#include "tst_lbfgs.moc"
