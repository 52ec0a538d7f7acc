#include "engine/tape/compiler/tape_predictive.h"

#include "engine/core/argument_error.h"
#include "engine/target/parameter_names.h"

namespace variate::tape {

TapePredictive::TapePredictive(const model::CompiledModel& model) : compiled_(compile_predictive(model)) {
  for (const auto& o : compiled_.observed) observed_.push_back({o.name, o.shape});
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
  // Column-major values of a row-major block.
  const auto append = [&](int64_t offset, const Shape& shape, std::vector<double>& out) {
    const double* values = work.values.data() + offset;
    for (const int64_t i : column_major_order(shape)) out.push_back(values[i]);
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
    Row row;
    for (const auto& o : compiled_.observed) append(o.replicated, o.shape, row.replicated);
    for (const auto& o : compiled_.observed) append(o.log_lik, o.shape, row.log_lik);
    result.push_back(std::move(row));
  }
  return result;
}

}  // namespace variate::tape
