#include "variate/model/output_columns.h"

#include <ATen/ATen.h>

namespace variate::model {

OutputColumns::OutputColumns(const CompiledModel& model) : model_(model) {
  for (const auto& p : model.layout().parameters()) {
    parameters_.push_back({p.name, p.shape, column_major_order(p.shape)});
    size_ += static_cast<size_t>(numel(p.shape));
  }
  for (const auto& name : model.derived_names()) {
    const Shape& shape = model.shape(name);
    derived_.push_back({name, shape, column_major_order(shape)});
    size_ += static_cast<size_t>(numel(shape));
  }
}

std::vector<std::string> OutputColumns::names(NameStyle style) const {
  std::vector<std::string> result;
  for (const auto* blocks : {&parameters_, &derived_}) {
    for (const auto& block : *blocks) {
      const auto names = element_names(block.name, block.shape, style);
      result.insert(result.end(), names.begin(), names.end());
    }
  }
  return result;
}

std::vector<std::vector<double>> OutputColumns::rows(
    const std::vector<std::vector<double>>& positions) const {
  std::vector<std::vector<double>> result;
  result.reserve(positions.size());
  for (const auto& position : positions) result.push_back(batch_rows({position}).front());
  return result;
}

std::vector<std::vector<double>> OutputColumns::batch_rows(
    const std::vector<std::vector<double>>& positions) const {
  const auto n = static_cast<int64_t>(positions.size());
  if (n == 0) return {};
  const int64_t d = model_.layout().dimension();
  at::Tensor theta = at::empty({n, d}, at::kDouble);
  for (int64_t i = 0; i < n; ++i) {
    std::copy(positions[i].begin(), positions[i].end(), theta[i].data_ptr<double>());
  }
  at::NoGradGuard no_grad;
  const ValueMap parameters = model_.layout().constrain(theta).values;
  const ValueMap derived = derived_.empty() ? ValueMap{} : model_.derived(parameters);
  std::vector<std::vector<double>> rows(n, std::vector<double>(size_));
  size_t column = 0;
  const auto append = [&](const Block& block, const at::Tensor& values) {
    const at::Tensor flat = values.reshape({n, -1}).to(at::kDouble).contiguous();
    const double* data = flat.data_ptr<double>();
    const int64_t width = flat.size(1);
    for (int64_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < block.order.size(); ++k) {
        rows[i][column + k] = data[i * width + block.order[k]];
      }
    }
    column += block.order.size();
  };
  for (const auto& block : parameters_) append(block, parameters.at(block.name));
  for (const auto& block : derived_) append(block, derived.at(block.name));
  return rows;
}

}  // namespace variate::model
