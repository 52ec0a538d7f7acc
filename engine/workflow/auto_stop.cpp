#include "engine/workflow/auto_stop.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/rhat.h"

namespace variate::workflow {
namespace {

// Hands one round's callbacks on as parts of one run per chain: iterations numbered on
// from the earlier rounds, warmup counted as the first round's, the adaptation told once
// and the chains' ends held back for the whole run.
class RoundRelay : public SampleObserver {
 public:
  RoundRelay(SampleObserver& observer, std::vector<int> offsets, std::vector<int> warmups, bool first_round)
      : observer_(observer), offsets_(std::move(offsets)), warmups_(std::move(warmups)), first_round_(first_round) {}

  void on_draws(const DrawBatch& batch) override {
    if (first_round_) {
      observer_.on_draws(batch);
      return;
    }
    DrawBatch numbered = batch;
    numbered.first_iteration += offsets_[batch.chain];
    numbered.warmup_iterations = warmups_[batch.chain];
    observer_.on_draws(numbered);
  }
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override {
    if (first_round_) observer_.on_adapted(chain, step_size, inverse_metric);
  }
  void on_chain_finished(const ChainResult&) override {}

 private:
  SampleObserver& observer_;
  const std::vector<int> offsets_;
  const std::vector<int> warmups_;  // each chain's, from the first round
  const bool first_round_;
};

void check_arguments(const NutsOptions& options, const AutoStopRule& rule) {
  const auto fail = [](const std::string& what) { throw ArgumentError("sample_until_converged: " + what); };
  if (!options.resume_from().empty()) fail("the options must not resume chains; the rounds continue them");
  if (options.draws() < 10) {
    fail("the first round needs at least 10 draws per chain, got " + std::to_string(options.draws()));
  }
  if (!(rule.convergence.max_rhat > 1)) {
    fail("argument 'max_rhat' must be above 1, got " + std::to_string(rule.convergence.max_rhat));
  }
  if (!(rule.convergence.min_ess_per_chain > 0)) {
    fail("argument 'min_ess_per_chain' must be positive, got " + std::to_string(rule.convergence.min_ess_per_chain));
  }
  if (rule.max_draws < options.draws()) {
    fail("argument 'max_draws' (" + std::to_string(rule.max_draws) + ") is below the first round's " +
         std::to_string(options.draws()) + " draws");
  }
}

// Appends a round's sampling draws of each chain to draws[column][chain].
void add_draws(const DrawColumns& columns, const std::vector<ChainResult>& round,
               std::vector<std::vector<std::vector<double>>>& draws) {
  for (const ChainResult& chain : round) {
    const std::vector<std::vector<double>> sampling(chain.positions.begin() + chain.warmup_iterations,
                                                    chain.positions.end());
    for (const auto& row : columns.rows(sampling)) {
      for (size_t column = 0; column < row.size(); ++column) draws[column][chain.chain].push_back(row[column]);
    }
  }
}

void append_round(std::vector<ChainResult>& chains, std::vector<ChainResult> round) {
  if (chains.empty()) {
    chains = std::move(round);
    return;
  }
  for (ChainResult& part : round) {
    ChainResult& chain = chains[part.chain];
    chain.positions.insert(chain.positions.end(), part.positions.begin(), part.positions.end());
    chain.stats.insert(chain.stats.end(), part.stats.begin(), part.stats.end());
    chain.seconds_sampling += part.seconds_sampling;
    chain.gradient_evaluations += part.gradient_evaluations;
    chain.stopped_early = chain.stopped_early || part.stopped_early;
  }
}

std::vector<ChainStart> continuations(const std::vector<ChainResult>& chains) {
  std::vector<ChainStart> starts;
  for (const ChainResult& chain : chains) {
    starts.push_back({chain.positions.back(), chain.step_size, chain.inverse_metric});
  }
  return starts;
}

}  // namespace

ConvergenceCheck check_convergence(const std::vector<std::vector<std::vector<double>>>& draws,
                                   const std::vector<std::string>& names, const AutoStopRule& rule) {
  ConvergenceCheck check;
  check.draws_per_chain = draws.empty() || draws[0].empty() ? 0 : static_cast<int>(draws[0][0].size());
  check.chains = draws.empty() ? 0 : static_cast<int>(draws[0].size());
  const double min_ess = rule.convergence.min_ess(check.chains);
  check.min_ess_bulk = std::numeric_limits<double>::infinity();
  check.min_ess_tail = std::numeric_limits<double>::infinity();
  double worst_badness = 1;  // above 1: the rule fails for that quantity
  for (size_t column = 0; column < draws.size(); ++column) {
    const double r_hat = diagnostics::rhat(draws[column]);
    const double bulk = diagnostics::ess_bulk(draws[column]);
    const double tail = diagnostics::ess_tail(draws[column]);
    // NaN says nothing either way (a constant quantity), as the studio's rule has it.
    if (!std::isnan(r_hat)) check.max_rhat = std::max(check.max_rhat, r_hat);
    if (!std::isnan(bulk)) check.min_ess_bulk = std::min(check.min_ess_bulk, bulk);
    if (!std::isnan(tail)) check.min_ess_tail = std::min(check.min_ess_tail, tail);
    // The verdict every report gives; how far from it, to name the worst quantity.
    const diagnostics::ConvergenceVerdict verdict =
        diagnostics::convergence_verdict(r_hat, bulk, tail, check.chains, rule.convergence);
    double badness = 0;
    if (verdict.rhat_high) badness = (r_hat - 1) / (rule.convergence.max_rhat - 1);
    for (const double ess : {bulk, tail}) {
      if (verdict.ess_low && !std::isnan(ess) && ess < min_ess) badness = std::max(badness, min_ess / std::max(ess, 1e-300));
    }
    if (badness >= worst_badness && badness > 0) {
      worst_badness = badness;
      check.worst = names[column];
    }
  }
  check.holds = check.worst.empty();
  return check;
}

int next_round_draws(const ConvergenceCheck& check, const AutoStopRule& rule) {
  const double n = check.draws_per_chain;
  const double ess = std::min(check.min_ess_bulk, check.min_ess_tail);
  const double min_ess = rule.convergence.min_ess(check.chains);
  double wanted = 0;
  // ESS grows about linearly with the draws once the chains mix.
  if (ess < min_ess) wanted = std::ceil(n * (min_ess / std::max(ess, 1.0)) * 1.2 - n);
  wanted = std::max({wanted, std::ceil(n / 4), 100.0});
  return static_cast<int>(std::min(wanted, static_cast<double>(rule.max_draws) - n));
}

std::string describe_round(const ConvergenceCheck& check, int next_draws) {
  char figures[160];
  std::snprintf(figures, sizeof figures, "%d draws per chain, R-hat %.3f, bulk ESS %.0f, tail ESS %.0f",
                check.draws_per_chain, check.max_rhat, check.min_ess_bulk, check.min_ess_tail);
  const std::string line = std::string("Auto-stop: ") + figures;
  if (check.holds) return line + ": the rule holds";
  const std::string worst = line + " (furthest: " + check.worst + ")";
  return next_draws > 0 ? worst + "; " + std::to_string(next_draws) + " more" : worst + "; the cap is reached";
}

AutoStopRun sample_until_converged(const UnconstrainedTarget& target, const DrawColumns& columns,
                                   const NutsOptions& options, const AutoStopRule& rule,
                                   SampleObserver* observer, const std::atomic<bool>* stop,
                                   const RoundCallback& on_round) {
  check_arguments(options, rule);
  const std::vector<std::string> names = columns.names(NameStyle::Bracketed);
  std::vector<std::vector<std::vector<double>>> draws(
      columns.size(), std::vector<std::vector<double>>(static_cast<size_t>(options.chains())));
  AutoStopRun run;
  NutsOptions round = options;
  for (int r = 0;; ++r) {
    std::vector<int> offsets, warmups;
    for (const ChainResult& chain : run.chains) {
      offsets.push_back(static_cast<int>(chain.positions.size()));
      warmups.push_back(chain.warmup_iterations);
    }
    std::vector<ChainResult> results;
    if (observer) {
      RoundRelay relay(*observer, offsets, warmups, r == 0);
      results = sample_nuts(target, round, &relay, stop);
    } else {
      results = sample_nuts(target, round, nullptr, stop);
    }
    const bool stopped = std::any_of(results.begin(), results.end(),
                                     [](const ChainResult& chain) { return chain.stopped_early; });
    append_round(run.chains, results);
    if (stopped) break;  // chains of unequal length: no verdict
    add_draws(columns, results, draws);
    run.checks.push_back(check_convergence(draws, names, rule));
    const ConvergenceCheck& check = run.checks.back();
    run.converged = check.holds;
    const int more = check.holds ? 0 : std::max(0, next_round_draws(check, rule));
    if (on_round) on_round(check, more);
    if (more == 0) break;
    round = NutsOptions(options).warmup(0).draws(more).seed(options.seed() + r + 1).resume_from(continuations(run.chains));
  }
  if (observer) {
    for (const ChainResult& chain : run.chains) observer->on_chain_finished(chain);
  }
  return run;
}

}  // namespace variate::workflow
