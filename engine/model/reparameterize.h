#pragma once
/// Partial non-centering (Papaspiliopoulos, Roberts & Sköld 2007; the form of Gorinova,
/// Moore & Hoffman's VIP, 2020): a latent variable of a location-scale family whose
/// location or scale depends on parameters,
///
///   theta ~ F(mu, sigma),
///
/// is sampled as theta.z ~ F(lambda * mu, sigma ^ lambda) and recovered as
/// theta = mu + sigma ^ (1 - lambda) * (theta.z - lambda * mu): the same distribution of
/// theta for any lambda in [0, 1]. lambda = 1 is the model as written (centered), 0 the
/// non-centered form (theta.z ~ F(0, 1)); the funnel between a scale and the values it
/// scales is gone where the data say little about theta, kept where they say much.
///
/// The rewritten program presents theta as a parameter (CheckedModel::centering): draws,
/// summaries and CSV columns name theta, never theta.z.

#include <map>
#include <string>
#include <vector>

#include "engine/model/checker.h"

namespace variate::model {

/// The latent variables whose distribution is a location-scale family (Normal, StudentT,
/// Cauchy, Logistic, Laplace) with a location or scale that depends on parameters, with
/// no constraint, bounds or truncation: those that can be non-centered. Program order.
std::vector<std::string> location_scale_variables(const CheckedModel& model);

/// The sampled stand-in for `name`: "theta.z", a name no model can write.
std::string standardized_name(const std::string& name);

/// `model`'s program with each variable of `centering` rewritten as above, its lambda
/// one value for every element or one per element of a vector (its size checked when the
/// model is bound). Statement indices of the original program are kept: each `~`
/// statement is rewritten in place, the recovered value appended.
/// @throws ArgumentError for a name that is not among location_scale_variables, or a
/// lambda outside [0, 1].
Program reparameterize(const CheckedModel& model, const Centering& centering);

}  // namespace variate::model
