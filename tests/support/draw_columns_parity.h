#pragma once
/// The tape's draw columns (tape::tape_draw_columns) against LibTorch's
/// (CompiledModel::draw_columns): the same names, and values within a relative tolerance.

#include <cmath>
#include <string>
#include <vector>

#include <ATen/ATen.h>

#include "engine/model/compiled_model.h"
#include "engine/tape/compiler/tape_draw_columns.h"

namespace variate::testing {

/// The first disagreement at `points` (unconstrained), or "" when there is none.
inline std::string draw_columns_difference(const model::CompiledModel& model, const std::vector<at::Tensor>& points,
                                           double tolerance) {
  const DrawColumns tape = tape::tape_draw_columns(model);
  const DrawColumns torch = model.draw_columns();
  const std::vector<std::string> names = torch.names(NameStyle::StanCsv);
  if (tape.names(NameStyle::StanCsv) != names) return "the tape's columns are named differently";
  std::vector<std::vector<double>> positions;
  for (const at::Tensor& point : points) {
    const at::Tensor flat = point.to(at::kDouble).contiguous();
    positions.emplace_back(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
  }
  const auto tape_rows = tape.rows(positions);
  const auto torch_rows = torch.rows(positions);
  for (size_t r = 0; r < positions.size(); ++r) {
    for (size_t c = 0; c < names.size(); ++c) {
      const double want = torch_rows[r][c], got = tape_rows[r][c];
      const bool same = (std::isnan(want) && std::isnan(got)) || want == got ||
                        std::abs(got - want) <= tolerance * std::max(1.0, std::abs(want));
      if (!same) {
        return names[c] + " at point " + std::to_string(r) + ": " + std::to_string(got) + " on the tape, " +
               std::to_string(want) + " on LibTorch";
      }
    }
  }
  return "";
}

}  // namespace variate::testing
