// Modes, Hessians and Laplace approximations on posteriors with answers in closed form:
// a conjugate normal mean (mode = posterior mean) and a conjugate variance, whose mode is
// b / (a + 1) without the Jacobian and b / a with it (the mode of log s2's density); the
// likelihood-only target's mode is the MLE. The Hessian agrees with the analytic one (by
// autograd, and through the tape's fused kernels by differences), and the Laplace draws'
// covariance is the inverse Hessian within Monte Carlo error.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/optimize/find_mode.h"
#include "engine/optimize/hessian.h"
#include "engine/optimize/laplace.h"
#include "engine/optimize/maximum_likelihood.h"
#include "engine/tape/compiler/select_target.h"
#include "engine/variate.h"

namespace vt = variate;
namespace vm = variate::model;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);
const std::vector<double> kY = {1.3, -0.4, 2.2, 0.9, 1.7, 0.1, -1.1, 2.8};

// mu ~ Normal(1, 2), y ~ Normal(mu, 0.5): the posterior is normal with precision
// 1/4 + n/0.25 and mean (1/4 + sum(y)/0.25) / precision.
vt::UnconstrainedTarget normal_mean() {
  vt::Data data;
  data.set("y", at::tensor(kY, kDouble));
  auto log_joint = vt::make_log_joint(
      [](const vt::Data& d) {
        auto mu = vt::Normal("mu", 1.0, 2.0);
        vt::Normal("y", at::Tensor(mu) + at::zeros_like(d["y"]), 0.5);
      },
      data);
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

// s2 ~ InvGamma(3, 2), y ~ Normal(0, sqrt(s2)): the posterior is InvGamma(3 + n/2, 2 + sum(y^2)/2).
vt::UnconstrainedTarget normal_variance() {
  vt::Data data;
  data.set("y", at::tensor(kY, kDouble));
  auto log_joint = vt::make_log_joint(
      [](const vt::Data& d) {
        auto s2 = vt::InvGamma("s2", 3.0, 2.0);
        vt::Normal("y", at::zeros_like(d["y"]), at::sqrt(at::Tensor(s2)) + at::zeros_like(d["y"]));
      },
      data);
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

double sum_of_squares() {
  double s = 0;
  for (const double y : kY) s += y * y;
  return s;
}

// CmdStan's default tolerances stop within ~1e-4 of a mode (the relative gradient test);
// the analytic checks ask for the optimum to 1e-6.
vt::LbfgsOptions tight() { return vt::LbfgsOptions().tol_rel_grad(1).tol_rel_obj(1); }

double constrained_s2(const std::vector<double>& q) { return std::exp(q[0]); }

vt::UnconstrainedTarget reference_target(const QString& name) {
  const std::string folder = (QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name + "/").toStdString();
  const auto data = vt::io::read_data_file(folder + "data.json");
  auto result = vm::compile_model(vm::Source(folder + "model.vmod", vt::io::read_text_file(folder + "model.vmod")), &data);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return vt::tape::select_target(*result.model, vt::tape::Backend::automatic).target;
}

}  // namespace

class TestFindMode : public QObject {
  Q_OBJECT

 private slots:
  void findsTheConjugateNormalMode() {
    vt::ModeOptions options;
    options.seed = 3;
    options.lbfgs = tight();
    const vt::ModeResult r = vt::find_mode(normal_mean(), options);
    QVERIFY(vt::converged(r.lbfgs.status));
    double sum = 0;
    for (const double y : kY) sum += y;
    const double precision = 0.25 + kY.size() / 0.25;
    QVERIFY2(std::abs(r.lbfgs.x[0] - (0.25 + sum / 0.25) / precision) < 1e-7, qPrintable(QString::number(r.lbfgs.x[0])));
  }

  void theJacobianMovesTheVarianceMode() {
    const double a = 3 + kY.size() / 2.0, b = 2 + sum_of_squares() / 2;
    vt::ModeOptions options;
    options.seed = 4;
    options.lbfgs = tight();
    const vt::ModeResult plain = vt::find_mode(normal_variance(), options);
    QVERIFY(vt::converged(plain.lbfgs.status));
    QVERIFY2(std::abs(constrained_s2(plain.lbfgs.x) - b / (a + 1)) < 1e-6,
             qPrintable(QString::number(constrained_s2(plain.lbfgs.x))));
    options.jacobian = true;
    const vt::ModeResult with_jacobian = vt::find_mode(normal_variance(), options);
    QVERIFY(std::abs(constrained_s2(with_jacobian.lbfgs.x) - b / a) < 1e-6);
  }

  void theLikelihoodAloneGivesTheMle() {
    vt::ModeOptions options;
    options.seed = 5;
    options.lbfgs = tight();
    const vt::ModeResult r = vt::find_mode(vt::likelihood_only(normal_variance()), options);
    QVERIFY(vt::converged(r.lbfgs.status));
    QVERIFY2(std::abs(constrained_s2(r.lbfgs.x) - sum_of_squares() / kY.size()) < 1e-6,
             qPrintable(QString::number(constrained_s2(r.lbfgs.x))));
  }

  void hessianMatchesTheAnalyticOne() {
    // d^2/dq^2 of log p(log s2) with the Jacobian: -b exp(-q) at any q (the -a q term is linear).
    const double b = 2 + sum_of_squares() / 2;
    const vt::HessianResult h = vt::log_density_hessian(normal_variance(), {0.3}, true);
    QCOMPARE(h.method, std::string("autograd"));
    QVERIFY(std::abs(h.hessian[0][0].item<double>() + b * std::exp(-0.3)) < 1e-8);
  }

  void hessianThroughFusedKernelsFallsBackToDifferences() {
    // kidiq's likelihood is a fused GLM kernel whose backward has no derivative of its own:
    // the autograd Hessian would miss the likelihood's curvature, and the check catches it.
    const vt::UnconstrainedTarget target = reference_target("kidiq-kidscore_momhsiq");
    vt::ModeOptions options;
    options.seed = 1;
    options.jacobian = true;
    const vt::ModeResult mode = vt::find_mode(target, options);
    const vt::HessianResult h = vt::log_density_hessian(target, mode.lbfgs.x, true);
    // The intercept's curvature is about -n / sigma^2 (434 children, sigma ~ 18), not the flat prior's 0.
    QVERIFY2(h.hessian[0][0].item<double>() < -0.5, qPrintable(QString::number(h.hessian[0][0].item<double>())));
    QVERIFY(at::allclose(h.hessian, h.hessian.t()));
  }

  void laplaceDrawsHaveTheInverseHessianAsCovariance() {
    const vt::UnconstrainedTarget target = reference_target("kidiq-kidscore_momhsiq");
    vt::ModeOptions options;
    options.seed = 2;
    options.jacobian = true;
    const vt::ModeResult mode = vt::find_mode(target, options);
    const vt::HessianResult h = vt::log_density_hessian(target, mode.lbfgs.x, true);
    const vt::LaplaceApproximation laplace(mode.lbfgs.x, h.hessian);
    const int64_t n = 20000;
    const auto draws = laplace.draw(target, n, true, 7);
    const at::Tensor centered = draws.unconstrained - draws.unconstrained.mean(0);
    const at::Tensor sample = at::matmul(centered.t(), centered) / (n - 1);
    const at::Tensor expected = laplace.covariance();
    const at::Tensor variances = expected.diagonal();
    // Var(S_ij) = (S_ii S_jj + S_ij^2) / n: within 5 of its standard errors.
    const at::Tensor error = (sample - expected).abs() /
                             at::sqrt((at::outer(variances, variances) + expected * expected) / n);
    QVERIFY2(error.max().item<double>() < 5, qPrintable(QString::number(error.max().item<double>())));
    QVERIFY(at::isfinite(draws.log_p).all().item<bool>());
    QCOMPARE(draws.log_g.size(0), n);
  }

  void aSaddleHasNoLaplaceApproximation() {
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError,
                             vt::LaplaceApproximation({0.0, 0.0}, at::tensor({-1.0, 0.0, 0.0, 1.0}, kDouble).reshape({2, 2})));
  }
};

QTEST_APPLESS_MAIN(TestFindMode)
#include "tst_find_mode.moc"
