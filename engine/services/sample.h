#pragma once
/// NUTS, the one driver every front end calls (`variate sample`, the studio's NUTS runs, a
/// worker's jobs, the other ranks of a run): binds the model (whole, or this rank's
/// blocks of its rows), agrees on the seed with the other ranks, checks the memory the
/// run keeps, picks the chains' starts (a radius, Pathfinder's draws, or where an earlier
/// run left them), records the run into its project while it samples, extends the chains
/// until the convergence rule holds (auto-stop), or has a worker run it and replays its
/// events; then summarizes it as `variate sample` prints it and the project stores it.
///
///   RunSpec spec;
///   spec.model = std::make_shared<VmodSource>(VmodSource::from_file("m.vmod"));
///   spec.data = DataInput::file("d.json");
///   spec.settings.set(setting::chains, 2);
///   const SampleResult result = run_sample(spec, observers);

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/chains_summary.h"
#include "engine/io/summary_report.h"
#include "engine/services/pathfinder_init.h"
#include "engine/services/reparam_pilot.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"
#include "engine/workflow/auto_stop.h"

namespace variate::services {

struct SampleResult {
  /// False on the other ranks of a run on several processes: they report nothing.
  bool root = true;
  RunFacts facts;
  store::Id run_id = -1;
  std::string job;  ///< the worker's job that made it
  int warmup = 0;   ///< iterations per chain (0 when it continued chains)
  int draws = 0;    ///< post-warmup draws of the shortest chain: what the summary describes
  std::vector<ChainResult> chains;
  /// The sampler's columns, then the outputs (with `predict` their predictive columns).
  std::vector<std::string> names;
  io::ChainsSummary summary;
  io::SamplerTotals totals;
  /// As `variate sample` prints them (divergences, tree depth, E-BFMI, R-hat, ESS).
  std::vector<std::string> warnings;
  /// The summary document: what --summary-json writes and the project stores.
  nlohmann::ordered_json document;
  std::optional<workflow::AutoStopRule> rule;
  std::optional<workflow::AutoStopRun> auto_stop;
  std::optional<PathfinderInit> init;
  /// The variables sampled partially non-centered, and the pilot that decided them (auto).
  model::Centering centering;
  std::optional<ReparamPilot> pilot;
  bool stopped = false;  ///< by a stop request, keeping the draws made
};

/// @throws ArgumentError (ReportedError for a compiler's report) for a spec or model that
/// cannot run, with its message; NoInitialPointError with the located argument that is
/// invalid; distributed::DistributedError when the ranks fail; RemoteError when the
/// worker does; store::ProjectError when the project cannot be written. A run that
/// started is recorded as failed with the message first.
SampleResult run_sample(const RunSpec& spec, const RunObservers& observers);

/// The settings a run samples with: those given, but with prior no warmup, the predictive
/// columns (the prior predictive draws) and the model as written, started anywhere.
Settings sampled_settings(Settings settings);

/// The settings' NutsOptions with `seed` and `threads`.
NutsOptions nuts_options(const Settings& settings, uint64_t seed, int threads);

}  // namespace variate::services
