#include "engine/io/stan_csv_sampler_stats.h"

#include <cstdlib>
#include <sstream>
#include <string>

#include "engine/core/checks.h"
#include "engine/diagnostics/ebfmi.h"
#include "engine/mcmc/sampler_columns.h"

namespace variate::io {
namespace {

size_t required_column(const StanCsv& chain, const std::string& name) {
  const auto index = chain.column_index(name);
  if (!index) {
    throw ArgumentError(chain.file + ": no column '" + name +
                        "' (not the output of a NUTS sampler)");
  }
  return *index;
}

int64_t max_depth(const StanCsv& chain) {
  const auto it = chain.config.find("sample.hmc.nuts.max_depth");
  if (it == chain.config.end()) return 10;  // CmdStan's default
  const long long depth = std::atoll(it->second.c_str());
  return depth > 0 ? depth : 10;
}

struct Counts {
  int64_t divergences = 0;
  int64_t treedepth_hits = 0;
  int64_t transitions = 0;
  int64_t leapfrog_steps = 0;
};

// A leapfrog count as a sampler writes it; another value (nan, 1e300) has no int64.
int64_t leapfrog_steps(const StanCsv& chain, double value) {
  if (!(value >= 0 && value < 0x1p40)) {
    std::ostringstream text;
    text << value;
    throw ArgumentError(chain.file + ": n_leapfrog__ holds " + text.str() + ", not a count of steps");
  }
  return static_cast<int64_t>(value);
}

Counts count(const StanCsv& chain) {
  const size_t divergent = required_column(chain, sampler_column_name(SamplerColumn::divergent));
  const size_t treedepth = required_column(chain, sampler_column_name(SamplerColumn::treedepth));
  const size_t leapfrog = required_column(chain, sampler_column_name(SamplerColumn::n_leapfrog));
  const auto depth = static_cast<int>(max_depth(chain));
  Counts counts;
  for (const auto& row : chain.draws) {
    counts.divergences += row[divergent] != 0 ? 1 : 0;
    counts.treedepth_hits += reached_max_depth(row[treedepth], depth) ? 1 : 0;
    counts.leapfrog_steps += leapfrog_steps(chain, row[leapfrog]);
  }
  for (const auto& row : chain.warmup_draws) counts.leapfrog_steps += leapfrog_steps(chain, row[leapfrog]);
  counts.transitions = static_cast<int64_t>(chain.draws.size());
  return counts;
}

}  // namespace

SamplerTotals sampler_totals(const std::vector<StanCsv>& chains) {
  SamplerTotals totals;
  for (const auto& chain : chains) {
    const Counts counts = count(chain);
    totals.divergences += counts.divergences;
    totals.max_treedepth_hits += counts.treedepth_hits;
    totals.leapfrog_steps += counts.leapfrog_steps;
    if (chain.timing) {
      totals.seconds_warmup += chain.timing->warmup_seconds;
      totals.seconds_sampling += chain.timing->sampling_seconds;
    }
  }
  totals.gradient_evaluations = totals.leapfrog_steps;
  return totals;
}

SamplerChecks sampler_checks(const std::vector<StanCsv>& chains) {
  SamplerChecks checks;
  checks.chains = static_cast<int64_t>(chains.size());
  for (const auto& chain : chains) {
    const Counts counts = count(chain);
    checks.transitions += counts.transitions;
    checks.divergences += counts.divergences;
    checks.max_treedepth_hits += counts.treedepth_hits;
    checks.max_depth = max_depth(chain);
    if (chain.draws.size() >= 2) {
      checks.ebfmi.push_back(diagnostics::ebfmi(
          chain.column(sampler_column_name(SamplerColumn::energy))));
    }
  }
  return checks;
}

}  // namespace variate::io
