#pragma once
/// The Euclidean metric of HMC: kinetic energy 0.5 p' M^-1 p with a diagonal or dense
/// inverse mass matrix M^-1 (Stan's diag_e and dense_e; Betancourt 2017, Sec. 4.2), or a
/// low-rank + diagonal one (nutpie's; low_rank_estimate.h), which costs O(d r) a step.

#include <vector>

#include "engine/core/random_stream.h"

namespace variate {

enum class MetricKind { diagonal, dense, low_rank };

/// The metric's name in Stan's CSV files and in projects: diag_e, dense_e, and lowrank_e
/// (Variate's).
const char* metric_name(MetricKind kind);

class EuclideanMetric {
 public:
  /// Unit metric of dimension d.
  EuclideanMetric(MetricKind kind, size_t dimension);

  MetricKind kind() const { return kind_; }
  size_t dimension() const { return dimension_; }

  /// Diagonal: d entries. Dense: d*d entries, row-major, symmetric positive definite.
  /// Low rank: r, then d variances s_i^2, then r times an eigenvalue and its unit
  /// eigenvector (d entries): M^-1 = S (I + sum_k (value_k - 1) u_k u_k') S with
  /// S = diag(s); r = 0 is the diagonal metric. Leading with r, the entries say d.
  /// @throws ArgumentError if the size is wrong, an entry is not positive and finite, or a
  /// dense matrix is not positive definite.
  /// A new metric of the same size reuses the metric's storage: no allocation.
  void set_inverse_metric(const std::vector<double>& inverse_metric);
  const std::vector<double>& inverse_metric() const { return inverse_metric_; }

  /// p ~ N(0, M).
  void sample_momentum(std::vector<double>& p, RandomStream& random) const;
  /// 0.5 p' M^-1 p.
  double kinetic_energy(const std::vector<double>& p) const;
  /// dK/dp = M^-1 p (the velocity; Stan's p_sharp).
  void velocity(const std::vector<double>& p, std::vector<double>& out) const;

 private:
  /// Low rank: projections_[k] = u_k' x.
  void project(const std::vector<double>& x) const;
  /// Low rank: where the k-th eigenvalue stands in `entries`, its eigenvector after it.
  const double* eigenpair(size_t k, const std::vector<double>& entries) const;

  MetricKind kind_;
  size_t dimension_;
  std::vector<double> inverse_metric_;
  std::vector<double> cholesky_;  // dense: lower L with M^-1 = L L', row-major
  // low rank: the scales s_i, and scratch for the r projections of a momentum
  std::vector<double> scales_;
  size_t rank_ = 0;
  mutable std::vector<double> projections_;
};

/// The dimension d of a low-rank metric's entries (see set_inverse_metric); -1 where they
/// are not such entries.
long low_rank_dimension(const std::vector<double>& entries);
/// A low-rank metric's entries: the diagonal `variances`, and `values` with their
/// eigenvectors (`vectors`, values.size() x d row-major).
std::vector<double> low_rank_entries(const std::vector<double>& variances, const std::vector<double>& values,
                                     const std::vector<double>& vectors);

}  // namespace variate
