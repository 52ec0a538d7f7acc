#pragma once
/// Element-wise running mean and variance of vectors (Welford's algorithm).

#include <cstddef>
#include <vector>

namespace variate {

class RunningVariance {
 public:
  explicit RunningVariance(size_t dimension) : mean_(dimension, 0.0), m2_(dimension, 0.0) {}

  void add(const std::vector<double>& x) {
    ++count_;
    const double weight = 1.0 / static_cast<double>(count_);
    for (size_t i = 0; i < mean_.size(); ++i) {
      const double before = x[i] - mean_[i];
      mean_[i] += weight * before;
      m2_[i] += before * (x[i] - mean_[i]);
    }
  }
  long count() const { return count_; }
  const std::vector<double>& mean() const { return mean_; }
  /// The sums of squared deviations: the variance times count() - 1.
  const std::vector<double>& sum_of_squares() const { return m2_; }

 private:
  long count_ = 0;
  std::vector<double> mean_;
  std::vector<double> m2_;
};

}  // namespace variate
