#include "engine/mcmc/euclidean_metric.h"

#include <cmath>

#include "engine/core/checks.h"

namespace variate {

EuclideanMetric::EuclideanMetric(MetricKind kind, size_t dimension)
    : kind_(kind), dimension_(dimension) {
  std::vector<double> unit(kind == MetricKind::diagonal ? dimension : dimension * dimension, 0.0);
  for (size_t i = 0; i < dimension; ++i) unit[kind == MetricKind::diagonal ? i : i * dimension + i] = 1.0;
  set_inverse_metric(unit);
}

void EuclideanMetric::set_inverse_metric(const std::vector<double>& inverse_metric) {
  const size_t d = dimension_;
  const size_t expected = kind_ == MetricKind::diagonal ? d : d * d;
  if (inverse_metric.size() != expected) {
    throw ArgumentError("EuclideanMetric: inverse metric must have " + std::to_string(expected) +
                        " entries, got " + std::to_string(inverse_metric.size()));
  }
  if (kind_ == MetricKind::diagonal) {
    for (double v : inverse_metric) {
      if (!(v > 0) || !std::isfinite(v)) {
        throw ArgumentError("EuclideanMetric: diagonal inverse metric entries must be positive and finite, got " +
                            std::to_string(v));
      }
    }
  } else {
    // Cholesky factor L of M^-1 (Cholesky-Banachiewicz).
    std::vector<double> l(d * d, 0.0);
    for (size_t i = 0; i < d; ++i) {
      for (size_t j = 0; j <= i; ++j) {
        double sum = inverse_metric[i * d + j];
        for (size_t k = 0; k < j; ++k) sum -= l[i * d + k] * l[j * d + k];
        if (i == j) {
          if (!(sum > 0)) throw ArgumentError("EuclideanMetric: dense inverse metric is not positive definite");
          l[i * d + i] = std::sqrt(sum);
        } else {
          l[i * d + j] = sum / l[j * d + j];
        }
      }
    }
    cholesky_ = std::move(l);
  }
  inverse_metric_ = inverse_metric;
}

void EuclideanMetric::sample_momentum(std::vector<double>& p, RandomStream& random) const {
  const size_t d = dimension_;
  p.resize(d);
  if (kind_ == MetricKind::diagonal) {
    for (size_t i = 0; i < d; ++i) p[i] = random.normal() / std::sqrt(inverse_metric_[i]);
    return;
  }
  // p = L^-T u gives Cov(p) = (L L')^-1 = M; solved in place, since p[i] is written after
  // u[i] is read and only p[k > i] are read then.
  for (size_t i = 0; i < d; ++i) p[i] = random.normal();
  for (size_t ii = d; ii-- > 0;) {
    double sum = p[ii];
    for (size_t k = ii + 1; k < d; ++k) sum -= cholesky_[k * d + ii] * p[k];
    p[ii] = sum / cholesky_[ii * d + ii];
  }
}

double EuclideanMetric::kinetic_energy(const std::vector<double>& p) const {
  // p' M^-1 p, with M^-1 p formed element by element as velocity() forms it.
  const size_t d = dimension_;
  double energy = 0;
  if (kind_ == MetricKind::diagonal) {
    for (size_t i = 0; i < d; ++i) energy += p[i] * (inverse_metric_[i] * p[i]);
    return 0.5 * energy;
  }
  for (size_t i = 0; i < d; ++i) {
    double v = 0;
    for (size_t j = 0; j < d; ++j) v += inverse_metric_[i * d + j] * p[j];
    energy += p[i] * v;
  }
  return 0.5 * energy;
}

void EuclideanMetric::velocity(const std::vector<double>& p, std::vector<double>& out) const {
  const size_t d = dimension_;
  out.resize(d);
  if (kind_ == MetricKind::diagonal) {
    for (size_t i = 0; i < d; ++i) out[i] = inverse_metric_[i] * p[i];
    return;
  }
  for (size_t i = 0; i < d; ++i) {
    double sum = 0;
    for (size_t j = 0; j < d; ++j) sum += inverse_metric_[i * d + j] * p[j];
    out[i] = sum;
  }
}

}  // namespace variate
