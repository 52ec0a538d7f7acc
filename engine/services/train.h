#pragma once
/// A deep model's training (amortized variational inference, engine/deep), the one driver
/// every front end calls (`variate fit` of a model with networks and guides, the studio's
/// trainings, the other ranks): binds the model to its training and held-out rows, trains
/// with Adam on the minibatch ELBO (on several processes, data-parallel), and records the
/// ELBO per step, one record per epoch and the checkpoints, from which a stopped or
/// killed training continues (Recording::continues).

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/deep/amortized_fit_options.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"

namespace variate::deep {
class AmortizedModel;
}

namespace variate::services {

struct TrainResult {
  /// False on the other ranks of a run on several processes: they report nothing.
  bool root = true;
  RunFacts facts;
  store::Id run_id = -1;
  int64_t resumed_step = -1;  ///< the checkpoint a continued training went on from
  deep::AmortizedFitOptions options;
  deep::AmortizedFitResult result;
  /// The trained model (its networks' weights).
  std::shared_ptr<deep::AmortizedModel> model;
  /// {"amortized": {...}}: what --summary-json writes and the project stores.
  nlohmann::ordered_json document;
};

/// Whether `spec`'s model has networks or guides: a model `variate fit` trains. A model
/// with errors has none (its run reports them).
bool is_deep_model(const ModelSource& model);

/// `spec`'s deep model bound to its training rows (and held-out rows).
/// @throws ReportedError for a compiler's report or a binding error located in the model's
/// text; ArgumentError for a model without networks or without data.
std::shared_ptr<deep::AmortizedModel> bind_deep_model(const RunSpec& spec, uint64_t seed);

/// `preview`, when given, sees the bound model before training starts (the studio's
/// Reconstructions panel draws from it at each epoch's end).
/// @throws ArgumentError (ReportedError for a compiler's report or a binding error in the
/// model's text) for a spec or model that cannot run; distributed::DistributedError;
/// store::ProjectError. A recorded run that fails ends failed, its last checkpoint kept.
TrainResult run_training(const RunSpec& spec, const RunObservers& observers,
                         const std::function<void(const deep::AmortizedModel&)>& preview = {});

/// The intra-op threads a training gets: the setting, or this host's cores shared by its
/// processes with one left free (a UI's, or the other ranks' collectives').
int training_threads(int setting, int processes);

}  // namespace variate::services
