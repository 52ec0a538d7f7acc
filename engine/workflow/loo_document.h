#pragma once
/// The PSIS-LOO document of a run: what `variate loo --summary-json` writes and a project
/// stores with the run (store::Project::set_loo), so that the CLI and the studio read one
/// format. JSON, in this order: elpd_loo, se_elpd_loo, p_loo, se_p_loo, looic, se_looic,
/// observations, draws, pareto_k (a number per observation; null for NaN, "Inf" for an
/// infinite k), r_eff, pointwise_elpd, pointwise_p.

#include <cstddef>
#include <string>

#include "engine/diagnostics/loo.h"

namespace variate::workflow {

/// `draws`: how many draws (all chains) the log likelihood had.
std::string loo_document(const diagnostics::LooResult& loo, size_t draws);

/// The LooResult of a document loo_document wrote (pointwise_p may be absent: `loo`
/// before it was written).
/// @throws ArgumentError naming what is missing or malformed.
diagnostics::LooResult loo_from_document(const std::string& json);

/// The `draws` of a document loo_document wrote: whether it is still the LOO of a run's
/// draws. @throws ArgumentError when it is not a LOO document.
size_t loo_document_draws(const std::string& json);

}  // namespace variate::workflow
