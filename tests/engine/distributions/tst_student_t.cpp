// StudentT(nu, mu, sigma): the family's table for the conformance fixture, and the
// pathwise derivatives of its draws.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/student_t.h"

using namespace variate::testing;
using variate::distributions::StudentT;

namespace {

double naive_log_density(double x, double nu, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) - 0.5 * std::log(nu * M_PI) -
         std::log(sigma) - (nu + 1) / 2 * std::log(1 + z * z / nu);
}

// P(T <= t) through the incomplete beta: P(|T| > |t|) = I_{nu / (nu + t^2)}(nu / 2, 1 / 2).
double cdf(double x, double nu, double mu, double sigma) {
  const double t = (x - mu) / sigma;
  const double tail = 0.5 * incomplete_beta(nu / 2, 0.5, nu / (nu + t * t));
  return t > 0 ? 1 - tail : tail;
}

DensityCase density(const char* name, double x, double nu, double mu, double sigma) {
  return {name, scalars({nu, mu, sigma}), scalar(x), naive_log_density(x, nu, mu, sigma)};
}

FitCase fit(const char* name, double nu, double mu, double sigma) {
  return {name, scalars({nu, mu, sigma}), [=](double x) { return cdf(x, nu, mu, sigma); }};
}

Family student_t() {
  Family f;
  f.name = "StudentT";
  f.parameters = {{"nu"}, {"mu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<StudentT>(p[0], p[1], p[2]); };
  f.reference = density("reference", 0.3, 3.0, 0.2, 1.5);
  f.support = "real";
  f.factory = [](std::string name) {
    return variate::StudentT(std::move(name), 4.0, 0.0, 2.5, {3});
  };
  f.factory_shape = {3};
  f.densities = {
      density("standard at 0", 0.0, 3.0, 0.0, 1.0),
      density("shifted and scaled", 1.3, 4.5, -0.4, 2.5),
      density("far tail", 1e4, 2.0, 0.0, 1.0),
      density("heavy tail, nu < 1", -30.0, 0.5, 1.0, 2.0),
      density("large nu", 0.5, 200.0, 0.0, 1.0),
      density("tiny sigma", 3e-8, 5.0, 0.0, 1e-8),
      density("huge sigma", -3.0, 7.0, 7.0, 1e8),
  };
  f.gradients = {
      {"near mode", scalars({3.0, 0.0, 1.0}), scalar(0.1)},
      {"tail", scalars({1.5, -1.0, 0.7}), scalar(5.0)},
      {"wide", scalars({30.0, 3.0, 50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"plus infinity", kInf}, {"minus infinity", -kInf}, {"nan", kNaN}});
  const auto invalid = [](const char* name, double nu, double mu, double sigma, const char* what) {
    return InvalidCase{name, scalars({nu, mu, sigma}), std::string("StudentT: argument ") + what};
  };
  f.invalid = {
      invalid("zero nu", 0, 0, 1, "'nu' must be positive, got 0"),
      invalid("negative nu", -3, 0, 1, "'nu' must be positive, got -3"),
      invalid("infinite nu", kInf, 0, 1, "'nu' must be finite, got inf"),
      invalid("zero sigma", 3, 0, 0, "'sigma' must be positive, got 0"),
      invalid("negative sigma", 3, 0, -2, "'sigma' must be positive, got -2"),
      invalid("nan sigma", 3, 0, kNaN, "'sigma' must be positive, got nan"),
      invalid("infinite mu", 3, -kInf, 1, "'mu' must be finite, got -inf"),
      {"element located", {vector({1, 2, -1}), scalar(0), scalar(1)},
       "StudentT: argument 'nu' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"nu [3, 1], mu [4]",
               {vector({1, 4, 9}).reshape({3, 1}), vector({-1, 0, 2, 5}), scalar(1.5)}, {3, 4},
               {}, scalar(0.8)}};
  // nu = 10: the fourth moment (for the variance's standard error) exists, and so does
  // the eighth that makes that standard error itself reliable.
  f.moments = {{"nu 10, mu 1, sigma 2", scalars({10, 1, 2}), scalar(1.0),
                scalar(4.0 * 10 / (10 - 2))}};
  f.fits = {fit("nu = 3", 3, -1, 2), fit("nu < 1", 0.7, 4, 0.5), fit("nu large", 60, 0, 3)};
  return f;
}

}  // namespace

class TestStudentT : public DistributionConformance {
  Q_OBJECT

 public:
  TestStudentT() : DistributionConformance({student_t()}) {}

 private slots:
  void samplesAreDifferentiableInEveryParameter() {
    const at::Tensor nu = scalar(4.0).requires_grad_(true);
    const at::Tensor mu = scalar(1.0).requires_grad_(true);
    const at::Tensor sigma = scalar(2.0).requires_grad_(true);
    at::Generator generator = at::detail::createCPUGenerator(11);
    StudentT(nu, mu, sigma).sample({1000}, generator).abs().sum().backward();
    for (const at::Tensor& p : {nu, mu, sigma}) {
      QVERIFY(p.grad().defined());
      QVERIFY(std::isfinite(p.grad().item<double>()));
      QVERIFY(p.grad().item<double>() != 0.0);
    }
  }
};

QTEST_APPLESS_MAIN(TestStudentT)
#include "tst_student_t.moc"
