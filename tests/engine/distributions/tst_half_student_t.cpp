// HalfStudentT(nu, sigma): the family's table for the conformance fixture.

#include <QtTest/QtTest>

#include "tests/support/distribution_conformance.h"
#include "engine/distributions/half_student_t.h"

using namespace variate::testing;
using variate::distributions::HalfStudentT;

namespace {

double naive_log_density(double x, double nu, double sigma) {
  const double z = x / sigma;
  return std::log(2.0) + std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) -
         0.5 * std::log(nu * M_PI) - std::log(sigma) - (nu + 1) / 2 * std::log(1 + z * z / nu);
}

// P(X <= x) = 1 - P(|T| > x / sigma) = 1 - I_{nu / (nu + z^2)}(nu / 2, 1 / 2).
double cdf(double x, double nu, double sigma) {
  const double z = x / sigma;
  return 1 - incomplete_beta(nu / 2, 0.5, nu / (nu + z * z));
}

DensityCase density(const char* name, double x, double nu, double sigma) {
  return {name, scalars({nu, sigma}), scalar(x), naive_log_density(x, nu, sigma)};
}

FitCase fit(const char* name, double nu, double sigma) {
  return {name, scalars({nu, sigma}), [=](double x) { return cdf(x, nu, sigma); }};
}

Family half_student_t() {
  Family f;
  f.name = "HalfStudentT";
  f.parameters = {{"nu"}, {"sigma"}};
  f.make = [](const Parameters& p) { return std::make_shared<HalfStudentT>(p[0], p[1]); };
  f.reference = density("reference", 0.3, 3.0, 1.5);
  f.support = "positive";
  f.factory = [](std::string name) {
    return variate::HalfStudentT(std::move(name), 3.0, 2.5, {3});
  };
  f.factory_shape = {3};
  f.densities = {
      density("edge x = 0", 0.0, 3.0, 1.0),
      density("edge x = 0, wide", 0.0, 1.5, 250.0),
      density("near mode", 0.7, 4.5, 1.3),
      density("far tail", 1e4, 2.0, 1.0),
      density("heavy tail, nu < 1", 30.0, 0.5, 2.0),
      density("tiny sigma", 3e-8, 5.0, 1e-8),
      density("huge sigma", 3.0, 7.0, 1e8),
  };
  f.gradients = {
      {"near mode", scalars({3.0, 1.0}), scalar(0.1)},
      {"tail", scalars({1.5, 0.7}), scalar(5.0)},
      {"wide", scalars({30.0, 50.0}), scalar(100.0)},
  };
  f.outside = outside_at({{"just below 0", -1e-300}, {"negative", -2.0}, {"minus infinity", -kInf},
                          {"plus infinity", kInf}, {"nan", kNaN}});
  const auto invalid = [](const char* name, double nu, double sigma, const char* what) {
    return InvalidCase{name, scalars({nu, sigma}), std::string("HalfStudentT: argument ") + what};
  };
  f.invalid = {
      invalid("zero nu", 0, 1, "'nu' must be positive, got 0"),
      invalid("nan nu", kNaN, 1, "'nu' must be positive, got nan"),
      invalid("infinite nu", kInf, 1, "'nu' must be finite, got inf"),
      invalid("zero sigma", 3, 0, "'sigma' must be positive, got 0"),
      invalid("negative sigma", 3, -2, "'sigma' must be positive, got -2"),
      {"element located", {scalar(3), vector({1, 2, -1})},
       "HalfStudentT: argument 'sigma' must be positive, got -1 (at index [2])"},
  };
  f.shapes = {{"nu [3, 1], sigma [4]",
               {vector({1, 4, 9}).reshape({3, 1}), vector({0.5, 1, 2, 4})}, {3, 4}, {},
               scalar(0.8)}};
  // nu = 10: the fourth moment (for the variance's standard error) exists.
  // E|T| = 2 sqrt(nu / pi) Gamma((nu + 1) / 2) / (Gamma(nu / 2) (nu - 1)); E T^2 = nu / (nu - 2).
  const double nu = 10, sigma = 2;
  const double mean = sigma * 2 * std::sqrt(nu / M_PI) *
                      std::exp(std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2)) / (nu - 1);
  f.moments = {{"nu 10, sigma 2", scalars({nu, sigma}), scalar(mean),
                scalar(sigma * sigma * nu / (nu - 2) - mean * mean)}};
  f.fits = {fit("nu = 3", 3, 2), fit("nu < 1", 0.7, 0.5)};
  return f;
}

}  // namespace

class TestHalfStudentT : public DistributionConformance {
  Q_OBJECT

 public:
  TestHalfStudentT() : DistributionConformance({half_student_t()}) {}
};

QTEST_APPLESS_MAIN(TestHalfStudentT)
#include "tst_half_student_t.moc"
