#pragma once
/// What a front end asks a service to run: the method, the model and its data, every
/// setting, where the run is recorded, and what the front end lends it (the program the
/// other ranks run, a client of remote workers). Built by `variate`'s commands from their
/// arguments, by the studio from its document, by a worker from a job's request, by a rank
/// from its arguments: the same spec makes the same run.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/mcmc/nuts_options.h"
#include "engine/services/data_input.h"
#include "engine/services/distributed_run.h"
#include "engine/services/method.h"
#include "engine/services/model_source.h"
#include "engine/services/remote_runner.h"
#include "engine/services/run_facts.h"
#include "engine/services/settings.h"
#include "engine/store/project_records.h"

namespace variate::services {

/// Where a run is recorded.
struct Recording {
  std::optional<std::string> project;  ///< a project file (created if absent); none: not recorded
  std::string run_name;                ///< empty: "run N"
  /// An existing run of the project that this one continues: more draws of a NUTS run
  /// (with RunSpec::resume), a training from its latest checkpoint, a worker's job
  /// followed again (RunSpec::job).
  std::optional<store::Id> continues;
};

struct RunSpec {
  Method method = Method::nuts;
  std::shared_ptr<const ModelSource> model;
  DataInput data;
  Settings settings;
  Recording record;
  /// NUTS: where each chain continues (more draws: no warmup).
  std::vector<ChainStart> resume;
  /// A training continued: this many epochs more (0: an unfinished one goes on to its own
  /// number, or to the setting epochs).
  int more_epochs = 0;
  /// A training's held-out rows (the setting test_data names them).
  DataInput heldout;
  /// Across hosts: the rendezvous and this process's place (`variate`'s --rendezvous,
  /// --world-size, --rank); the setting nproc starts ranks on this host.
  std::optional<std::string> rendezvous;
  std::optional<int> world_size;
  std::optional<int> rank;
  /// The `variate` program the other ranks of nproc run.
  std::string rank_program;
  /// The client of remote workers, for a run whose setting worker is given.
  RemoteRunner* remote = nullptr;
  /// Follow this job of the worker instead of submitting one (a reattach; `variate
  /// attach`).
  std::optional<JobRef> job;
};

}  // namespace variate::services
