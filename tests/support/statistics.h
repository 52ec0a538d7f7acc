#pragma once
/// Statistical checks of samplers: moments within standard errors, Kolmogorov-Smirnov,
/// and the special functions reference CDFs need.

#include <functional>
#include <string>

#include <ATen/ATen.h>

namespace variate::testing {

/// Empty when the sample mean and variance of `draws` (first dimension = draws, any
/// trailing shape) are within `sigmas` standard errors of `mean` and `variance`
/// (broadcast against the trailing shape); otherwise a message saying which is off.
/// The variance's standard error uses the sample fourth central moment.
std::string check_moments(const at::Tensor& draws, const at::Tensor& mean,
                          const at::Tensor& variance, double sigmas = 5.0);

/// Empty when the mean of per-draw derivatives (of reparameterized samples with respect to
/// a parameter) is within 5 standard errors of `expected`, the derivative of the mean.
std::string check_mean_derivative(const at::Tensor& derivatives, double expected);

struct KolmogorovSmirnov {
  double statistic;  // sup |F_n - F|
  double p_value;    // asymptotic Kolmogorov distribution
};

/// One-sample KS test of 1-D `draws` against the CDF `cdf`.
KolmogorovSmirnov ks_test(const at::Tensor& draws, const std::function<double(double)>& cdf);

/// P(X >= statistic) for X ~ chi-square(degrees_of_freedom).
double chi_square_p_value(double statistic, int degrees_of_freedom);

double normal_cdf(double z);
/// Regularized incomplete beta I_x(a, b) (continued fraction; Lentz's method).
double incomplete_beta(double a, double b, double x);
/// Regularized lower incomplete gamma P(a, x).
double incomplete_gamma(double a, double x);

}  // namespace variate::testing
