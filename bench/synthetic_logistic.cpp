#include "synthetic_logistic.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/checks.h"

namespace variate::bench {

int64_t LogisticData::rows() const { return x_columns.size(1); }

int64_t LogisticData::columns() const { return x_columns.size(0); }

at::Tensor LogisticData::design(at::ScalarType dtype, bool row_major) const {
  const at::Tensor x = x_columns.to(dtype).t();
  return row_major ? x.contiguous() : x;
}

LogisticData make_synthetic_logistic(int64_t rows, int64_t columns, uint64_t seed) {
  if (rows < 1) throw ArgumentError("make_synthetic_logistic: argument 'rows' must be >= 1, got " + std::to_string(rows));
  if (columns < 1) {
    throw ArgumentError("make_synthetic_logistic: argument 'columns' must be >= 1, got " +
                        std::to_string(columns));
  }
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  LogisticData data;
  data.beta_true = 0.5 * at::randn({columns}, generator, f64);
  data.x_columns = at::randn({columns, rows}, generator, f64);
  data.x_columns[0].fill_(1.0);  // the intercept column
  const at::Tensor eta = at::mv(data.x_columns.t(), data.beta_true);
  data.y = at::bernoulli(at::sigmoid(eta), generator).to(at::kLong);
  return data;
}

}  // namespace variate::bench
