// Pathfinder on posteriors with known answers: a strongly correlated, badly scaled
// Gaussian (its best approximation is the posterior, k-hat is low, multi-path draws have
// its moments), a heavy-tailed one (k-hat flags it), and the run's bookkeeping: the same
// seed gives the same draws, a path that cannot start reports why, and preconditioned ADVI
// starts from Pathfinder's estimate or the Laplace one.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/pathfinder/pathfinder.h"
#include "engine/pathfinder/preconditioned_advi.h"
#include "engine/variate.h"

namespace vt = variate;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);

// x ~ MultiNormal(m, S), S with sds 0.01, 1, 100 and correlations up to 0.95.
struct GaussianTarget {
  vt::UnconstrainedTarget target;
  at::Tensor mean, covariance;
};

GaussianTarget gaussian() {
  const at::Tensor sd = at::tensor({0.01, 1.0, 100.0}, kDouble);
  const at::Tensor correlation = at::tensor({1.0, 0.95, -0.5, 0.95, 1.0, -0.3, -0.5, -0.3, 1.0}, kDouble).reshape({3, 3});
  const at::Tensor covariance = correlation * at::outer(sd, sd);
  const at::Tensor mean = at::tensor({1.0, -2.0, 300.0}, kDouble);
  auto log_joint = vt::make_log_joint([=] { vt::MultiNormal("x", mean, covariance); }, vt::Data());
  return {vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint)), mean, covariance};
}

// x ~ StudentT(1, 0, 1) (Cauchy) in 10 dimensions: no Gaussian fits its tails.
vt::UnconstrainedTarget heavy_tailed() {
  auto log_joint = vt::make_log_joint([] { vt::StudentT("x", 1.0, 0.0, 1.0, {10}); }, vt::Data());
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

}  // namespace

class TestPathfinder : public QObject {
  Q_OBJECT

 private slots:
  void aGaussianPosteriorIsFoundExactly() {
    const GaussianTarget g = gaussian();
    const vt::PathResult path = vt::pathfinder_path(g.target, vt::PathfinderOptions().seed(1), 0);
    QVERIFY2(path.failure.empty(), path.failure.c_str());
    QVERIFY(path.best_iteration >= 1);
    const at::Tensor sd = g.covariance.diagonal().sqrt();
    const at::Tensor z = (path.approximation->mean() - g.mean).abs() / sd;
    QVERIFY2(z.max().item<double>() < 0.05, qPrintable(QString::number(z.max().item<double>())));
    // The covariance is L-BFGS's estimate from five curvature pairs: close, not exact.
    const at::Tensor relative = (path.approximation->covariance() - g.covariance).abs() / at::outer(sd, sd);
    QVERIFY2(relative.max().item<double>() < 0.25, qPrintable(QString::number(relative.max().item<double>())));
  }

  void multiPathDrawsHaveThePosteriorsMoments() {
    const GaussianTarget g = gaussian();
    const vt::PathfinderResult fit = vt::pathfinder(g.target, vt::PathfinderOptions().seed(2));
    QCOMPARE(static_cast<int>(fit.paths.size()), 4);
    QCOMPARE(fit.draws.size(0), 1000);
    QVERIFY2(fit.pareto_k < 0.7, qPrintable(QString::number(fit.pareto_k)));
    const at::Tensor sd = g.covariance.diagonal().sqrt();
    // 1000 resampled draws: the mean within 4 of its standard errors, the sd within 15%.
    const at::Tensor z = (fit.draws.mean(0) - g.mean).abs() / (sd / std::sqrt(1000.0));
    QVERIFY2(z.max().item<double>() < 4, qPrintable(QString::number(z.max().item<double>())));
    const at::Tensor ratio = fit.draws.std(0) / sd;
    QVERIFY2((ratio - 1).abs().max().item<double>() < 0.15, qPrintable(QString::number(ratio.max().item<double>())));
    QVERIFY(fit.gradient_evaluations > 0);
  }

  void heavyTailsAreFlagged() {
    const vt::PathfinderResult fit = vt::pathfinder(heavy_tailed(), vt::PathfinderOptions().seed(3));
    QVERIFY2(fit.pareto_k > 0.7, qPrintable(QString::number(fit.pareto_k)));
  }

  void theSameSeedGivesTheSameDraws() {
    const GaussianTarget g = gaussian();
    const auto options = vt::PathfinderOptions().seed(4).num_paths(2).num_draws(50).num_psis_draws(50);
    QVERIFY(at::equal(vt::pathfinder(g.target, options).draws, vt::pathfinder(g.target, options).draws));
    QVERIFY(!at::equal(vt::pathfinder(g.target, options).draws,
                       vt::pathfinder(g.target, vt::PathfinderOptions(options).seed(5)).draws));
  }

  void aPathThatCannotStartSaysWhy() {
    // log p = -inf everywhere: no start, every path fails, and the error names them.
    auto log_joint = vt::make_log_joint(
        [] {
          auto x = vt::Normal("x", 0.0, 1.0);
          vt::Normal("y", at::Tensor(x), 1.0);
        },
        [] {
          vt::Data d;
          d.set("y", at::scalar_tensor(std::numeric_limits<double>::infinity(), kDouble));
          return d;
        }());
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    try {
      vt::pathfinder(target, vt::PathfinderOptions().seed(1).num_paths(2));
      QFAIL("expected an error");
    } catch (const std::exception& e) {
      const QString message = e.what();
      QVERIFY2(message.contains("every path failed") && message.contains("path 2"), qPrintable(message));
    }
  }

  void preconditionedAdviStartsFromAnEstimate() {
    const GaussianTarget g = gaussian();
    std::string fallback;
    const vt::AdviFit fit = vt::preconditioned_advi(g.target, vt::AdviOptions().seed(1), nullptr, nullptr, nullptr, &fallback);
    QVERIFY2(fallback.empty(), fallback.c_str());
    QVERIFY2(fit.start == "laplace" || fit.start == "pathfinder", fit.start.c_str());
    QCOMPARE(fit.family->name(), std::string("meanfield"));
    // Mean-field's optimum for a Gaussian has the exact means.
    const at::Tensor z = (*fit.family->unconstrained_mean() - g.mean).abs() / g.covariance.diagonal().sqrt();
    QVERIFY2(z.max().item<double>() < 0.1, qPrintable(QString::number(z.max().item<double>())));
  }
};

QTEST_APPLESS_MAIN(TestPathfinder)
#include "tst_pathfinder.moc"
