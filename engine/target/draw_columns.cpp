#include "engine/target/draw_columns.h"

#include <ATen/ATen.h>

#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/deterministic.h"

namespace variate {

DrawColumns::DrawColumns(DrawValues values, int64_t dimension)
    : values_(std::move(values)), dimension_(dimension) {
  at::NoGradGuard no_grad;
  for (const auto& [name, value] : values_(at::zeros({dimension_}, at::kDouble))) {
    const Shape shape(value.sizes().begin(), value.sizes().end());
    blocks_.push_back({name, shape, column_major_order(shape)});
    size_ += static_cast<size_t>(numel(shape));
  }
}

DrawColumns::DrawColumns(const LogJoint& log_joint, const ParameterLayout& layout)
    : DrawColumns(
          [log_joint, layout](const at::Tensor& theta) {
            const ValueMap parameters = layout.constrain(theta).values;
            NamedValues values;
            for (const auto& p : layout.parameters()) values.emplace_back(p.name, parameters.at(p.name));
            for (auto& entry : deterministic_values(log_joint, parameters)) values.push_back(std::move(entry));
            return values;
          },
          layout.dimension()) {}

DrawColumns::DrawColumns(DrawValues values, const std::vector<DrawQuantity>& quantities, int64_t dimension)
    : values_(std::move(values)), dimension_(dimension) {
  for (const auto& quantity : quantities) {
    blocks_.push_back({quantity.name, quantity.shape, column_major_order(quantity.shape)});
    size_ += static_cast<size_t>(numel(quantity.shape));
  }
}

DrawColumns::DrawColumns(FlatDrawValues values, const std::vector<DrawQuantity>& quantities, int64_t dimension)
    : DrawColumns(DrawValues(), quantities, dimension) {
  flat_ = std::move(values);
}

std::vector<double> DrawColumns::row_of(const double* row_major) const {
  std::vector<double> row(size_);
  size_t column = 0;
  for (const Block& block : blocks_) {
    for (size_t k = 0; k < block.order.size(); ++k) row[column + k] = row_major[column + block.order[k]];
    column += block.order.size();
  }
  return row;
}

std::vector<std::string> DrawColumns::names(NameStyle style) const {
  std::vector<std::string> result;
  for (const auto& block : blocks_) {
    const auto names = element_names(block.name, block.shape, style);
    result.insert(result.end(), names.begin(), names.end());
  }
  return result;
}

std::vector<std::vector<double>> DrawColumns::rows(
    const std::vector<std::vector<double>>& positions) const {
  at::NoGradGuard no_grad;
  std::vector<std::vector<double>> rows;
  rows.reserve(positions.size());
  for (const auto& position : positions) {
    if (static_cast<int64_t>(position.size()) != dimension_) {
      throw ArgumentError("DrawColumns: a position has " + std::to_string(position.size()) +
                          " values, expected " + std::to_string(dimension_));
    }
    if (flat_) {
      std::vector<double> row_major(size_);
      flat_(position.data(), row_major.data());
      rows.push_back(row_of(row_major.data()));
      continue;
    }
    const NamedValues values = values_(at::tensor(position, at::kDouble));
    if (values.size() != blocks_.size()) {
      throw ArgumentError("DrawColumns: " + std::to_string(values.size()) +
                          " quantities at a draw, expected " + std::to_string(blocks_.size()));
    }
    std::vector<double> row(size_);
    size_t column = 0;
    for (size_t b = 0; b < blocks_.size(); ++b) {
      const Block& block = blocks_[b];
      const at::Tensor flat = values[b].second.reshape(-1).to(at::kDouble).contiguous();
      if (flat.numel() != static_cast<int64_t>(block.order.size())) {
        throw ArgumentError("DrawColumns: '" + block.name + "' has shape " +
                            to_string(values[b].second.sizes()) + " at a draw, expected " +
                            to_string(block.shape));
      }
      const double* data = flat.data_ptr<double>();
      for (size_t k = 0; k < block.order.size(); ++k) row[column + k] = data[block.order[k]];
      column += block.order.size();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

NamedValues deterministic_values(const LogJoint& log_joint, const ValueMap& parameters) {
  // Draws are data here: a value a check would reject (an overflow to inf) is recorded.
  ValidationGuard no_validation(false);
  at::NoGradGuard no_grad;
  ValueMap values = log_joint.observed().values();
  for (const auto& [name, value] : parameters) values[name] = value;
  DeterministicRecorder recorder;
  {
    Condition condition(std::move(values));
    TracerScope scope(condition);
    log_joint.model()();
  }
  return recorder.values();
}

}  // namespace variate
