#pragma once
/// The common checks of distribution_conformance.h, one function per row of a family's
/// table. Each returns an empty string when the row passes, else what went wrong; none
/// includes Qt, so they could serve another harness.

#include <string>
#include <utility>
#include <vector>

#include "tests/support/distribution_table.h"

namespace variate::testing {

/// (a) log_prob equals the expected log density; a whole-number value again as int64.
std::string check_density(const Family& f, const DensityCase& c);
/// (b) autograd against central differences, w.r.t. the value (continuous families) and
/// every Real parameter, after Family::constrain.
std::string check_gradient(const Family& f, const GradientCase& c);
/// Whether every element of a value is a finite number.
bool is_finite_value(const at::Tensor& value);
/// (c) -inf outside the support (a whole-number value again as int64); for a value that is
/// not finite, -inf or NaN ...
std::string check_outside(const Family& f, const OutsideCase& c);
/// ... with a gradient of exactly 0 (or none) w.r.t. the value and every Real parameter
/// (finite values only).
std::string check_outside_gradient(const Family& f, const OutsideCase& c);
/// (d) the exact ArgumentError message, from construction or from log_prob(value).
std::string check_invalid(const Family& f, const InvalidCase& c);
/// The parameters nanParametersThrow sets to NaN: all but the structural ones.
std::vector<size_t> nan_checked(const Family& f);
/// (d) parameter i of the reference member set to NaN throws, naming the parameter.
std::string check_nan(const Family& f, size_t i);
/// (e) batch and event shapes, the shapes of log_prob and of sample.
std::string check_shapes(const Family& f, const ShapeCase& c);
/// (g) log_prob of [2, batch..., event...] values equals each element's alone.
std::string check_batch(const Family& f, const ShapeCase& c);
/// The members the sampling rows draw from: (row name, parameters).
std::vector<std::pair<std::string, Parameters>> sampled_members(const Family& f);
/// (f, h) draws of the member converted to `dtype` keep it, lie in support() and have a
/// finite log_prob.
std::string check_samples(const Family& f, const Parameters& parameters, at::ScalarType dtype);
/// (f) sample mean and variance (or quantiles) within 5 standard errors.
std::string check_sampler_moments(const Family& f, const MomentCase& c);
/// (f) KS against the CDF, or shares and chi-square against the mass function.
std::string check_fit(const Family& f, const FitCase& c);
/// (f) the same seed gives the same draws, another seed others; improper families throw.
std::string check_reproducible(const Family& f);
/// (h) the dtype (and value) of log_prob for float32 parameters.
std::string check_float32(const Family& f);
/// (i) name() and support().to_string() of the reference member.
std::string check_support(const Family& f);
/// The RandomVariable factory: name, distribution, shape, and its value's log_prob.
std::string check_factory(const Family& f);

}  // namespace variate::testing
