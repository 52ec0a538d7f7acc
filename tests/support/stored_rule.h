#pragma once
// The auto-stop rule checked on a stored run from its draws, with the verdict every report
// gives (diagnostics/thresholds.h): every model quantity (the columns after the sampler's,
// which end at energy__) has R-hat < 1.01 and bulk and tail ESS >= min_ess_per_chain per
// chain over the first `draws` sampling rows of each chain. Shared by the CLI's and the
// studio's auto-stop suites.

#include <algorithm>
#include <string>
#include <vector>

#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/rhat.h"
#include "engine/diagnostics/thresholds.h"
#include "engine/store/project_records.h"

namespace test_support {

/// Whether the rule holds; `failing` names the first quantity that fails it.
inline bool stored_rule_holds(const std::vector<variate::store::ChainDraws>& chains, size_t draws,
                              double min_ess_per_chain, std::string* failing = nullptr) {
  namespace diagnostics = variate::diagnostics;
  const auto& names = chains.at(0).columns;
  const size_t first = std::find(names.begin(), names.end(), "energy__") - names.begin() + 1;
  for (size_t column = first; column < names.size(); ++column) {
    diagnostics::Draws values;
    for (const auto& chain : chains) {
      const auto all = chain.column(names[column]);
      values.emplace_back(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(draws));
    }
    const diagnostics::ConvergenceRule rule{diagnostics::kMaxRhat, min_ess_per_chain};
    if (!diagnostics::convergence_verdict(diagnostics::rhat(values), diagnostics::ess_bulk(values),
                                          diagnostics::ess_tail(values), values.size(), rule)
             .converged()) {
      if (failing) *failing = names[column];
      return false;
    }
  }
  return true;
}

}  // namespace test_support
