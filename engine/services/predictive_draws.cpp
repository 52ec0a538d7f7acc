#include "engine/services/predictive_draws.h"

#include <algorithm>

#include "engine/core/argument_error.h"

namespace variate::services {

std::vector<std::string> parameter_names(const model::CompiledModel& model) {
  std::vector<std::string> names = model.draw_columns().names(NameStyle::StanCsv);
  int64_t count = 0;
  for (const auto& p : model.layout().parameters()) count += numel(p.shape);
  names.resize(static_cast<size_t>(count));  // the derived quantities follow
  return names;
}

std::vector<std::vector<double>> parameter_rows(const ChainTable& chain, const std::vector<std::string>& parameters) {
  std::vector<size_t> index;
  for (const auto& name : parameters) {
    const auto it = std::find(chain.columns.begin(), chain.columns.end(), name);
    if (it == chain.columns.end()) {
      throw ArgumentError(chain.where + " has no column '" + name + "', a parameter of the model");
    }
    index.push_back(static_cast<size_t>(it - chain.columns.begin()));
  }
  std::vector<std::vector<double>> rows;
  rows.reserve(chain.rows.size());
  for (const auto& row : chain.rows) {
    std::vector<double> values;
    values.reserve(index.size());
    for (const size_t i : index) values.push_back(row[i]);
    rows.push_back(std::move(values));
  }
  return rows;
}

PredictiveColumns make_predictive(const model::CompiledModel& model, bool tape) {
  PredictiveColumns predictive(model, tape);
  if (predictive.observed().empty()) {
    throw ArgumentError("the model observes no variable: there is nothing to predict or to score");
  }
  return predictive;
}

std::vector<workflow::PredictiveRows> predict_chains(const PredictiveColumns& predictive,
                                                     const std::vector<std::string>& parameters,
                                                     const std::vector<ChainTable>& chains, uint64_t seed) {
  std::vector<workflow::PredictiveRows> result;
  for (const auto& chain : chains) {
    PredictiveColumns::ChainStream stream =
        PredictiveColumns::chain_stream(seed, static_cast<uint64_t>(chain.chain_id));
    result.push_back(predictive.rows(parameter_rows(chain, parameters), stream));
  }
  return result;
}

}  // namespace variate::services
