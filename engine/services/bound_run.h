#pragma once
/// How every method's run starts on this process: its ranks (a run on several processes
/// starts or joins them), its model bound to the data (this rank's blocks of the rows, or
/// the whole model), the note on why the density runs on LibTorch, and the seed every rank
/// agrees on.

#include <memory>
#include <optional>

#include "engine/services/distributed_run.h"
#include "engine/services/model_source.h"
#include "engine/services/rank_command.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"

namespace variate::services {

struct BoundRun {
  std::unique_ptr<DistributedRun> ranks;  ///< null on one process with its density whole
  bool root = true;                       ///< this process records and reports
  std::optional<BoundModel> model;
  uint64_t seed = 0;

  int size() const { return ranks ? ranks->size() : 1; }
};

/// The settings backend, dtype and device.
CompileChoice compile_choice(const Settings& settings);

/// Starts `spec`'s ranks (files for them in `files`), binds its model and agrees on the
/// seed; tells the notes rank 0 has. `bound` is filled as it goes, so that a failure
/// finds the ranks to stop.
/// @throws as ModelSource::bind; distributed::DistributedError when the ranks fail.
void bind_run(const RunSpec& spec, RankFiles& files, const RunObservers& observers, BoundRun& bound);

/// Binds `spec`'s model on `bound`'s ranks (again, after a setting that compiles it
/// changed: the centerings an `auto` pilot decided), as bind_run does.
void bind_model(const RunSpec& spec, BoundRun& bound);

/// Refuses a model without parameters (none declared, `theta[N]` with N = 0, a simplex of
/// one entry) for a method that fits or optimizes: it has nothing to do. `variate sample`
/// takes such a model as Stan's fixed_param does.
/// @throws ArgumentError "the model has no parameters: ...".
void require_parameters(const BoundModel& model, const std::string& method);

/// The warning for the points `target` rejected because an argument computed from the
/// parameters left its domain ("m.vmod:3:5: Categorical: argument 'p' must be a simplex,
/// got ...; 1,532 points rejected"), or "" when it rejected none.
std::string rejection_warning(const BoundModel& model, const UnconstrainedTarget& target);

/// The model bound here on the CPU for a run a worker makes: its outputs' columns (and an
/// ADVI fit's layout), whatever device the worker computes on.
BoundModel bind_for_worker(const RunSpec& spec);

}  // namespace variate::services
