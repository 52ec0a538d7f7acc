#include "variate/target/draw_columns.h"

#include <ATen/ATen.h>

#include "variate/core/checks.h"
#include "variate/core/condition.h"
#include "variate/core/deterministic.h"

namespace variate {

DrawColumns::DrawColumns(LogJoint log_joint, ParameterLayout layout)
    : log_joint_(std::move(log_joint)), layout_(std::move(layout)) {
  for (const auto& p : layout_.parameters()) {
    parameters_.push_back({p.name, p.shape, column_major_order(p.shape)});
    size_ += static_cast<size_t>(numel(p.shape));
  }
  const at::Tensor center = at::zeros({layout_.dimension()}, at::kDouble);
  for (const auto& [name, value] : deterministic(layout_.constrain(center).values)) {
    const Shape shape(value.sizes().begin(), value.sizes().end());
    deterministic_.push_back({name, shape, column_major_order(shape)});
    size_ += static_cast<size_t>(numel(shape));
  }
}

std::vector<std::string> DrawColumns::names(NameStyle style) const {
  std::vector<std::string> result;
  for (const auto* blocks : {&parameters_, &deterministic_}) {
    for (const auto& block : *blocks) {
      const auto names = element_names(block.name, block.shape, style);
      result.insert(result.end(), names.begin(), names.end());
    }
  }
  return result;
}

std::vector<std::pair<std::string, at::Tensor>> DrawColumns::deterministic(
    const ValueMap& parameters) const {
  // Draws are data here: a value a check would reject (an overflow to inf) is recorded.
  ValidationGuard no_validation(false);
  at::NoGradGuard no_grad;
  ValueMap values = log_joint_.observed().values();
  for (const auto& [name, value] : parameters) values[name] = value;
  DeterministicRecorder recorder;
  {
    Condition condition(std::move(values));
    TracerScope scope(condition);
    log_joint_.model()();
  }
  return recorder.values();
}

std::vector<std::vector<double>> DrawColumns::rows(
    const std::vector<std::vector<double>>& positions) const {
  const int64_t d = layout_.dimension();
  const auto append = [](std::vector<double>& row, size_t& column, const Block& block,
                         const at::Tensor& value) {
    const at::Tensor flat = value.reshape(-1).to(at::kDouble).contiguous();
    if (flat.numel() != static_cast<int64_t>(block.order.size())) {
      throw ArgumentError("DrawColumns: '" + block.name + "' has shape " +
                          to_string(value.sizes()) + " at a draw, expected " +
                          to_string(block.shape));
    }
    const double* data = flat.data_ptr<double>();
    for (size_t k = 0; k < block.order.size(); ++k) row[column + k] = data[block.order[k]];
    column += block.order.size();
  };
  at::NoGradGuard no_grad;
  std::vector<std::vector<double>> rows;
  rows.reserve(positions.size());
  for (const auto& position : positions) {
    if (static_cast<int64_t>(position.size()) != d) {
      throw ArgumentError("DrawColumns: a position has " + std::to_string(position.size()) +
                          " values, expected " + std::to_string(d));
    }
    // One point at a time, as the sampler evaluated it: the values do not depend on how
    // draws happen to be grouped into batches.
    const at::Tensor theta = at::tensor(position, at::kDouble);
    const ValueMap parameters = layout_.constrain(theta).values;
    std::vector<double> row(size_);
    size_t column = 0;
    for (const auto& block : parameters_) append(row, column, block, parameters.at(block.name));
    if (!deterministic_.empty()) {
      const auto recorded = deterministic(parameters);
      if (recorded.size() != deterministic_.size()) {
        throw ArgumentError("DrawColumns: the model recorded " + std::to_string(recorded.size()) +
                            " deterministic quantities at a draw, expected " +
                            std::to_string(deterministic_.size()));
      }
      for (size_t b = 0; b < deterministic_.size(); ++b) {
        append(row, column, deterministic_[b], recorded[b].second);
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace variate
