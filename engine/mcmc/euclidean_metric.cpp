#include "engine/mcmc/euclidean_metric.h"

#include <cmath>

#include "engine/core/checks.h"

namespace variate {

EuclideanMetric::EuclideanMetric(MetricKind kind, size_t dimension)
    : kind_(kind), dimension_(dimension) {
  const std::vector<double> ones(dimension, 1.0);
  if (kind == MetricKind::low_rank) {
    set_inverse_metric(low_rank_entries(ones, {}, {}));
  } else if (kind == MetricKind::diagonal) {
    set_inverse_metric(ones);
  } else {
    std::vector<double> unit(dimension * dimension, 0.0);
    for (size_t i = 0; i < dimension; ++i) unit[i * dimension + i] = 1.0;
    set_inverse_metric(unit);
  }
}

const char* metric_name(MetricKind kind) {
  switch (kind) {
    case MetricKind::dense:
      return "dense_e";
    case MetricKind::low_rank:
      return "lowrank_e";
    case MetricKind::diagonal:
      break;
  }
  return "diag_e";
}

long low_rank_dimension(const std::vector<double>& entries) {
  if (entries.empty() || !(entries[0] >= 0) || entries[0] != std::floor(entries[0])) return -1;
  const double r = entries[0];
  const double d = (static_cast<double>(entries.size()) - 1 - r) / (r + 1);
  if (!(d >= 0) || d != std::floor(d)) return -1;
  return static_cast<long>(d);
}

std::vector<double> low_rank_entries(const std::vector<double>& variances, const std::vector<double>& values,
                                     const std::vector<double>& vectors) {
  const size_t d = variances.size();
  std::vector<double> entries{static_cast<double>(values.size())};
  entries.insert(entries.end(), variances.begin(), variances.end());
  for (size_t k = 0; k < values.size(); ++k) {
    entries.push_back(values[k]);
    const auto first = vectors.begin() + static_cast<std::ptrdiff_t>(k * d);
    entries.insert(entries.end(), first, first + static_cast<std::ptrdiff_t>(d));
  }
  return entries;
}

void EuclideanMetric::set_inverse_metric(const std::vector<double>& inverse_metric) {
  const size_t d = dimension_;
  if (kind_ == MetricKind::low_rank) {
    if (low_rank_dimension(inverse_metric) != static_cast<long>(d)) {
      throw ArgumentError("EuclideanMetric: a low-rank inverse metric must have 1 + " + std::to_string(d) + " + r * " +
                          std::to_string(d + 1) + " entries, r the first; got " +
                          std::to_string(inverse_metric.size()));
    }
  } else {
    const size_t expected = kind_ == MetricKind::diagonal ? d : d * d;
    if (inverse_metric.size() != expected) {
      throw ArgumentError("EuclideanMetric: inverse metric must have " + std::to_string(expected) + " entries, got " +
                          std::to_string(inverse_metric.size()));
    }
  }
  const auto check_positive = [](double v, const char* what) {
    if (!(v > 0) || !std::isfinite(v)) {
      throw ArgumentError(std::string("EuclideanMetric: ") + what + " must be positive and finite, got " +
                          std::to_string(v));
    }
  };
  if (kind_ == MetricKind::diagonal) {
    for (double v : inverse_metric) check_positive(v, "diagonal inverse metric entries");
  } else if (kind_ == MetricKind::low_rank) {
    rank_ = static_cast<size_t>(inverse_metric[0]);
    scales_.resize(d);
    for (size_t i = 0; i < d; ++i) {
      check_positive(inverse_metric[1 + i], "a low-rank inverse metric's variances");
      scales_[i] = std::sqrt(inverse_metric[1 + i]);
    }
    for (size_t k = 0; k < rank_; ++k) check_positive(*eigenpair(k, inverse_metric), "its eigenvalues");
    projections_.resize(rank_);
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
  if (kind_ == MetricKind::low_rank) {
    // p = S^-1 (I + sum_k (value_k^-1/2 - 1) u_k u_k') z: Cov(p) = S^-1 (I + sum_k
    // (1/value_k - 1) u_k u_k') S^-1 = M, the u_k being orthonormal.
    for (size_t i = 0; i < d; ++i) p[i] = random.normal();
    project(p);
    for (size_t k = 0; k < rank_; ++k) {
      const double* u = eigenpair(k, inverse_metric_) + 1;
      const double weight = (1 / std::sqrt(u[-1]) - 1) * projections_[k];
      for (size_t i = 0; i < d; ++i) p[i] += weight * u[i];
    }
    for (size_t i = 0; i < d; ++i) p[i] /= scales_[i];
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
  if (kind_ == MetricKind::low_rank) {
    // (S p)' (I + sum_k (value_k - 1) u_k u_k') (S p)
    for (size_t i = 0; i < d; ++i) energy += (scales_[i] * p[i]) * (scales_[i] * p[i]);
    for (size_t k = 0; k < rank_; ++k) {
      const double* u = eigenpair(k, inverse_metric_) + 1;
      double projection = 0;
      for (size_t i = 0; i < d; ++i) projection += u[i] * (scales_[i] * p[i]);
      energy += (u[-1] - 1) * projection * projection;
    }
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
  if (kind_ == MetricKind::low_rank) {
    for (size_t i = 0; i < d; ++i) out[i] = scales_[i] * p[i];
    project(out);
    for (size_t k = 0; k < rank_; ++k) {
      const double* u = eigenpair(k, inverse_metric_) + 1;
      const double weight = (u[-1] - 1) * projections_[k];
      for (size_t i = 0; i < d; ++i) out[i] += weight * u[i];
    }
    for (size_t i = 0; i < d; ++i) out[i] *= scales_[i];
    return;
  }
  for (size_t i = 0; i < d; ++i) {
    double sum = 0;
    for (size_t j = 0; j < d; ++j) sum += inverse_metric_[i * d + j] * p[j];
    out[i] = sum;
  }
}

const double* EuclideanMetric::eigenpair(size_t k, const std::vector<double>& entries) const {
  return &entries[1 + dimension_ + k * (dimension_ + 1)];
}

void EuclideanMetric::project(const std::vector<double>& x) const {
  const size_t d = dimension_;
  for (size_t k = 0; k < rank_; ++k) {
    const double* u = eigenpair(k, inverse_metric_) + 1;
    double sum = 0;
    for (size_t i = 0; i < d; ++i) sum += u[i] * x[i];
    projections_[k] = sum;
  }
}

}  // namespace variate
