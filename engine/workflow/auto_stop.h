#pragma once
/// Auto-stop: NUTS that runs until the convergence rule holds for every recorded quantity
/// (rank-normalized split R-hat below a bound, bulk and tail ESS at least N per chain:
/// diagnostics/thresholds.h's verdict, with the bounds the user gives), extending
/// its chains in rounds. The chains keep their adaptation: each round continues every
/// chain from its last position with the step size and inverse metric warmup adapted
/// (NutsOptions::resume_from), so the draws are one long run of each chain.
///
///   AutoStopRule rule;
///   rule.convergence.min_ess_per_chain = 250;
///   const AutoStopRun run = sample_until_converged(target, columns, options, rule);
///   run.converged  // false when the cap or a stop ended it first

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/mcmc/nuts_options.h"
#include "engine/mcmc/sample.h"
#include "engine/target/draw_columns.h"
#include "engine/target/unconstrained_target.h"
#include "engine/workflow/auto_stop_rule.h"

namespace variate::workflow {

/// The rule applied to all draws so far.
struct ConvergenceCheck {
  int draws_per_chain = 0;
  int chains = 0;
  double max_rhat = 0;      // over the quantities (NaN ones, constants, left out)
  double min_ess_bulk = 0;  // likewise
  double min_ess_tail = 0;
  /// The quantity furthest from the rule ("theta[3]"), empty when the rule holds.
  std::string worst;
  bool holds = false;
};

struct AutoStopRun {
  /// Each chain's whole run: warmup, then every round's draws in order.
  std::vector<ChainResult> chains;
  /// The check after each round, in order; the last decided the end.
  std::vector<ConvergenceCheck> checks;
  bool converged = false;
};

/// The rule on draws[column][chain][iteration]; quantities are named by `names`.
ConvergenceCheck check_convergence(const std::vector<std::vector<std::vector<double>>>& draws,
                                   const std::vector<std::string>& names, const AutoStopRule& rule);

/// How many more draws per chain the next round makes after `check` failed: enough for
/// the smallest ESS to reach the rule at the rate seen so far (with a 20% margin), at
/// least a quarter of the draws so far (R-hat needs length, not just ESS) and at least
/// 100, within the cap.
int next_round_draws(const ConvergenceCheck& check, const AutoStopRule& rule);

/// One line on a round's check, as the CLI and the studio log it: "Auto-stop: 1000 draws
/// per chain, R-hat 1.013, bulk ESS 312, tail ESS 290 (furthest: tau); 1540 more".
std::string describe_round(const ConvergenceCheck& check, int next_draws);

/// Told after each round's check, with the draws per chain the next round makes (0: the
/// run ends). Called on the calling thread, between rounds.
using RoundCallback = std::function<void(const ConvergenceCheck& check, int next_draws)>;

/// Runs NUTS with `options` (its draws are the first round's), checks the rule on the
/// `columns` of every sampling draw after each round, and extends until it holds, the cap
/// is reached or `stop` is set. Round r > 0 uses seed options.seed() + r. The observer
/// sees one run per chain: iterations numbered on from round to round, on_adapted once,
/// on_chain_finished once at the end with the whole chain.
/// @throws ArgumentError for options that resume (the rounds do that) or a cap below the
/// first round's draws, and as sample_nuts does.
AutoStopRun sample_until_converged(const UnconstrainedTarget& target, const DrawColumns& columns,
                                   const NutsOptions& options, const AutoStopRule& rule,
                                   SampleObserver* observer = nullptr,
                                   const std::atomic<bool>* stop = nullptr,
                                   const RoundCallback& on_round = {});

}  // namespace variate::workflow
