#pragma once
/// The Euclidean metric of HMC: kinetic energy 0.5 p' M^-1 p with a diagonal or dense
/// inverse mass matrix M^-1 (Stan's diag_e and dense_e; Betancourt 2017, Sec. 4.2).

#include <vector>

#include "engine/core/random_stream.h"

namespace variate {

enum class MetricKind { diagonal, dense };

class EuclideanMetric {
 public:
  /// Unit metric of dimension d.
  EuclideanMetric(MetricKind kind, size_t dimension);

  MetricKind kind() const { return kind_; }
  size_t dimension() const { return dimension_; }

  /// Diagonal: d entries. Dense: d*d entries, row-major, symmetric positive definite.
  /// @throws ArgumentError if the size is wrong or a dense matrix is not positive definite.
  /// A new diagonal of the same size reuses the metric's storage: no allocation.
  void set_inverse_metric(const std::vector<double>& inverse_metric);
  const std::vector<double>& inverse_metric() const { return inverse_metric_; }

  /// p ~ N(0, M).
  void sample_momentum(std::vector<double>& p, RandomStream& random) const;
  /// 0.5 p' M^-1 p.
  double kinetic_energy(const std::vector<double>& p) const;
  /// dK/dp = M^-1 p (the velocity; Stan's p_sharp).
  void velocity(const std::vector<double>& p, std::vector<double>& out) const;

 private:
  MetricKind kind_;
  size_t dimension_;
  std::vector<double> inverse_metric_;
  std::vector<double> cholesky_;  // dense: lower L with M^-1 = L L', row-major
};

}  // namespace variate
