#include "tests/support/distribution_checks.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tests/support/gradient_check.h"
#include "tests/support/statistics.h"
#include "engine/core/checks.h"

namespace variate::testing {
namespace {

using Role = Parameter::Role;

std::string number(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

at::Generator generator(uint64_t seed) { return at::detail::createCPUGenerator(seed); }

// Infinities (density limits, -inf outside) compare exactly; NaN never matches.
bool close(double got, double expected, double tolerance) {
  if (!std::isfinite(expected)) return got == expected;
  return std::abs(got - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

// Floating values that int64 represents exactly.
bool is_whole(const at::Tensor& t) {
  if (!t.defined() || !t.is_floating_point()) return false;
  return (at::isfinite(t) & (t == t.floor()) & (t.abs() < 9007199254740992.0)).all().item<bool>();
}

Parameters to_dtype(const Family& f, Parameters p, at::ScalarType dtype) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (f.parameters.at(i).role != Role::Structural && p[i].is_floating_point()) {
      p[i] = p[i].to(dtype);
    }
  }
  return p;
}

std::string compare_log_prob(const distributions::Distribution& d, const at::Tensor& value,
                             double expected, double tolerance, const std::string& what) {
  const at::Tensor lp = d.log_prob(value);
  if (lp.numel() != 1) return what + " has shape " + to_string(lp.sizes()) + ", expected one element";
  if (lp.scalar_type() != at::kDouble) {
    return what + " is " + c10::toString(lp.scalar_type()) + " for float64 parameters";
  }
  const double got = lp.item<double>();
  if (close(got, expected, tolerance)) return {};
  return what + " is " + number(got) + ", expected " + number(expected) + " (relative tolerance " +
         number(tolerance) + ")";
}

std::string compare_message(const std::string& got, const std::string& expected) {
  if (got == expected) return {};
  return "message \"" + got + "\", expected \"" + expected + "\"";
}

std::string expect_sampler_error(const Family& f, const distributions::Distribution& d) {
  try {
    d.sample({3}, generator(1));
  } catch (const ArgumentError& e) {
    return compare_message(e.what(), f.sampler_error);
  }
  return "sample() did not throw";
}

// Parameter p of batch element `index`: broadcast to the batch, then indexed.
at::Tensor element(const at::Tensor& p, int64_t event_rank, const Shape& batch,
                   const Shape& index) {
  at::Tensor t = p.expand(concat(batch, p.sizes().slice(p.dim() - event_rank)));
  for (const int64_t i : index) t = t.select(0, i);
  return t;
}

// Every draw of a large sample must lie in the support, not only those of the dtype check.
std::string check_inside(const distributions::Distribution& d, const at::Tensor& draws) {
  if (d.support().contains(draws).all().item<bool>()) return {};
  return "a draw lies outside " + d.support().to_string();
}

}  // namespace

std::string check_density(const Family& f, const DensityCase& c) {
  const double tolerance = c.tolerance > 0 ? c.tolerance : f.tolerance;
  const auto d = f.make(c.parameters);
  std::string error = compare_log_prob(*d, c.value, c.expected, tolerance, "log_prob");
  // Counts and indicators arrive as integer tensors; they must score as the same numbers.
  if (error.empty() && is_whole(c.value)) {
    error = compare_log_prob(*d, c.value.to(at::kLong), c.expected, tolerance,
                             "log_prob of the int64 value");
  }
  return error;
}

// The value (continuous families) and every Real parameter, flattened into one point, so
// that a single comparison covers every argument.
std::string check_gradient(const Family& f, const GradientCase& c) {
  std::vector<at::Tensor> pieces;
  std::vector<int> targets;  // -1: the value; i: parameter i
  if (!f.make(c.parameters)->support().is_discrete()) {
    pieces.push_back(c.value);
    targets.push_back(-1);
  }
  for (size_t i = 0; i < c.parameters.size(); ++i) {
    if (f.parameters.at(i).role != Role::Real) continue;
    pieces.push_back(c.parameters[i]);
    targets.push_back(static_cast<int>(i));
  }
  if (pieces.empty()) return "the table gives nothing to differentiate";
  std::vector<at::Tensor> flat;
  for (const auto& piece : pieces) flat.push_back(piece.to(at::kDouble).reshape(-1));
  const auto log_prob = [&](const at::Tensor& point) {
    Parameters parameters = c.parameters;
    at::Tensor value = c.value;
    int64_t offset = 0;
    for (size_t k = 0; k < pieces.size(); ++k) {
      const int64_t n = pieces[k].numel();
      const at::Tensor piece = point.narrow(0, offset, n).view(pieces[k].sizes());
      offset += n;
      (targets[k] < 0 ? value : parameters[targets[k]]) = piece;
    }
    if (f.constrain) f.constrain(parameters, value);
    return f.make(parameters)->log_prob(value);
  };
  return compare_gradients(log_prob, at::cat(flat));
}

bool is_finite_value(const at::Tensor& value) { return at::isfinite(value).all().item<bool>(); }

std::string check_outside(const Family& f, const OutsideCase& c) {
  const auto d = f.make(c.parameters.value_or(f.reference.parameters));
  if (!is_finite_value(c.value)) {
    const at::Tensor log_prob = d->log_prob(c.value).detach().to(at::kDouble);
    if ((log_prob == -kInf).logical_or(at::isnan(log_prob)).all().item<bool>()) return {};
    return "log_prob of a non-finite value is " + number(log_prob.reshape(-1)[0].item<double>()) +
           ", expected -inf or NaN";
  }
  std::string error = compare_log_prob(*d, c.value, -kInf, 0, "log_prob");
  if (error.empty() && is_whole(c.value)) {
    error = compare_log_prob(*d, c.value.to(at::kLong), -kInf, 0, "log_prob of the int64 value");
  }
  return error;
}

std::string check_outside_gradient(const Family& f, const OutsideCase& c) {
  Parameters parameters = c.parameters.value_or(f.reference.parameters);
  std::vector<std::pair<std::string, at::Tensor>> leaves;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (f.parameters.at(i).role != Role::Real) continue;
    parameters[i] = parameters[i].detach().clone().requires_grad_(true);
    leaves.emplace_back(f.parameters[i].name, parameters[i]);
  }
  const auto d = f.make(parameters);
  at::Tensor value = c.value;
  if (!d->support().is_discrete()) {
    value = value.detach().clone().requires_grad_(true);
    leaves.emplace_back("the value", value);
  }
  const at::Tensor log_prob = d->log_prob(value).sum();
  if (log_prob.requires_grad()) log_prob.backward();
  for (const auto& [what, leaf] : leaves) {
    const at::Tensor grad = leaf.grad();
    if (!grad.defined()) continue;  // not on the graph: no dependence at all
    const at::Tensor bad = (grad != 0).reshape(-1);
    if (bad.any().item<bool>()) {
      const int64_t first = bad.nonzero()[0][0].item<int64_t>();
      return "d/d(" + what + ") is " + number(grad.reshape(-1)[first].item<double>()) +
             ", expected 0 (outside the support the log density is constant)";
    }
  }
  return {};
}

std::string check_invalid(const Family& f, const InvalidCase& c) {
  DistributionPtr d;
  try {
    d = f.make(c.parameters);
  } catch (const ArgumentError& e) {
    if (c.value.defined()) return std::string("construction threw: ") + e.what();
    return compare_message(e.what(), c.message);
  }
  if (!c.value.defined()) return "no exception";
  try {
    d->log_prob(c.value);
  } catch (const ArgumentError& e) {
    return compare_message(e.what(), c.message);
  }
  return "log_prob did not throw";
}

std::vector<size_t> nan_checked(const Family& f) {
  std::vector<size_t> indices;
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    if (f.parameters[i].role != Role::Structural) indices.push_back(i);
  }
  return indices;
}

// NaN is never a valid parameter; Stan's fixture likewise adds it to every argument.
std::string check_nan(const Family& f, size_t i) {
  Parameters parameters = f.reference.parameters;
  parameters.at(i) = at::full_like(parameters[i], kNaN);
  const Parameter& p = f.parameters.at(i);
  const std::string prefix =
      (p.function.empty() ? f.name : p.function) + ": argument '" + p.name + "' must be";
  try {
    f.make(parameters);
  } catch (const ArgumentError& e) {
    const std::string message = e.what();
    if (message.rfind(prefix, 0) == 0) return {};
    return "message \"" + message + "\" does not begin with \"" + prefix + "\"";
  }
  return "a NaN " + p.name + " is accepted";
}

std::string check_shapes(const Family& f, const ShapeCase& c) {
  const auto d = f.make(c.parameters);
  if (d->batch_shape() != c.batch) {
    return "batch_shape " + to_string(d->batch_shape()) + ", expected " + to_string(c.batch);
  }
  if (d->event_shape() != c.event) {
    return "event_shape " + to_string(d->event_shape()) + ", expected " + to_string(c.event);
  }
  const Shape ones(c.batch.size(), 1);
  const Shape with_batch = concat({2}, c.batch);
  // One event against the whole batch; two events against it (size-1 batch dimensions
  // broadcast); full [2, batch..., event...] and [4, 2, batch..., event...] values.
  const std::vector<std::pair<at::Tensor, Shape>> values = {
      {c.value, c.batch},
      {c.value.reshape(concat(concat({1}, ones), c.event)).expand(concat(concat({2}, ones), c.event)),
       with_batch},
      {c.value.expand(concat(with_batch, c.event)), with_batch},
      {c.value.expand(concat(concat({4}, with_batch), c.event)), concat({4}, with_batch)}};
  for (const auto& [value, expected] : values) {
    const at::Tensor lp = d->log_prob(value);
    if (lp.sizes() != expected) {
      return "log_prob of a value of shape " + to_string(value.sizes()) + " has shape " +
             to_string(lp.sizes()) + ", expected " + to_string(expected);
    }
  }
  if (!f.sampler_error.empty()) return expect_sampler_error(f, *d);
  for (const Shape& sample_shape : {Shape{}, Shape{5}, Shape{2, 3}}) {
    const Shape expected = concat(concat(sample_shape, c.batch), c.event);
    const at::Tensor draws = d->sample(sample_shape, generator(1));
    if (draws.sizes() != expected) {
      return "sample(" + to_string(sample_shape) + ") has shape " + to_string(draws.sizes()) +
             ", expected " + to_string(expected);
    }
  }
  return {};
}

std::string check_batch(const Family& f, const ShapeCase& c) {
  const auto d = f.make(c.parameters);
  // Distinct values, so that a mix-up of elements shows.
  const at::Tensor values = c.values.defined() ? c.values : d->sample({2}, generator(11));
  const at::Tensor batched = d->log_prob(values).reshape({2, -1});
  for (int64_t s = 0; s < 2; ++s) {
    for (int64_t e = 0; e < numel(c.batch); ++e) {
      Shape index(c.batch.size());
      for (int64_t k = static_cast<int64_t>(c.batch.size()) - 1, rest = e; k >= 0; --k) {
        index[k] = rest % c.batch[k];
        rest /= c.batch[k];
      }
      Parameters single;
      for (size_t i = 0; i < c.parameters.size(); ++i) {
        const Parameter& p = f.parameters.at(i);
        single.push_back(p.role == Role::Structural
                             ? c.parameters[i]
                             : element(c.parameters[i], p.event_rank, c.batch, index));
      }
      at::Tensor value = values[s];
      for (const int64_t i : index) value = value.select(0, i);
      const double expected = f.make(single)->log_prob(value).item<double>();
      const double got = batched[s][e].item<double>();
      // Vectorized kernels may round differently from one element at a time.
      if (!(got == expected || std::abs(got - expected) <= 1e-13 * (1 + std::abs(expected)))) {
        return "element " + to_string(index) + " of value " + std::to_string(s) + " scores " +
               number(got) + " in the batch, " + number(expected) + " alone";
      }
    }
  }
  return {};
}

std::vector<std::pair<std::string, Parameters>> sampled_members(const Family& f) {
  std::vector<std::pair<std::string, Parameters>> members;
  for (const auto& c : f.moments) members.emplace_back("moments: " + c.name, c.parameters);
  for (const auto& c : f.fits) members.emplace_back("fit: " + c.name, c.parameters);
  for (const auto& [name, parameters] : f.stress) members.emplace_back("stress: " + name, parameters);
  return members;
}

std::string check_samples(const Family& f, const Parameters& parameters, at::ScalarType dtype) {
  const auto d = f.make(to_dtype(f, parameters, dtype));
  const at::Tensor draws = d->sample({100000}, generator(5));
  if (draws.scalar_type() != dtype) {
    return std::string("draws are ") + c10::toString(draws.scalar_type()) + ", expected " +
           c10::toString(dtype);
  }
  const at::Tensor inside = d->support().contains(draws).reshape(-1);
  if (!inside.all().item<bool>()) {
    return "a draw lies outside " + d->support().to_string() + " (draw " +
           std::to_string((~inside).nonzero()[0][0].item<int64_t>()) + ")";
  }
  const at::Tensor lp = d->log_prob(draws).reshape(-1);
  const at::Tensor bad = ~at::isfinite(lp);
  if (bad.any().item<bool>()) {
    return "log_prob of a draw is " + number(lp[bad.nonzero()[0][0]].item<double>());
  }
  return {};
}


std::string check_sampler_moments(const Family& f, const MomentCase& c) {
  const int64_t n = 100000;
  const auto d = f.make(c.parameters);
  at::Tensor draws = d->sample({n}, generator(42));
  if (const std::string error = check_inside(*d, draws); !error.empty()) return error;
  if (c.project) draws = c.project(draws);
  if (c.mean.defined()) return check_moments(draws, c.mean, c.variance);
  if (c.quantiles.empty()) return "the table gives neither moments nor quantiles";
  // The share of draws below x_p is Binomial(n, p) / n.
  for (const auto& [p, x] : c.quantiles) {
    const double share = (draws <= x).to(at::kDouble).mean().item<double>();
    if (std::abs(share - p) > 5 * std::sqrt(p * (1 - p) / static_cast<double>(n))) {
      return "the share of draws below the " + number(p) + "-quantile is " + number(share);
    }
  }
  return {};
}

std::string check_fit(const Family& f, const FitCase& c) {
  const auto d = f.make(c.parameters);
  if (c.cdf) {
    at::Tensor draws = d->sample({20000}, generator(7));
    if (const std::string error = check_inside(*d, draws); !error.empty()) return error;
    if (c.project) draws = c.project(draws);
    const auto ks = ks_test(draws.reshape(-1), c.cdf);
    if (ks.p_value > 1e-3) return {};
    return "KS statistic " + number(ks.statistic) + ", p-value " + number(ks.p_value);
  }
  if (!c.pmf || c.values.empty()) return "the table gives neither a CDF nor a mass function";
  at::Tensor draws = d->sample({100000}, generator(42));
  if (const std::string error = check_inside(*d, draws); !error.empty()) return error;
  if (c.project) draws = c.project(draws);
  draws = draws.to(at::kDouble).reshape(-1);
  const double n = static_cast<double>(draws.numel());
  // Bins with an expected count below 5 join the rest, where the chi-square approximation
  // holds; the rest is a bin of its own when it is large enough.
  double statistic = 0, rest_expected = n, rest_observed = n;
  int bins = 0;
  for (const double k : c.values) {
    const double p = c.pmf(k);
    const double observed = (draws == k).to(at::kDouble).sum().item<double>();
    if (std::abs(observed / n - p) > 5 * std::sqrt(p * (1 - p) / n)) {
      return "value " + number(k) + ": share " + number(observed / n) + ", mass " + number(p);
    }
    if (n * p < 5) continue;
    statistic += (observed - n * p) * (observed - n * p) / (n * p);
    rest_expected -= n * p;
    rest_observed -= observed;
    ++bins;
  }
  if (rest_expected >= 5) {
    statistic += (rest_observed - rest_expected) * (rest_observed - rest_expected) / rest_expected;
    ++bins;
  }
  if (bins < 2) return "fewer than two bins for the chi-square test";
  const double p_value = chi_square_p_value(statistic, bins - 1);
  if (p_value > 1e-3) return {};
  return "chi-square " + number(statistic) + " on " + std::to_string(bins - 1) +
         " degrees of freedom, p-value " + number(p_value);
}

std::string check_reproducible(const Family& f) {
  const auto d = f.make(f.reference.parameters);
  if (!f.sampler_error.empty()) return expect_sampler_error(f, *d);
  const at::Tensor first = d->sample({50}, generator(3));
  at::randn({7});  // the global generator must play no part
  if (!at::equal(first, d->sample({50}, generator(3)))) return "the same seed gave other draws";
  if (at::equal(first, d->sample({50}, generator(4)))) return "another seed gave the same draws";
  return {};
}

std::string check_float32(const Family& f) {
  const DensityCase& r = f.reference;
  const auto d = f.make(to_dtype(f, r.parameters, at::kFloat));
  const at::Tensor value = r.value.is_floating_point() ? r.value.to(at::kFloat) : r.value;
  const at::Tensor lp = d->log_prob(value);
  if (lp.scalar_type() != at::kFloat) {
    return std::string("log_prob of a float32 value is ") + c10::toString(lp.scalar_type());
  }
  // Rounding the parameters and the value to float32 moves the density by ~1e-7.
  if (!close(lp.item<double>(), r.expected, 1e-5)) {
    return "log_prob is " + number(lp.item<double>()) + ", expected " + number(r.expected);
  }
  if (d->support().is_discrete()) {
    const at::ScalarType integer = d->log_prob(r.value.to(at::kLong)).scalar_type();
    if (integer != at::kFloat) {
      return std::string("log_prob of an int64 value is ") + c10::toString(integer);
    }
  }
  const at::ScalarType promoted = d->log_prob(r.value.to(at::kDouble).unsqueeze(0)).scalar_type();
  if (promoted != f.float64_value_gives) {
    return std::string("log_prob of a float64 value is ") + c10::toString(promoted) +
           ", expected " + c10::toString(f.float64_value_gives);
  }
  return {};
}

std::string check_support(const Family& f) {
  const auto d = f.make(f.reference.parameters);
  if (d->name() != f.name) return "name() is " + d->name() + ", expected " + f.name;
  const std::string support = d->support().to_string();
  if (support != f.support) return "support() is " + support + ", expected " + f.support;
  return {};
}

std::string check_factory(const Family& f) {
  if (!f.factory) return "the table has no factory";
  const RandomVariable x = f.factory("x");
  if (x.name() != "x") return "name " + x.name();
  if (x.distribution().name() != f.name) return "distribution " + x.distribution().name();
  if (x.shape() != f.factory_shape) {
    return "shape " + to_string(x.shape()) + ", expected " + to_string(f.factory_shape);
  }
  if (!f.sampler_error.empty()) return {};  // an improper variable's value must be given
  // Its drawn value scores one finite log density per independent element.
  const Shape& event = x.distribution().event_shape();
  const Shape elements(f.factory_shape.begin(), f.factory_shape.end() - event.size());
  const at::Tensor lp = x.log_prob();
  if (lp.sizes() != elements) {
    return "log_prob() has shape " + to_string(lp.sizes()) + ", expected " + to_string(elements);
  }
  if (!at::isfinite(lp).all().item<bool>()) return "log_prob() of the drawn value is not finite";
  return {};
}

}  // namespace variate::testing
