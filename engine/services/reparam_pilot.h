#pragma once
/// How `--reparam auto` decides each variable's centering (model/reparameterize.h): a short
/// pilot samples the non-centered form, and each element's centering comes from the
/// gradients at its draws.
///
/// The rule. For an element theta = mu + sigma * z with z ~ N(0, 1) a priori, the Fisher
/// identity gives E[g_z^2] = E[-d^2 log p / dz^2] = 1 + E[sigma^2 L], where L is the
/// likelihood's curvature in theta: r = Var(g_z) - 1 is the information the data give about
/// the element relative to its prior's, and r / (1 + r) the optimal partially non-centered
/// weight of a Gaussian element (Papaspiliopoulos, Roberts & Sköld, "A general framework for
/// the parametrization of hierarchical models", Statistical Science 2007). A pilot's estimate
/// of it is too noisy to use as it is (centering_from_gradients says why), so each element
/// takes the end that weight is nearer: as written where the data dominate, non-centered
/// where the prior does. `--reparam NAME=C,...` gives partial centerings by hand.

#include <atomic>

#include "engine/mcmc/sample.h"
#include "engine/model/checker.h"
#include "engine/target/draw_columns.h"
#include "engine/target/unconstrained_target.h"

namespace variate::services {

/// Warmup iterations of each chain that the pilot takes: at most this many, and at most half
/// of warmup; with fewer than kFewestPilotIterations the variables stay non-centered.
inline constexpr int kPilotIterations = 150;
inline constexpr int kFewestPilotIterations = 20;

struct ReparamPilot {
  model::Centering centering;     ///< 0 or 1 per element of a vector, else one value
  long gradient_evaluations = 0;  ///< the pilot's, and those at its draws
  int iterations = 0;             ///< per chain
  /// Where each chain's pilot ended, in the space the centerings decided (an element
  /// centred takes its value; a non-centered one keeps its coordinate): the run's warmup
  /// goes on from there. Empty when a stop request ended the pilot (its centerings are
  /// then the non-centered ones it sampled).
  std::vector<std::vector<double>> ends;
  /// What the rest of warmup starts from: the chains' adapted diagonal inverse metric
  /// averaged (a centred element's: its value's variance over the pilot's second half;
  /// for a low-rank metric, its entries of rank 0), empty for a dense metric; and their
  /// median step size, where its search begins.
  std::vector<double> inverse_metric;
  double step_size = 1;
};

/// Samples `target` (the non-centered form of the variables of `noncentered`; `columns`
/// its draws' values) for the first warmup iterations of the run `options` describes (as
/// the run would: the same seed and starts), and
/// decides their centerings. With a `lockstep`, every rank makes the same calls and
/// decides the same.
/// @throws NoInitialPointError as sample_nuts.
ReparamPilot run_reparam_pilot(const UnconstrainedTarget& target, const DrawColumns& columns,
                               const model::Centering& noncentered, const NutsOptions& options,
                               const std::atomic<bool>* stop, Lockstep* lockstep);

/// One element's centering, 0 or 1, from the gradients of its standardized coordinate (a
/// series per chain): 1 where r = Var(g) - 1 exceeds 1, with the variance estimated from
/// the median square.
double centering_from_gradients(const std::vector<std::vector<double>>& chain_gradients);

}  // namespace variate::services
