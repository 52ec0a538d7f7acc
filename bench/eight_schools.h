#pragma once
/// Eight schools (non-centered), 4 chains x (1000 warmup + 1000 draws): bulk-ESS per second
/// of wall time for the engine's chain modes, and for Stan in the same run. The ESS of
/// both comes from Variate's diagnostics (checked against rstan's) on the unconstrained
/// draws: bulk-ESS is rank-based, so log(tau) gives tau's.

#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"
#include "engine/mcmc/nuts_options.h"
#include "engine/model/compiled_model.h"

#include "report.h"

namespace variate::bench {

struct EssFigures {
  double wall_s = kNotAvailable;
  int64_t leapfrog = 0;  // all chains, warmup and sampling
  int64_t divergent = 0;
  double min_bulk_ess = kNotAvailable;
  std::string worst;  // the parameter with the smallest bulk-ESS
  int chain_threads = 0;
  int intra_op_threads = 0;

  double ess_per_second() const { return min_bulk_ess / wall_s; }
};

/// The model of bench/eight_schools_noncentered.vmod with the classic data.
model::CompiledModel compile_eight_schools(at::ScalarType dtype);

/// One run of sample_nuts on the model.
EssFigures eight_schools_variate(const model::CompiledModel& model, const NutsOptions& options);

/// The smallest bulk-ESS of `draws` (per parameter, per chain) and its parameter's name.
void set_min_bulk_ess(EssFigures& figures, const std::vector<diagnostics::Draws>& draws,
                      const std::vector<std::string>& names);

/// mu, tau, theta_trans[1..8]: the unconstrained coordinates' names.
std::vector<std::string> eight_schools_parameter_names();

}  // namespace variate::bench
