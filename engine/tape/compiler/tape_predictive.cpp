#include "engine/tape/compiler/tape_predictive.h"

#include "engine/core/argument_error.h"
#include "engine/target/parameter_names.h"

namespace variate::tape {

TapePredictive::TapePredictive(const model::CompiledModel& model) : compiled_(compile_predictive(model)) {
  for (const auto& o : compiled_.observed) {
    observed_.push_back({o.name, o.shape, o.log_lik_shape});
    for (const int64_t i : column_major_order(o.shape)) replicated_cells_.push_back(o.replicated + i);
    for (const int64_t i : column_major_order(o.log_lik_shape)) log_lik_cells_.push_back(o.log_lik + i);
  }
  int64_t start = 0;
  for (const auto& p : model.layout().parameters()) {
    for (const int64_t offset : column_major_order(p.shape)) input_order_.push_back(start + offset);
    start += numel(p.shape);
  }
}

std::vector<TapePredictive::Row> TapePredictive::rows(const std::vector<std::vector<double>>& draws,
                                                      std::mt19937_64& random) const {
  const Program& program = compiled_.program;
  Work work = program.make_work();
  work.random = &random;
  std::vector<double> input(static_cast<size_t>(program.dimension()));
  const auto read = [&](const std::vector<int64_t>& cells) {
    std::vector<double> values(cells.size());
    for (size_t c = 0; c < cells.size(); ++c) values[c] = work.values[static_cast<size_t>(cells[c])];
    return values;
  };
  std::vector<Row> result;
  result.reserve(draws.size());
  for (const auto& draw : draws) {
    if (draw.size() < input_order_.size()) {
      throw ArgumentError("posterior_predictive: a draw has " + std::to_string(draw.size()) +
                          " values, expected at least " + std::to_string(input_order_.size()) +
                          " (the parameters' columns)");
    }
    for (size_t column = 0; column < input_order_.size(); ++column)
      input[static_cast<size_t>(input_order_[column])] = draw[column];
    program.log_density(input.data(), nullptr, work, /*jacobian=*/false);
    result.push_back({read(replicated_cells_), read(log_lik_cells_)});
  }
  return result;
}

}  // namespace variate::tape
