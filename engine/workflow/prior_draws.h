#pragma once
/// Draws from a model's prior and then from its likelihood, by tracing (Edward2's
/// generative program run forward): each latent variable drawn from its distribution
/// given the values drawn before it, each observed variable drawn in place of its data
/// given them. What simulation-based calibration fits (Talts et al. 2018) and a prior
/// predictive check shows. The data file's other values (sizes, covariates) stay.
///
///   const PriorDraw draw = draw_from_prior(compiled, data, chain_generator(seed, 1));
///   draw.parameters.at("mu");   // the value the simulated data come from
///   draw.data["y"];             // the simulated observation, shaped as the data's
///
/// Models it cannot simulate are refused before any draw (check_simulable): a `target +=`
/// term (no generative program), an improper prior, a declared constraint its
/// distribution lacks (`x: ordered[K] ~ Normal(0, 1)`), an observed variable defined by an
/// expression of data, and a model whose nodes read an observed variable's data (arma11's
/// `nu[t]` reads `y[t - 1]`: the simulation would read the old data).

#include <ATen/core/Generator.h>

#include "engine/core/data.h"
#include "engine/core/log_joint.h"
#include "engine/model/compiled_model.h"

namespace variate::workflow {

struct PriorDraw {
  /// Every latent variable's value, constrained (as a run's draws are), by name.
  ValueMap parameters;
  /// The data with each observed variable replaced by its draw (integers stay integers).
  Data data;
};

/// @throws ArgumentError, naming the node, for a model it cannot simulate.
void check_simulable(const model::CheckedModel& model);

/// One draw, from `generator` alone. `compiled` must be bound to `data` (the sizes and
/// covariates the simulation keeps).
/// @throws ArgumentError as check_simulable, or naming a variable whose draw failed.
PriorDraw draw_from_prior(const model::CompiledModel& compiled, const Data& data, at::Generator generator);

}  // namespace variate::workflow
