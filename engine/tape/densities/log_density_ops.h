#pragma once
/// Log-density sinks, one fused kernel per distribution family: Stan's parameterizations,
/// every normalizing constant, the partials of the operands that vary added straight into
/// their adjoints. The values mean what the family's log_prob (engine/distributions)
/// means, formula for formula: -inf outside the support where log_prob gives -inf, NaN
/// where it gives NaN (a sampler's divergence).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/tape/program/builder.h"

namespace variate::tape {

/// One `~` statement: value ~ family(arguments).
struct DensityTerm {
  std::string family;         // as the language names it: "Normal", "Poisson"
  size_t parameterization = 0;  // index into the family's DistributionSignature
  /// Tensor arguments in the parameterization's order. For families of event rank 0 the
  /// compiler has broadcast each to a single value or to the value's shape, so a kernel
  /// reads argument k at i * stride (stride 0 or 1). Multivariate families get their
  /// arguments in the shapes the LibTorch family accepts.
  std::vector<Slot> arguments;
  /// Mixture only: the component distribution (its arguments carry the trailing component
  /// axis; its `value` is unset).
  std::shared_ptr<DensityTerm> component;
  Slot value;
  /// The variable's shape's leading dimensions beyond the distribution's own (iid copies,
  /// for the multivariate families); empty for most.
  Shape sample_shape;
};

/// Emits the sink of one term. @throws Unsupported for a family (or a Mixture component)
/// without a kernel, naming it.
void emit_log_density(ProgramBuilder& builder, const DensityTerm& term);

/// `target += x`: a sink adding the sum of x's elements, each with partial 1.
void emit_target_increment(ProgramBuilder& builder, const Slot& x);

/// What `T[lo, hi]` adds to the sink of `term` (emitted before, by emit_log_density): minus
/// the log of the mass the family puts on [lo, hi], for each element of the value, and
/// -inf where the value lies outside. Either bound may be missing.
/// @throws Unsupported for a family without a cumulative distribution function here.
void emit_truncation(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                     const std::optional<Slot>& hi);

/// log P(X <= x) (`upper` false) or log P(X > x) at each element of `term.value`, from the
/// expression ops a truncation's normalizer uses: `Normal(mu, s).log_cdf(x)` in an
/// expression. @throws Unsupported as emit_truncation.
Slot emit_log_cdf(ProgramBuilder& builder, const DensityTerm& term, bool upper);

/// The truncated family's log density element by element (`log_lik`), from the family's
/// (`pointwise`, of the value's shape): minus the log mass on [lo, hi], -inf outside, as
/// distributions::Truncated::log_prob. @throws Unsupported as emit_truncation.
Slot emit_truncated_pointwise(ProgramBuilder& builder, const DensityTerm& term, const std::optional<Slot>& lo,
                              const std::optional<Slot>& hi, const Slot& pointwise);

// The families, by group (one source file each); each returns false for a family not in
// its group.
bool emit_continuous_log_density(ProgramBuilder& builder, const DensityTerm& term);
bool emit_discrete_log_density(ProgramBuilder& builder, const DensityTerm& term);
bool emit_multivariate_log_density(ProgramBuilder& builder, const DensityTerm& term);

}  // namespace variate::tape
