#pragma once
/// The `predictive` tracer: runs a model at one posterior draw and, for every observed
/// variable, records a replicated draw and its pointwise log likelihood (Edward2's
/// posterior predictive by tracing: condition the latent variables only; Gelman et al.,
/// BDA3 Sec. 6.3 for y_rep, Vehtari, Gelman & Gabry 2017 for the pointwise log_lik).

#include <string>
#include <vector>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/core/data.h"
#include "engine/core/log_joint.h"
#include "engine/core/tracing.h"

namespace variate::workflow {

/// What an observed variable gives at one draw.
struct Observation {
  std::string name;
  /// A fresh draw from its distribution at the draw's parameters: the variable's shape.
  at::Tensor replicated;
  /// log_prob of its observed value, one entry per independent element (event dimensions
  /// reduced): sample_shape + batch_shape.
  at::Tensor log_lik;
};

/// Latent variables take their values from `latents`; a variable named in `observed` (or
/// given a value by the model itself, as a compiled .vmod model gives its data) is
/// observed. An observed variable keeps its data value for the rest of the program — the
/// log likelihood is the data's, and a model that reads its data later (lags) reads the
/// data, as Stan's generated quantities do — while its replicated draw comes from
/// `generator` alone, in program order. A `target +=` term (model::LogDensityTerm) is
/// scored but observes nothing: it gets no observation, as Stan's log_lik holds only what
/// the user puts there.
///
///   PredictiveTracer tracer(parameters, data, generator);
///   { TracerScope scope(tracer); model(); }
///   tracer.observations()[0].replicated;   // y_rep
class PredictiveTracer : public Tracer {
 public:
  PredictiveTracer(const ValueMap& latents, const Data& observed, at::Generator generator);
  /// @throws ArgumentError naming a latent variable the draw has no value for.
  RandomVariable trace(RandomVariableSpec spec, const NextTracer& next) override;

  /// In program order.
  const std::vector<Observation>& observations() const { return observations_; }

 private:
  const ValueMap& latents_;
  const Data& observed_;
  at::Generator generator_;
  std::vector<Observation> observations_;
};

}  // namespace variate::workflow
