#include "engine/workflow/predictive_tracer.h"

#include "engine/core/argument_error.h"
#include "engine/model/log_density_term.h"

namespace variate::workflow {

PredictiveTracer::PredictiveTracer(const ValueMap& latents, const Data& observed,
                                   at::Generator generator)
    : latents_(latents), observed_(observed), generator_(std::move(generator)) {}

RandomVariable PredictiveTracer::trace(RandomVariableSpec spec, const NextTracer& next) {
  const auto latent = latents_.find(spec.name);
  if (latent != latents_.end()) {
    spec.value = latent->second;
    return next(std::move(spec));
  }
  if (observed_.contains(spec.name)) {
    spec.value = observed_[spec.name];
  } else if (!spec.value) {
    throw ArgumentError("posterior_predictive: the draw has no value for latent variable '" +
                        spec.name + "'");
  }
  // A `target +=` term is no observation: it has nothing to replicate, and its log density
  // (a prior, a Jacobian, a whole likelihood written by hand) is not one observation's.
  const bool term = dynamic_cast<const model::LogDensityTerm*>(spec.distribution.get()) != nullptr;
  RandomVariable rv = next(std::move(spec));
  if (!term) observations_.push_back({rv.name(), rv.sample(generator_), rv.log_prob()});
  return rv;
}

}  // namespace variate::workflow
