// Variational programs, Edward2-style: a mean-field family written by hand with the
// random-variable API gives the same ELBO (same seed) as the built-in one; variables on
// the model's own scale; the full-rank family as a chain of conditionals is the joint
// Gaussian; and the errors that name the variable.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/variate.h"
#include "engine/vi/elbo.h"
#include "engine/vi/variational_draws.h"
#include "engine/vi/variational_entropy.h"
#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"
#include "engine/vi/variational_program.h"

namespace vt = variate;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);

// Eight schools, non-centered: mu (real), tau (positive), theta_trans[8] (real).
vt::UnconstrainedTarget eight_schools() {
  vt::Data data;
  data.set("J", int64_t{8})
      .set("y", at::tensor({28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0}, kDouble))
      .set("sigma", at::tensor({15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0}, kDouble));
  auto log_joint = vt::make_log_joint(
      [](const vt::Data& d) {
        auto mu = vt::Normal("mu", 0.0, 5.0);
        auto tau = vt::HalfCauchy("tau", 5.0);
        auto theta_trans = vt::Normal("theta_trans", 0.0, 1.0, {d.dim("J")});
        vt::Normal("y", theta_trans * tau + mu, d["sigma"]);
      },
      data);
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

at::Generator generator(uint64_t seed) { return at::make_generator<at::CPUGeneratorImpl>(seed); }

at::Tensor leaf(const at::Tensor& value) { return value.detach().clone().requires_grad_(true); }

// The built-in family's parameters set to something other than its start.
void perturb(const vt::VariationalFamily& family, uint64_t seed) {
  at::NoGradGuard no_grad;
  at::Generator g = generator(seed);
  for (const auto& p : family.parameters()) p.copy_(0.5 * at::normal(0.0, 1.0, p.sizes(), g, kDouble));
}

}  // namespace

class TestVariationalProgram : public QObject {
  Q_OBJECT

 private slots:
  // The acceptance test of Edward2-style programs: what ADVI optimizes is an ordinary
  // program of random variables.
  void handWrittenMeanFieldMatchesBuiltIn() {
    const auto target = eight_schools();
    const auto& layout = target.layout();
    vt::MeanFieldGaussian built_in(layout);
    perturb(built_in, 1);
    const at::Tensor mu = built_in.mu().detach(), omega = built_in.omega().detach();
    const auto slice = [&](const at::Tensor& t, const char* name) {
      const auto& p = layout[name];
      return leaf(t.narrow(0, p.offset, p.size).reshape(p.unconstrained_shape));
    };
    // One loc and one log-scale per variable, as one would write it in Edward2; tau's
    // Normal is on the unconstrained (log) scale: its support is the real line.
    const at::Tensor mu_loc = slice(mu, "mu"), mu_log_scale = slice(omega, "mu");
    const at::Tensor tau_loc = slice(mu, "tau"), tau_log_scale = slice(omega, "tau");
    const at::Tensor theta_loc = slice(mu, "theta_trans"), theta_log_scale = slice(omega, "theta_trans");
    vt::VariationalProgram by_hand(
        [=] {
          vt::Normal("mu", mu_loc, at::exp(mu_log_scale));
          vt::Normal("tau", tau_loc, at::exp(tau_log_scale));
          vt::Normal("theta_trans", theta_loc, at::exp(theta_log_scale));
        },
        {mu_loc, mu_log_scale, tau_loc, tau_log_scale, theta_loc, theta_log_scale});

    for (const bool stl : {true, false}) {
      const vt::Elbo elbo(target, {true, stl});
      QCOMPARE(elbo.estimate(by_hand, 100, generator(7)).elbo,
               elbo.estimate(built_in, 100, generator(7)).elbo);
      const auto ours = elbo.value_and_gradient(by_hand, 3, generator(8));
      const auto theirs = elbo.value_and_gradient(built_in, 3, generator(8));
      QCOMPARE(ours.elbo, theirs.elbo);
      // The built-in gradient, cut into the hand-written program's pieces.
      const at::Tensor d_mu = theirs.gradient[0], d_omega = theirs.gradient[1];
      const std::vector<at::Tensor> expected = {
          d_mu.narrow(0, 0, 1).reshape({}), d_omega.narrow(0, 0, 1).reshape({}),
          d_mu.narrow(0, 1, 1).reshape({}), d_omega.narrow(0, 1, 1).reshape({}),
          d_mu.narrow(0, 2, 8), d_omega.narrow(0, 2, 8)};
      for (size_t i = 0; i < expected.size(); ++i) {
        QVERIFY2(at::allclose(ours.gradient[i], expected[i], 1e-12, 1e-12), qPrintable(QString::number(i)));
      }
    }
    QVERIFY(elbo_differs_with_seed(target, built_in));
  }

  // A variable may live on the model's scale: a LogNormal for tau is the same
  // approximation as a Normal for log tau.
  void variableOnTheModelScaleMatchesTheUnconstrainedOne() {
    const auto target = eight_schools();
    const at::Tensor loc = leaf(at::full({}, 0.7, kDouble)), log_scale = leaf(at::full({}, -0.4, kDouble));
    const at::Tensor theta_loc = leaf(at::zeros({8}, kDouble)), mu_loc = leaf(at::full({}, 4.0, kDouble));
    const auto rest = [=] {
      vt::Normal("mu", mu_loc, 2.0);
      vt::Normal("theta_trans", theta_loc, 1.0);
    };
    vt::VariationalProgram unconstrained([=] {
      rest();
      vt::Normal("tau", loc, at::exp(log_scale));
    }, {loc, log_scale, theta_loc, mu_loc});
    vt::VariationalProgram on_model_scale([=] {
      rest();
      vt::LogNormal("tau", loc, at::exp(log_scale));
    }, {loc, log_scale, theta_loc, mu_loc});
    const vt::Elbo elbo(target, {false, true});  // -log q entropy terms on both sides
    const auto a = elbo.estimate(unconstrained, 200, generator(3));
    const auto b = elbo.estimate(on_model_scale, 200, generator(3));
    QVERIFY(std::abs(a.elbo - b.elbo) < 1e-9);
    QVERIFY(at::allclose(a.log_q, b.log_q, 1e-10, 1e-10));
    QVERIFY(at::allclose(a.unconstrained, b.unconstrained, 1e-12, 1e-12));
    const auto ga = elbo.value_and_gradient(unconstrained, 4, generator(4));
    const auto gb = elbo.value_and_gradient(on_model_scale, 4, generator(4));
    for (size_t i = 0; i < ga.gradient.size(); ++i) {
      QVERIFY(at::allclose(ga.gradient[i], gb.gradient[i], 1e-8, 1e-10));
    }
  }

  // With a diagonal factor the full-rank program draws exactly what the mean-field one does.
  void fullRankWithDiagonalFactorMatchesMeanField() {
    const auto target = eight_schools();
    vt::MeanFieldGaussian mean_field(target.layout());
    perturb(mean_field, 2);
    vt::FullRankGaussian full_rank(target.layout(), mean_field.mu().detach());
    {
      at::NoGradGuard no_grad;
      full_rank.parameters()[2].copy_(mean_field.omega());
    }
    const vt::Elbo elbo(target);
    const auto a = elbo.estimate(mean_field, 50, generator(9));
    const auto b = elbo.estimate(full_rank, 50, generator(9));
    QVERIFY(at::allclose(a.unconstrained, b.unconstrained, 1e-12, 1e-12));
    QVERIFY(std::abs(a.elbo - b.elbo) < 1e-9);
  }

  // The chain of conditionals (one random variable per model variable) is N(mu, L L^T).
  void fullRankProgramIsTheJointGaussian() {
    const auto target = eight_schools();
    vt::FullRankGaussian q(target.layout());
    perturb(q, 3);
    const auto draws = vt::draw_variational(q, target.layout(), 20, generator(5));
    const at::Tensor l = q.scale_tril().detach();
    const auto joint = vt::distributions::MultiNormal(q.mu().detach(), vt::scale_tril(l));
    QVERIFY(at::allclose(draws.log_q, joint.log_prob(draws.unconstrained), 1e-9, 1e-9));
    // The closed-form entropies of the conditionals add up to the joint's.
    const double d = 10;
    const double entropy = l.diagonal().log().sum().item<double>() + 0.5 * d * std::log(2 * M_PI * M_E);
    QVERIFY(at::allclose(draws.entropy, at::full({20}, entropy, kDouble), 1e-10, 1e-10));
    QVERIFY(at::allclose(q.covariance(), at::matmul(l, l.t())));
  }

  void analyticEntropyIsTheMeanOfMinusLogQ() {
    const auto target = eight_schools();
    vt::MeanFieldGaussian q(target.layout());
    perturb(q, 4);
    at::NoGradGuard no_grad;
    const auto draws = vt::draw_variational(q, target.layout(), 4000, generator(6), true);
    const double closed_form = draws.entropy[0].item<double>();
    QCOMPARE(closed_form, (q.omega().sum() + 5 * std::log(2 * M_PI * M_E)).item<double>());
    const at::Tensor minus_log_q = -draws.log_q;
    const double se = (minus_log_q.std() / std::sqrt(4000.0)).item<double>();
    QVERIFY(std::abs(minus_log_q.mean().item<double>() - closed_form) < 5 * se);
    // Families without a closed form give none.
    vt::Trace trace;
    {
      vt::TracerScope scope(trace);
      vt::Gamma("x", 2.0, 1.0);
    }
    QVERIFY(!vt::analytic_entropy(trace["x"]));
  }

  void snapshotAndRestore() {
    const auto target = eight_schools();
    vt::MeanFieldGaussian q(target.layout());
    const auto saved = vt::snapshot_parameters(q);
    perturb(q, 5);
    QVERIFY(!at::equal(q.mu(), saved[0]));
    vt::restore_parameters(q, saved);
    QVERIFY(at::equal(q.mu(), saved[0]) && at::equal(q.omega(), saved[1]));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::restore_parameters(q, {saved[0]}));
  }

  void errorsNameTheVariable_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << 0 << "no variable for the model's latent variable 'tau'";
    QTest::newRow("unknown") << 1 << "'nu' is not a latent variable of the model";
    QTest::newRow("twice") << 2 << "two random variables named 'mu'";
    QTest::newRow("shape") << 3 << "'theta_trans' has shape [7]";
    QTest::newRow("support") << 4 << "'tau' has support interval(0, 1)";
  }
  void errorsNameTheVariable() {
    QFETCH(int, which);
    QFETCH(QString, message);
    const auto target = eight_schools();
    const at::Tensor loc = leaf(at::zeros({}, kDouble));
    vt::VariationalProgram q([which, loc] {
      vt::Normal("mu", loc, 1.0);
      if (which == 2) vt::Normal("mu", loc, 1.0);
      vt::Normal("theta_trans", at::zeros({which == 3 ? 7 : 8}, kDouble), 1.0);
      if (which == 1) vt::Normal("nu", 0.0, 1.0);
      if (which == 4) vt::Beta("tau", 2.0, 2.0);
      if (which != 0 && which != 4) vt::Normal("tau", 0.0, 1.0);
    }, {loc});
    try {
      vt::draw_variational(q, target.layout(), 1, generator(1));
      QFAIL("no error");
    } catch (const vt::ArgumentError& e) {
      QVERIFY2(QString(e.what()).contains(message), e.what());
    }
  }

  // A sampler whose draws do not carry gradients would bias the ELBO's gradient silently.
  void drawsMustBeReparameterized() {
    class DetachedNormal : public vt::distributions::Normal {
     public:
      using Normal::Normal;
      at::Tensor sample(const vt::Shape& shape, at::Generator g) const override {
        return Normal::sample(shape, std::move(g)).detach();
      }
    };
    const auto target = eight_schools();
    const at::Tensor loc = leaf(at::zeros({}, kDouble));
    vt::VariationalProgram q([loc] {
      vt::make_random_variable({"mu", std::make_shared<DetachedNormal>(loc, at::ones({}, kDouble)), {}, {}, {}});
      vt::Normal("tau", 0.0, 1.0);
      vt::Normal("theta_trans", at::zeros({8}, kDouble), 1.0);
    }, {loc});
    try {
      vt::Elbo(target).value_and_gradient(q, 1, generator(1));
      QFAIL("no error");
    } catch (const vt::ArgumentError& e) {
      QVERIFY2(QString(e.what()).contains("'mu' (Normal) is not drawn by a reparameterized sampler"), e.what());
    }
    vt::Elbo(target).estimate(q, 5, generator(1));  // estimating needs no gradient
  }

  void programParametersMustBeTrainableLeaves() {
    const at::Tensor x = at::zeros({2}, kDouble);
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::VariationalProgram([] {}, {x}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::VariationalProgram([] {}, {leaf(x) * 2}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::VariationalProgram(nullptr, {}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError,
                             vt::MeanFieldGaussian(eight_schools().layout(), at::zeros({3}, kDouble)));
  }

 private:
  static bool elbo_differs_with_seed(const vt::UnconstrainedTarget& target,
                                     const vt::VariationalFamily& q) {
    const vt::Elbo elbo(target);
    return elbo.estimate(q, 10, generator(1)).elbo != elbo.estimate(q, 10, generator(2)).elbo;
  }
};

QTEST_APPLESS_MAIN(TestVariationalProgram)
#include "tst_variational_program.moc"
