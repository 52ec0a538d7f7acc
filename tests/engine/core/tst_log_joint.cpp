// make_log_joint on eight schools written with the C++ random-variable API, as in the
// docs/CPP_API.md: against hand-summed densities, batched against single points,
// and errors.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/variate.h"

namespace vt = variate;

namespace {

const std::vector<double> kY = {28, 8, -3, 7, -1, 1, 18, 12};
const std::vector<double> kSigma = {15, 10, 16, 11, 9, 11, 10, 18};

vt::RandomVariable eight_schools(const vt::Data& d) {
  auto mu = vt::Normal("mu", 0.0, 5.0);
  auto tau = vt::HalfCauchy("tau", 5.0);
  auto theta_trans = vt::Normal("theta_trans", 0.0, 1.0, {d.dim("J")});
  auto theta = theta_trans * tau + mu;
  return vt::Normal("y", theta, d["sigma"]);
}

vt::Data eight_schools_data() {
  vt::Data d;
  d.set("J", int64_t{8})
      .set("y", at::tensor(kY, at::kDouble))
      .set("sigma", at::tensor(kSigma, at::kDouble));
  return d;
}

double normal_lpdf(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2 * M_PI);
}

double half_cauchy_lpdf(double x, double sigma) {
  return std::log(2.0) - std::log(M_PI * sigma) - std::log1p((x / sigma) * (x / sigma));
}

// The joint density summed by hand, term by term.
double hand_summed(double mu, double tau, const std::vector<double>& theta_trans) {
  double lp = normal_lpdf(mu, 0, 5) + half_cauchy_lpdf(tau, 5);
  for (size_t j = 0; j < 8; ++j) {
    lp += normal_lpdf(theta_trans[j], 0, 1);
    lp += normal_lpdf(kY[j], theta_trans[j] * tau + mu, kSigma[j]);
  }
  return lp;
}

std::vector<double> to_vector(const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

}  // namespace

class TestLogJoint : public QObject {
  Q_OBJECT

 private slots:
  void eightSchoolsMatchesHandSummedDensities() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    at::Generator generator = at::detail::createCPUGenerator(2024);
    for (int point = 0; point < 10; ++point) {
      const at::Tensor mu = at::normal(0.0, 5.0, {}, generator, at::kDouble);
      const at::Tensor tau = at::normal(0.0, 3.0, {}, generator, at::kDouble).abs();
      const at::Tensor theta_trans = at::normal(0.0, 1.0, {8}, generator, at::kDouble);
      const double got =
          target({{"mu", mu}, {"tau", tau}, {"theta_trans", theta_trans}}).item<double>();
      const double expected =
          hand_summed(mu.item<double>(), tau.item<double>(), to_vector(theta_trans));
      QVERIFY2(std::abs(got - expected) < 1e-10 * std::abs(expected),
               qPrintable(QString("point %1: %2 vs %3").arg(point).arg(got, 0, 'g', 17)
                              .arg(expected, 0, 'g', 17)));
    }
  }

  void gradientFlowsToLatentValues() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    const at::Tensor mu = at::scalar_tensor(1.0, at::kDouble).requires_grad_(true);
    const at::Tensor tau = at::scalar_tensor(2.0, at::kDouble).requires_grad_(true);
    const at::Tensor theta_trans = at::zeros({8}, at::kDouble).requires_grad_(true);
    target({{"mu", mu}, {"tau", tau}, {"theta_trans", theta_trans}}).backward();
    // d/dmu = -mu/25 + sum_j (y_j - mu) / sigma_j^2 at theta_trans = 0.
    double expected = -1.0 / 25;
    for (size_t j = 0; j < 8; ++j) expected += (kY[j] - 1.0) / (kSigma[j] * kSigma[j]);
    QVERIFY(std::abs(mu.grad().item<double>() - expected) < 1e-12);
    QVERIFY(theta_trans.grad().defined());
  }

  void tapeListsVariablesInProgramOrder() {
    const vt::Data data = eight_schools_data();
    vt::Trace trace;
    {
      vt::Condition observed({{"y", data["y"]}});
      vt::TracerScope observe(observed);
      vt::TracerScope record(trace);
      eight_schools(data);
    }
    QStringList names;
    for (const auto& rv : trace.variables()) names << QString::fromStdString(rv.name());
    QCOMPARE(names, (QStringList{"mu", "tau", "theta_trans", "y"}));
    QVERIFY(at::equal(trace["y"].value(), data["y"]));
    QCOMPARE(trace["theta_trans"].shape(), (vt::Shape{8}));
  }

  void batchOfEightMatchesEightSingleCalls() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    at::Generator generator = at::detail::createCPUGenerator(99);
    const int64_t batch = 8;
    const at::Tensor mu = at::normal(0.0, 5.0, {batch}, generator, at::kDouble);
    const at::Tensor tau = at::normal(0.0, 3.0, {batch}, generator, at::kDouble).abs();
    const at::Tensor theta_trans = at::normal(0.0, 1.0, {batch, 8}, generator, at::kDouble);
    const at::Tensor batched =
        target({{"mu", mu}, {"tau", tau}, {"theta_trans", theta_trans}}, batch);
    QCOMPARE(batched.sizes(), (c10::IntArrayRef{batch}));
    for (int64_t b = 0; b < batch; ++b) {
      const double single =
          target({{"mu", mu[b]}, {"tau", tau[b]}, {"theta_trans", theta_trans[b]}})
              .item<double>();
      QVERIFY2(std::abs(batched[b].item<double>() - single) < 1e-10 * std::abs(single),
               qPrintable(QString("point %1").arg(b)));
    }
  }

  void batchedGradientsAreIndependentPerPoint() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    const at::Tensor mu = at::tensor({0.5, -1.0, 2.0}, at::kDouble).requires_grad_(true);
    const at::Tensor tau = at::tensor({1.0, 3.0, 0.2}, at::kDouble).requires_grad_(true);
    const at::Tensor theta_trans = at::zeros({3, 8}, at::kDouble).requires_grad_(true);
    target({{"mu", mu}, {"tau", tau}, {"theta_trans", theta_trans}}, 3).sum().backward();
    for (int64_t b = 0; b < 3; ++b) {
      const at::Tensor m = mu.detach()[b].clone().requires_grad_(true);
      target({{"mu", m}, {"tau", tau.detach()[b]}, {"theta_trans", theta_trans.detach()[b]}})
          .backward();
      QVERIFY(std::abs(m.grad().item<double>() - mu.grad()[b].item<double>()) < 1e-12);
    }
  }

  void missingLatentValueIsNamed() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    try {
      target({{"mu", at::scalar_tensor(0.0, at::kDouble)}});
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("log_joint: no value for latent variable 'tau'"));
    }
  }

  void wrongShapeIsNamedWithExpectedShape() {
    const auto target = vt::make_log_joint(eight_schools, eight_schools_data());
    try {
      target({{"mu", at::scalar_tensor(0.0, at::kDouble)},
              {"tau", at::scalar_tensor(1.0, at::kDouble)},
              {"theta_trans", at::zeros({7}, at::kDouble)}});
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QCOMPARE(QString(e.what()),
               QString("log_joint: value of 'theta_trans' has shape [7], expected [8]"));
    }
  }

  void modelWithoutDataTakesEveryValue() {
    const auto target = vt::make_log_joint([] {
      const auto x = vt::Normal("x", 0.0, 1.0);
      vt::Normal("y", x, 2.0);
    });
    const double lp = target({{"x", at::scalar_tensor(0.3, at::kDouble)},
                              {"y", at::scalar_tensor(-1.0, at::kDouble)}})
                          .item<double>();
    QVERIFY(std::abs(lp - (normal_lpdf(0.3, 0, 1) + normal_lpdf(-1.0, 0.3, 2))) < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestLogJoint)
#include "tst_log_joint.moc"
