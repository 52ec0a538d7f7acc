#pragma once
/// The posterior predictive columns of a model's draws — each observed variable's
/// replicated values NAME_rep, then the pointwise log likelihood log_lik — as one object
/// for every front end: `sample --predict` while it samples (DrawFanout), `variate
/// predict` and the studio's predictive panels after the fact, a run's LOO. The columns
/// and their names are workflow::PosteriorPredictive's; each draw's values come from one
/// forward sweep of the tape's predictive program (tape::TapePredictive) where the tape
/// computes them and the run's draw columns are on the tape, else from LibTorch's tracer.
///
/// Seeds. Chain c (from 1, as CmdStan numbers chains) of a run seeded s draws from one
/// stream, chain_stream(s, c), consumed row by row: the same seed, chain and rows give the
/// same values however they are produced (a batch at a time while sampling, or all at once
/// from the files). The tape's stream is not LibTorch's, so the replicated values of the
/// two differ for one seed; the log likelihoods agree to rounding.

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <ATen/core/Generator.h>

#include "engine/model/compiled_model.h"
#include "engine/tape/compiler/tape_predictive.h"
#include "engine/workflow/posterior_predictive.h"

namespace variate::services {

class PredictiveColumns {
 public:
  /// On the tape when `tape` is set and the tape computes the model's columns; else on
  /// LibTorch.
  PredictiveColumns(const model::CompiledModel& model, bool tape);
  /// LibTorch's tracer: a model written in C++.
  PredictiveColumns(LogJoint log_joint, ParameterLayout layout);

  /// In program order; empty for a model with nothing observed.
  const std::vector<workflow::ObservedVariable>& observed() const { return torch_.observed(); }
  std::vector<std::string> replicated_names(NameStyle style) const { return torch_.replicated_names(style); }
  std::vector<std::string> log_lik_names(NameStyle style) const { return torch_.log_lik_names(style); }
  /// "tape" or "torch": what computes each draw's values.
  std::string backend() const { return tape_ ? "tape" : "torch"; }

  /// The random stream of one chain; the backend reads the one it needs.
  struct ChainStream {
    at::Generator torch;
    std::mt19937_64 tape;
  };
  static ChainStream chain_stream(uint64_t seed, uint64_t chain);

  /// The columns of `draws` (constrained rows as a run records them, the parameters'
  /// columns first), each row's replicated values from `stream` in turn.
  /// @throws ArgumentError for a row shorter than the parameters' columns.
  workflow::PredictiveRows rows(const std::vector<std::vector<double>>& draws, ChainStream& stream) const;

 private:
  workflow::PosteriorPredictive torch_;
  std::optional<tape::TapePredictive> tape_;
};

}  // namespace variate::services
