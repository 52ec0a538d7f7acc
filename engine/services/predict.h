#pragma once
/// Posterior predictive draws, the one driver every front end calls (`variate predict`,
/// the studio's predictive check panel, and the LOO of a run, which scores the same
/// draws): for every post-warmup draw of a run, each observed variable's replicated
/// values NAME_rep and the pointwise log likelihood, from the model at the draw
/// (predictive_columns.h: on the tape, or by LibTorch's tracer), chain c's values from
/// PredictiveColumns::chain_stream(seed, c), as `variate sample --predict` makes them while
/// it samples.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/data.h"
#include "engine/services/stored_run.h"
#include "engine/store/project.h"
#include "engine/workflow/posterior_predictive.h"

namespace variate::services {

struct Prediction {
  std::string model_name;
  std::string data_name;
  /// Where the draws came from, as CmdStan's generate_quantities names them
  /// (fitted_params): the files, or "PROJECT, run 'R'".
  std::string fitted_params;
  uint64_t seed = 0;
  std::optional<store::Id> run_id;  ///< the stored run it predicts
  std::vector<ChainTable> chains;   ///< the post-warmup draws, per chain
  /// Per chain: each draw's replicated values and log likelihood.
  std::vector<workflow::PredictiveRows> predicted;
  std::vector<std::string> replicated_names;  ///< "y_rep.1", ... (Stan CSV)
  std::vector<std::string> log_lik_names;     ///< "log_lik.1", ...
  /// The observed variables in program order, and the data they were observed as.
  std::vector<workflow::ObservedVariable> observed;
  Data data;
};

/// Of run `run` (its name or id) of `project`; `seed` instead of the run's own, `backend`
/// instead of the one it ran with (which decides, as columns_on_tape says, whether the tape
/// draws the replications).
/// @throws as load_stored_run; ArgumentError for a run that is not NUTS, or a model that
/// observes nothing.
Prediction predict_stored_run(const store::Project& project, const std::string& run,
                              std::optional<uint64_t> seed = std::nullopt,
                              const std::optional<std::string>& backend = std::nullopt);

/// Of a model file's run written as Stan CSV files (one per chain); `seed` instead of the
/// one the files record.
/// @throws ReportedError for a model that does not compile; ArgumentError for files
/// without a parameter's column, or without a seed when none is given.
Prediction predict_files(const std::string& model_file, const std::optional<std::string>& data_file,
                         const std::vector<std::string>& files, std::optional<uint64_t> seed,
                         const std::string& backend = "auto");

}  // namespace variate::services
