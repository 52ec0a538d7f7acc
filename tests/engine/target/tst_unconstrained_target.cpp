// The unconstrained target of eight schools written with the C++ API: layout from
// tracing, agreement with Stan's log density and gradient, and batched evaluation.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "engine/core/checks.h"
#include "engine/core/log_joint.h"
#include "engine/distributions/half_cauchy.h"
#include "engine/distributions/normal.h"
#include "engine/target/unconstrained_target.h"
#include "engine/io/data_file.h"

namespace vt = variate;
using json = nlohmann::json;

namespace {

const char* kReference =
    QT_TESTCASE_SOURCEDIR "/data/reference/eight_schools-eight_schools_noncentered/";

vt::RandomVariable eight_schools(const vt::Data& d) {
  auto mu = vt::Normal("mu", 0.0, 5.0);
  auto tau = vt::HalfCauchy("tau", 5.0);
  auto theta_trans = vt::Normal("theta_trans", 0.0, 1.0, {d.dim("J")});
  auto theta = theta_trans * tau + mu;
  return vt::Normal("y", theta, d["sigma"]);
}

vt::UnconstrainedTarget make_target() {
  const vt::Data data = vt::io::read_data_file(std::string(kReference) + "data.json");
  auto log_joint = vt::make_log_joint(eight_schools, data);
  auto layout = vt::ParameterLayout::from_model(log_joint);
  return vt::UnconstrainedTarget(log_joint, layout);
}

// Stan's unconstrained order is theta_trans, mu, tau; ours is program order.
at::Tensor to_variate_order(const std::vector<double>& stan) {
  std::vector<double> ours = {stan[8], stan[9]};
  ours.insert(ours.end(), stan.begin(), stan.begin() + 8);
  return at::tensor(ours, at::kDouble);
}

}  // namespace

class TestUnconstrainedTarget : public QObject {
  Q_OBJECT

 private slots:
  void layoutFollowsProgramOrder() {
    const auto target = make_target();
    const auto& parameters = target.layout().parameters();
    QCOMPARE(parameters.size(), size_t{3});
    QCOMPARE(QString::fromStdString(parameters[0].name), QString("mu"));
    QCOMPARE(QString::fromStdString(parameters[1].name), QString("tau"));
    QCOMPARE(QString::fromStdString(parameters[2].name), QString("theta_trans"));
    QCOMPARE(parameters[1].support.to_string(), std::string("positive"));
    QCOMPARE(parameters[2].offset, int64_t{2});
    QCOMPARE(target.dimension(), int64_t{10});
  }

  void matchesStanLogDensityDifferencesAndGradients() {
    const auto target = make_target();
    const json stan = json::parse(vt::io::read_text_file(std::string(kReference) +
                                                         "stan_logdensity.json"));
    const auto& points = stan["points"];
    double ours_first = 0, stan_first = 0, ours_first_nojac = 0, stan_first_nojac = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const at::Tensor theta =
          to_variate_order(points[i]["unconstrained"].get<std::vector<double>>());
      const auto [lp, gradient] = target.log_density_and_gradient(theta);
      const double lp_nojac = target.log_density(theta, false).item<double>();
      if (i == 0) {
        ours_first = lp.item<double>();
        stan_first = points[i]["stan_lp_jacobian"].get<double>();
        ours_first_nojac = lp_nojac;
        stan_first_nojac = points[i]["stan_lp"].get<double>();
        continue;
      }
      const double ours_diff = lp.item<double>() - ours_first;
      const double stan_diff = points[i]["stan_lp_jacobian"].get<double>() - stan_first;
      QVERIFY2(std::abs(ours_diff - stan_diff) < 1e-8,
               qPrintable(QString("point %1: %2 vs Stan %3").arg(i).arg(ours_diff).arg(stan_diff)));
      const double stan_diff_nojac = points[i]["stan_lp"].get<double>() - stan_first_nojac;
      QVERIFY(std::abs((lp_nojac - ours_first_nojac) - stan_diff_nojac) < 1e-8);
      const at::Tensor stan_gradient = to_variate_order(
          points[i]["stan_grad_unconstrained_jacobian"].get<std::vector<double>>());
      QVERIFY2(at::allclose(gradient, stan_gradient, 1e-8, 1e-10),
               qPrintable(QString("point %1 gradient differs from Stan's").arg(i)));
    }
  }

  void batchMatchesSinglePoints() {
    const auto target = make_target();
    const at::Tensor thetas = at::randn({6, 10}, at::kDouble);
    const auto [lps, gradients] = target.log_density_and_gradient(thetas);
    QCOMPARE(lps.sizes(), (c10::IntArrayRef{6}));
    for (int64_t b = 0; b < 6; ++b) {
      const auto [lp, gradient] = target.log_density_and_gradient(thetas[b]);
      QVERIFY(std::abs(lp.item<double>() - lps[b].item<double>()) < 1e-10);
      QVERIFY(at::allclose(gradient, gradients[b], 1e-10, 1e-12));
    }
  }

  void unconstrainInvertsConstrain() {
    const auto target = make_target();
    const at::Tensor theta = at::randn({10}, at::kDouble);
    const auto point = target.layout().constrain(theta);
    QVERIFY(point.values.at("tau").item<double>() > 0);
    QVERIFY(at::allclose(target.layout().unconstrain(point.values), theta));
  }

  void wrongDimensionIsAnError() {
    const auto target = make_target();
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             target.log_density(at::zeros({9}, at::kDouble)));
  }
};

QTEST_APPLESS_MAIN(TestUnconstrainedTarget)
#include "tst_unconstrained_target.moc"
