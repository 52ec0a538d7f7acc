#pragma once
/// A distribution family's conformance table: one `Family` per constructor form, with the
/// rows every common check runs on (distribution_checks.h) and what the family declares
/// about itself (support, dtypes, its sampler's error, checks that do not apply to it,
/// engine defects it is known to have). Header-only: it holds data and tiny builders.

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ATen/ATen.h>

#include "tests/support/statistics.h"
#include "engine/core/distribution.h"
#include "engine/core/random_variable.h"

namespace variate::testing {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The tensors a family's constructor takes, in the order of Family::parameters.
using Parameters = std::vector<at::Tensor>;

inline at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }
inline at::Tensor vector(const std::vector<double>& v) { return at::tensor(v, at::kDouble); }
/// A row-major square matrix.
inline at::Tensor matrix(const std::vector<double>& row_major) {
  const auto k = static_cast<int64_t>(std::lround(std::sqrt(row_major.size())));
  return vector(row_major).reshape({k, k});
}
/// One 0-dim float64 tensor per number.
inline Parameters scalars(const std::vector<double>& values) {
  Parameters parameters;
  for (const double v : values) parameters.push_back(scalar(v));
  return parameters;
}

struct Parameter {
  enum class Role {
    Real,        // differentiable: checked against finite differences
    Count,       // floating but integer-valued (Binomial's N): not differentiated
    Structural,  // not a batch tensor (LKJCorrCholesky's K): passed unchanged everywhere
  };
  std::string name;        // as the family's messages spell it: "sigma"
  int64_t event_rank = 0;  // trailing dimensions one batch element spans (theta of a
                           // Categorical: 1; a covariance: 2)
  Role role = Role::Real;
  std::string function = {};  // who validates it, when not the family (a Mixture's component)
};

struct DensityCase {
  std::string name;
  Parameters parameters;
  at::Tensor value;  // one event
  double expected;   // log density; +-inf compare exactly
  double tolerance = 0;  // relative to max(1, |expected|); 0 means the family's
};

struct GradientCase {
  std::string name;
  Parameters parameters;
  at::Tensor value;
};

struct OutsideCase {
  std::string name;
  at::Tensor value;
  std::optional<Parameters> parameters = {};  // the reference member's when not given
};

/// Out-of-support rows of a univariate family at its reference member.
inline std::vector<OutsideCase> outside_at(
    const std::vector<std::pair<std::string, double>>& values) {
  std::vector<OutsideCase> cases;
  for (const auto& [name, value] : values) cases.push_back({name, scalar(value)});
  return cases;
}

/// Construction must throw `message`; or, when `value` is given, construction succeeds and
/// log_prob(value) throws it.
struct InvalidCase {
  std::string name;
  Parameters parameters;
  std::string message;
  at::Tensor value = {};
};

struct ShapeCase {
  std::string name;
  Parameters parameters;  // broadcasting to `batch`
  Shape batch;
  Shape event;
  at::Tensor value;  // one event, valid for every batch element
  /// [2, batch..., event...] values that batchMatchesSingleEvaluations scores; two draws
  /// when not given.
  at::Tensor values = {};
};

/// Maps draws [n, batch..., event...] to the quantities a check looks at.
using Projection = std::function<at::Tensor(const at::Tensor& draws)>;

struct MomentCase {
  std::string name;
  Parameters parameters;
  at::Tensor mean;  // of the (projected) draws; undefined when the family has no moments
  at::Tensor variance;
  Projection project = {};
  /// (p, x_p) pairs standing in for the moments: the share of draws <= x_p must be p.
  std::vector<std::pair<double, double>> quantiles = {};
};

/// Continuous: a KS test of the (projected, flattened) draws against `cdf`. Discrete: the
/// share of each of `values` against `pmf`, and a chi-square test over them.
struct FitCase {
  std::string name;
  Parameters parameters;
  std::function<double(double)> cdf = {};
  std::function<double(double)> pmf = {};
  std::vector<double> values = {};
  Projection project = {};
};

/// An engine defect a check exposes: `check` is the Qt Test function, `row` the row name in
/// this form's table.

/// One constructor form of a family and its table.
struct Family {
  std::string label;  // prefixes row names when a suite has several forms ("logits")
  std::string name;   // Distribution::name()
  std::vector<Parameter> parameters;
  std::function<DistributionPtr(const Parameters&)> make;
  /// For gradients: maps free coordinates onto the constraints (a simplex, a symmetric
  /// matrix), so that finite differences never step off them. Applied to the parameters
  /// and the value before `make`.
  std::function<void(Parameters&, at::Tensor&)> constrain = {};

  DensityCase reference;  // a typical member and value, for the single-member checks
  std::string support;    // support().to_string() of the reference member
  double tolerance = 1e-12;
  /// dtype of log_prob with float32 parameters and a float64 value (not 0-dim).
  at::ScalarType float64_value_gives = at::kDouble;
  std::string sampler_error = {};  // improper families: what sample() throws
  std::function<RandomVariable(std::string name)> factory;
  Shape factory_shape;

  std::vector<DensityCase> densities;
  std::vector<GradientCase> gradients;
  std::vector<OutsideCase> outside;
  std::vector<InvalidCase> invalid;
  std::vector<ShapeCase> shapes;
  std::vector<MomentCase> moments;
  std::vector<FitCase> fits;
  /// Further members whose draws must keep to the support (underflowing shapes).
  std::vector<std::pair<std::string, Parameters>> stress;

  std::map<std::string, std::string> not_applicable;  // check -> why
};

}  // namespace variate::testing
