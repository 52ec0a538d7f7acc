#pragma once
/// `variate sample --prior`: the chains' draws taken from the prior by simulation
/// (workflow/prior_draws.h), exactly and independently, in place of NUTS's. Each draw's
/// parameters are handed to the run's observer as a sampler's would be (unconstrained
/// positions, sampler statistics of zero: no trajectory was run), so the CSV files, the
/// project, the summary and the predictive columns (NAME_rep, drawn given each draw's
/// parameters: the prior predictive) come from the same code as a posterior run's.

#include <cstdint>
#include <vector>

#include "engine/mcmc/sample.h"
#include "engine/services/model_source.h"

namespace variate::services {

/// `chains` chains of `draws` prior draws of `model` (its text compiled with `data`);
/// chain c's draws from the stream RandomStream::for_chain(seed + 1, c + 1).
/// @throws ArgumentError for a model it cannot simulate (workflow::check_simulable's
/// reasons, an improper prior), naming why.
std::vector<ChainResult> sample_prior(const ModelSource& model, const DataInput& data, const ParameterLayout& layout,
                                      int chains, int draws, uint64_t seed, SampleObserver* observer,
                                      const std::atomic<bool>* stop);

}  // namespace variate::services
