#pragma once
/// The likelihood alone: the target's density without its latent variables' own terms
/// (their priors), so that its mode is the maximum likelihood estimate. Evaluated on
/// LibTorch (the tape compiles the whole joint density).

#include "engine/target/unconstrained_target.h"

namespace variate {

UnconstrainedTarget likelihood_only(const UnconstrainedTarget& target);

}  // namespace variate
