#pragma once
// The posterior predictive columns of a run's draws, read from Stan CSV files or a
// project: what `variate predict` writes and `variate loo --project` scores.

#include <string>
#include <vector>

#include "engine/model/compiled_model.h"
#include "engine/services/predictive_columns.h"

namespace variate::services {

/// One chain's draws as a table of named columns (Stan CSV names: "theta.1").
struct ChainTable {
  std::string where;  // the file, or "project P, run R, chain 2", for messages
  int64_t chain_id = 1;  // from 1, as CmdStan numbers chains: the chain's predictive stream
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

/// The Stan CSV names of the model's parameters, in the order a draw records them.
std::vector<std::string> parameter_names(const model::CompiledModel& model);

/// Each row's parameter values, picked by name: what PosteriorPredictive::rows reads.
/// @throws ArgumentError "WHERE has no column 'theta_trans.3', a parameter of the model".
std::vector<std::vector<double>> parameter_rows(const ChainTable& chain, const std::vector<std::string>& parameters);

/// The model's posterior predictive, on the tape when `tape` (as `sample --predict` under
/// columns_on_tape). @throws ArgumentError for a model that observes nothing.
PredictiveColumns make_predictive(const model::CompiledModel& model, bool tape);

/// Every chain's predictive columns, chain c's values from PredictiveColumns::chain_stream(seed, c).
/// @throws ArgumentError as parameter_rows.
std::vector<workflow::PredictiveRows> predict_chains(const PredictiveColumns& predictive,
                                                     const std::vector<std::string>& parameters,
                                                     const std::vector<ChainTable>& chains, uint64_t seed);

}  // namespace variate::services
