#include "tests/support/statistics.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace variate::testing {

std::string check_moments(const at::Tensor& draws, const at::Tensor& mean,
                          const at::Tensor& variance, double sigmas) {
  const at::Tensor x = draws.detach().to(at::kDouble);
  const double n = static_cast<double>(x.size(0));
  const at::Tensor sample_mean = x.mean(0);
  const at::Tensor centered = x - sample_mean;
  const at::Tensor sample_variance = centered.square().sum(0) / (n - 1);
  const at::Tensor fourth = centered.pow(4).mean(0);
  const at::Tensor expected_mean = mean.to(at::kDouble).expand_as(sample_mean);
  const at::Tensor expected_variance = variance.to(at::kDouble).expand_as(sample_variance);
  const at::Tensor mean_error = (sample_mean - expected_mean).abs();
  const at::Tensor mean_allowed = sigmas * (expected_variance / n).sqrt();
  const at::Tensor variance_error = (sample_variance - expected_variance).abs();
  const at::Tensor variance_allowed =
      sigmas * ((fourth - sample_variance.square()).clamp_min(0) / n).sqrt();
  std::ostringstream message;
  if (!(mean_error <= mean_allowed).all().item<bool>()) {
    message << "sample mean " << sample_mean << " is more than " << sigmas
            << " standard errors from " << expected_mean << "; ";
  }
  if (!(variance_error <= variance_allowed).all().item<bool>()) {
    message << "sample variance " << sample_variance << " is more than " << sigmas
            << " standard errors from " << expected_variance;
  }
  return message.str();
}

std::string check_mean_derivative(const at::Tensor& derivatives, double expected) {
  const double n = static_cast<double>(derivatives.numel());
  const double mean = derivatives.mean().item<double>();
  const double standard_error = derivatives.std().item<double>() / std::sqrt(n);
  if (std::abs(mean - expected) <= 5 * standard_error) return {};
  std::ostringstream message;
  message << "mean derivative " << mean << " is more than 5 standard errors (" << standard_error
          << ") from " << expected;
  return message.str();
}

KolmogorovSmirnov ks_test(const at::Tensor& draws, const std::function<double(double)>& cdf) {
  const at::Tensor sorted = std::get<0>(draws.detach().to(at::kDouble).reshape(-1).sort());
  const auto accessor = sorted.accessor<double, 1>();
  const int64_t n = sorted.numel();
  double statistic = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double f = cdf(accessor[i]);
    statistic = std::max({statistic, static_cast<double>(i + 1) / n - f,
                          f - static_cast<double>(i) / n});
  }
  const double root_n = std::sqrt(static_cast<double>(n));
  const double lambda = (root_n + 0.12 + 0.11 / root_n) * statistic;
  double p = 0;
  for (int k = 1; k <= 100; ++k) {
    p += 2 * ((k % 2) ? 1 : -1) * std::exp(-2.0 * k * k * lambda * lambda);
  }
  return {statistic, std::clamp(p, 0.0, 1.0)};
}

double chi_square_p_value(double statistic, int degrees_of_freedom) {
  return 1 - incomplete_gamma(degrees_of_freedom / 2.0, statistic / 2);
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

namespace {

// Continued fraction for the incomplete beta (modified Lentz).
double beta_continued_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  d = std::abs(d) < tiny ? tiny : d;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    double numerator = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + numerator * d;
    d = std::abs(d) < tiny ? tiny : d;
    c = 1.0 + numerator / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    h *= d * c;
    numerator = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + numerator * d;
    d = std::abs(d) < tiny ? tiny : d;
    c = 1.0 + numerator / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-15) break;
  }
  return h;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                           a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) {
    return std::exp(log_front) * beta_continued_fraction(a, b, x) / a;
  }
  return 1.0 - std::exp(log_front) * beta_continued_fraction(b, a, 1.0 - x) / b;
}

double incomplete_gamma(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1.0) {  // series
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < 100000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * 1e-16) break;
    }
    return std::exp(log_front) * sum;
  }
  // Continued fraction for the upper tail (Lentz).
  const double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    d = std::abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return 1.0 - std::exp(log_front) * h;
}

}  // namespace variate::testing
