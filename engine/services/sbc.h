#pragma once
/// Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari & Gelman 2018), the
/// one driver every front end calls: for each replication, draw the parameters from the
/// prior and the data from the model given them (workflow/prior_draws.h, with the data
/// file's sizes and covariates), fit the simulated data by the method's own driver (NUTS,
/// ADVI or Pathfinder, with the spec's settings), and record each quantity's rank among
/// the fit's thinned draws; then test each quantity's ranks for uniformity (the ECDF's
/// simultaneous band and the chi-square of binned ranks, diagnostics/rank_uniformity.h).
///
/// Replications are independent: each takes its own seed from the run's seed and its
/// index, so the ranks are the same however many run at once and in whatever order: on
/// this process's threads, and on several processes (the fit's setting nproc on one host,
/// or its rendezvous across hosts, as `variate sample` starts them), each rank fitting the
/// next replication as it becomes free; rank 0 gathers them and reports; and on remote
/// workers (each fit a job of `variate worker`, its draws streamed back).
///
///   SbcSpec spec;
///   spec.run.method = Method::sbc;
///   spec.run.model = ...; spec.run.data = DataInput::file("d.json");
///   spec.run.settings.set(setting::replications, 200);
///   const SbcResult result = run_sbc(spec, observers);
///   result.tests[0].ecdf.uniform;

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/diagnostics/rank_uniformity.h"
#include "engine/diagnostics/thresholds.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"
#include "engine/services/setting.h"

namespace variate::services {

struct SbcSpec {
  /// The run: method sbc; the model, the data whose sizes and covariates the simulations
  /// keep, where it is recorded (a project: each replication stored as it ends, and a run
  /// it continues fits only the replications it lacks), and the settings: SBC's own
  /// (replications, thin, fit, parallel, generator) and those of each replication's fit
  /// (its method's that sbc_fit_takes; its seed is the run's, each replication's fit gets
  /// its own).
  RunSpec run;
  /// Remote workers (HOST:PORT, with the settings token_file, tls_ca and
  /// heartbeat_timeout; RunSpec::remote the client) that take replications too, one at a
  /// time each, beside this process's own. With workers, the setting reparam `auto` fits
  /// every replication non-centered (as a worker samples it), wherever it runs.
  std::vector<std::string> workers;
  /// The ECDF test's simultaneous coverage: uniformity is rejected at 1 - prob.
  double prob = 0.99;
};

struct SbcReplication {
  int index = 0;  ///< from 0
  uint64_t seed = 0;
  std::vector<int64_t> ranks;  ///< SbcResult::quantities' order; empty when the fit failed
  int64_t divergences = 0;
  double max_rhat = 0;  ///< over the fit's quantities; 0 for ADVI and Pathfinder
  std::string failure;  ///< why the simulation or the fit failed; empty when it ran
  bool ended = false;   ///< false for one a stop left unfitted
  bool problem() const { return !failure.empty() || divergences > 0 || max_rhat > diagnostics::kMaxRhat; }
  /// As a project stores it (ranks among 0 ... max_rank).
  store::SbcReplicationRecord record(int64_t max_rank) const {
    return {index, seed, ranks, max_rank, divergences, max_rhat, failure};
  }
};

struct SbcQuantityTest {
  std::string name;  ///< "theta[1]"
  diagnostics::EcdfTest ecdf;
  diagnostics::ChiSquareTest chi_square;
  bool uniform() const { return ecdf.uniform; }
};

struct SbcResult {
  /// False on the other processes of a run on several: rank 0 reports.
  bool root = true;
  store::Id run_id = -1;  ///< in the project, or -1 without one
  int processes = 1;
  uint64_t seed = 0;
  int64_t max_rank = 0;                      ///< ranks are 0 ... max_rank (the thinned draws)
  std::vector<std::string> quantities;       ///< Stan CSV names, the fit's order
  /// By index (of a continued run, the stored ones too); those a stop left are not `ended`.
  std::vector<SbcReplication> replications;
  std::vector<SbcQuantityTest> tests;        ///< per quantity, over the replications that ran
  double seconds = 0;
  bool stopped = false;
  /// What --summary-json writes: the settings, per quantity its tests and verdict, and
  /// the replications that had problems.
  nlohmann::ordered_json document;
};

/// Per replication as it ends, on the thread that ran it (calls are serialized); `done`
/// counts the replications ended, a continued run's stored ones included.
using SbcProgress = std::function<void(const SbcReplication&, int64_t max_rank, int done)>;

/// @throws ArgumentError for a spec or model that cannot run (a model it cannot simulate,
/// a generator without the fitted parameters, a method SBC does not fit with, a run to
/// continue that is no SBC run of these quantities), before any replication; a
/// replication's failure is recorded in it, not thrown; store::ProjectError when the
/// project cannot be written; distributed::DistributedError when the processes fail.
SbcResult run_sbc(const SbcSpec& spec, const RunObservers& observers, const SbcProgress& progress = {});

/// Replication `index`'s fit as a run of its own (the studio's "open its fit"): its data
/// simulated as the SBC run simulated them, with its seed, named "NAME replication N".
/// Its draws are the replication's fit's.
/// @throws ArgumentError as run_sbc.
RunSpec replication_fit(const SbcSpec& spec, uint64_t run_seed, int index);

}  // namespace variate::services
