// The ELBO estimate and its gradients against closed forms: a Gaussian target (ELBO =
// -KL), a positive variable through its bijector (ELBO = 0 when q is the posterior), the
// "sticking the landing" gradient's zero variance at the optimum; approximation draws.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/variate.h"
#include "engine/vi/elbo.h"
#include "engine/vi/variational_draws.h"
#include "engine/vi/variational_meanfield.h"

namespace vt = variate;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);
constexpr double kM0 = 1.5, kS0 = 2.0;

// x ~ Normal(1.5, 2): a normalized density, so the ELBO of q is -KL(q || p).
vt::UnconstrainedTarget gaussian() {
  auto log_joint = vt::make_log_joint([] { vt::Normal("x", kM0, kS0); });
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

at::Generator generator(uint64_t seed) { return at::make_generator<at::CPUGeneratorImpl>(seed); }

void set(const vt::MeanFieldGaussian& q, double m, double log_s) {
  at::NoGradGuard no_grad;
  q.mu().fill_(m);
  q.omega().fill_(log_s);
}

// Mean and standard error of `calls` single-draw gradients (one tensor each for mu, omega).
std::pair<at::Tensor, at::Tensor> gradient_moments(const vt::Elbo& elbo, const vt::MeanFieldGaussian& q,
                                                   int calls) {
  at::Generator g = generator(21);
  std::vector<at::Tensor> rows;
  for (int i = 0; i < calls; ++i) {
    const auto r = elbo.value_and_gradient(q, 1, g);
    rows.push_back(at::cat({r.gradient[0], r.gradient[1]}));
  }
  const at::Tensor all = at::stack(rows);
  return {all.mean(0), all.std(0) / std::sqrt(static_cast<double>(calls))};
}

}  // namespace

class TestElbo : public QObject {
  Q_OBJECT

 private slots:
  void estimateIsMinusKl_data() {
    QTest::addColumn<bool>("analytic");
    QTest::newRow("closed-form entropy") << true;
    QTest::newRow("-log q") << false;
  }
  void estimateIsMinusKl() {
    QFETCH(bool, analytic);
    const auto target = gaussian();
    vt::MeanFieldGaussian q(target.layout());
    const double m = 0.3, s = 1.2;
    set(q, m, std::log(s));
    const double kl = std::log(kS0 / s) + (s * s + (m - kM0) * (m - kM0)) / (2 * kS0 * kS0) - 0.5;
    const auto e = vt::Elbo(target, {analytic, true}).estimate(q, 20000, generator(1));
    const at::Tensor terms = analytic ? e.log_p : e.log_p - e.log_q;
    const double se = (terms.std() / std::sqrt(20000.0)).item<double>();
    qInfo("ELBO %.5f vs -KL %.5f (se %.5f)", e.elbo, -kl, se);
    QVERIFY(std::abs(e.elbo + kl) < 5 * se);
  }

  // Both estimators are unbiased: d(-KL)/dm = -(m - m0) / s0^2 and
  // d(-KL)/d log s = 1 - s^2 / s0^2.
  void gradientsMatchTheClosedForm_data() {
    QTest::addColumn<bool>("stl");
    QTest::newRow("sticking the landing") << true;
    QTest::newRow("closed-form entropy") << false;
  }
  void gradientsMatchTheClosedForm() {
    QFETCH(bool, stl);
    const auto target = gaussian();
    vt::MeanFieldGaussian q(target.layout());
    const double m = 0.3, s = 1.2;
    set(q, m, std::log(s));
    const auto [mean, se] = gradient_moments(vt::Elbo(target, {true, stl}), q, 2000);
    const double expected[2] = {-(m - kM0) / (kS0 * kS0), 1 - s * s / (kS0 * kS0)};
    for (int i = 0; i < 2; ++i) {
      qInfo("gradient %d: %.4f vs %.4f (se %.4f)", i, mean[i].item<double>(), expected[i],
            se[i].item<double>());
      QVERIFY(std::abs(mean[i].item<double>() - expected[i]) < 5 * se[i].item<double>());
    }
  }

  // Roeder et al.'s point: at q = p every single-draw STL gradient is zero; the
  // closed-form-entropy estimator still scatters.
  void stickingTheLandingHasNoVarianceAtTheOptimum() {
    const auto target = gaussian();
    vt::MeanFieldGaussian q(target.layout());
    set(q, kM0, std::log(kS0));
    const auto [stl_mean, stl_se] = gradient_moments(vt::Elbo(target, {true, true}), q, 50);
    QVERIFY(stl_mean.abs().max().item<double>() < 1e-12);
    QVERIFY(stl_se.max().item<double>() < 1e-12);
    const auto [mean, se] = gradient_moments(vt::Elbo(target, {true, false}), q, 50);
    QVERIFY(se.min().item<double>() > 1e-3);
  }

  // x ~ LogNormal(0.4, 0.6) lives on (0, inf); q = Normal(0.4, 0.6) on log x is the
  // posterior itself, so every draw's log p + log|J| - log q is log Z = 0: the Jacobian
  // of the model's bijector is in the ELBO.
  void positiveVariableGoesThroughItsBijector() {
    auto log_joint = vt::make_log_joint([] { vt::LogNormal("x", 0.4, 0.6); });
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    vt::MeanFieldGaussian q(target.layout());
    set(q, 0.4, std::log(0.6));
    const auto e = vt::Elbo(target, {false, true}).estimate(q, 100, generator(2));
    QVERIFY(std::abs(e.elbo) < 1e-12);
    QVERIFY(at::allclose(e.log_p, e.log_q, 0, 1e-12));
    const auto g = vt::Elbo(target).value_and_gradient(q, 5, generator(3));
    QVERIFY(at::cat(g.gradient).abs().max().item<double>() < 1e-10);
  }

  void approximationDrawsCarryCmdStansColumns() {
    const auto target = gaussian();
    vt::MeanFieldGaussian q(target.layout());
    set(q, 0.3, std::log(1.2));
    const auto draws = vt::sample_approximation(target, q, 500, generator(4));
    QCOMPARE(draws.unconstrained.sizes(), (c10::IntArrayRef{500, 1}));
    QVERIFY(at::allclose(draws.mean, at::full({1}, 0.3, kDouble)));
    QVERIFY(at::allclose(draws.log_p, target.log_density(draws.unconstrained)));
    const auto normal = vt::distributions::Normal(at::full({}, 0.3, kDouble), at::full({}, 1.2, kDouble));
    QVERIFY(at::allclose(draws.log_g, normal.log_prob(draws.unconstrained.squeeze(1))));
    QVERIFY(!draws.unconstrained.requires_grad());
    // The same generator state gives the same draws.
    const auto again = vt::sample_approximation(target, q, 500, generator(4));
    QVERIFY(at::equal(again.unconstrained, draws.unconstrained));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::sample_approximation(target, q, 0, generator(4)));
  }
};

QTEST_APPLESS_MAIN(TestElbo)
#include "tst_elbo.moc"
