#pragma once
/// Posterior predictive draws and the pointwise log likelihood of a model at the draws of
/// a run, by tracing (workflow/predictive_tracer.h): for each draw, every observed
/// variable NAME gets a replicated draw NAME_rep from its distribution at that draw's
/// parameters, and each of its observed elements its log density.
///
///   const auto compiled = ...;                               // a .vmod model, or any
///   const PosteriorPredictive predictive(compiled.log_joint(), compiled.layout());
///   predictive.replicated_names(NameStyle::StanCsv);         // {"y_rep.1", ..., "y_rep.8"}
///   predictive.log_lik_names(NameStyle::StanCsv);            // {"log_lik.1", ..., "log_lik.8"}
///   const auto columns = predictive.rows(chain_rows, seed, chain);
///
/// Columns. Replicated values are named NAME_rep, flattened column-major as CmdStan
/// writes a generated quantity (y_rep.1 ... y_rep.N; Y_rep.2.1 for a matrix). The log
/// likelihood is one vector `log_lik` over all observed variables: the first variable's
/// elements (its sample_shape + batch_shape, column-major; a MultiNormal row is one
/// element), then the second's, in program order. So with `y ~ ...` (N) then `z ~ ...`
/// (M), log_lik.1 ... log_lik.N are y's and log_lik.(N+1) ... log_lik.(N+M) are z's:
/// the matrix `loo` reads, one column per observation.
///
/// Seeds. The draws of chain `chain` of a run seeded with `seed` come from one generator
/// (seeded by RandomStream::for_chain(seed, chain)), consumed row by row in order: the same
/// seed, chain and rows give the same values, however they are produced.

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include "engine/core/log_joint.h"
#include "engine/diagnostics/draws.h"
#include "engine/core/shape.h"
#include "engine/target/parameter_layout.h"
#include "engine/target/parameter_names.h"
#include "engine/workflow/predictive_tracer.h"

namespace variate::workflow {

/// The generator of chain `chain` (from 1) of a run seeded with `seed`: the one stream its
/// replicated values come from.
at::Generator chain_generator(uint64_t seed, uint64_t chain);

/// An observed variable of the model, as the predictive columns lay it out.
struct ObservedVariable {
  std::string name;
  Shape shape;          // of its value and of NAME_rep
  Shape log_lik_shape;  // sample_shape + batch_shape: one entry per observation
};

/// A chain's predictive columns, one row per draw.
struct PredictiveRows {
  std::vector<std::vector<double>> replicated;  // replicated_names() order
  std::vector<std::vector<double>> log_lik;     // log_lik_names() order
};

class PosteriorPredictive {
 public:
  /// Learns the observed variables by running the model once at the layout's zero point.
  /// `log_joint` supplies the model and its observed data; `layout` its parameters.
  /// @throws ArgumentError if the model creates a latent variable the layout lacks.
  PosteriorPredictive(LogJoint log_joint, ParameterLayout layout);

  /// In program order; empty for a model with nothing observed.
  const std::vector<ObservedVariable>& observed() const { return observed_; }
  /// How many columns the constrained parameters of a draw fill (the layout's parameters,
  /// each column-major): the start of every row a run records.
  int64_t parameter_columns() const { return parameter_columns_; }

  /// "y_rep.1" (Stan CSV) or "y_rep[1]", each observed variable in program order.
  std::vector<std::string> replicated_names(NameStyle style) const;
  /// "log_lik.1" ... "log_lik.n", n the number of observations over all variables.
  std::vector<std::string> log_lik_names(NameStyle style) const;

  /// One draw at constrained parameter values ([*shape] each, by name): what each
  /// observed variable gives, in program order. The replicated values use `generator`.
  /// @throws ArgumentError naming a parameter without a value or with the wrong shape.
  std::vector<Observation> draw(const ValueMap& parameters, at::Generator generator) const;

  /// The predictive columns of `draws` (constrained rows as the run records them), each
  /// row's replicated values from `generator` in turn: for a chain that arrives in
  /// batches, one generator (chain_generator) handed every batch.
  /// @throws ArgumentError for a row shorter than parameter_columns().
  PredictiveRows rows(const std::vector<std::vector<double>>& draws, at::Generator generator) const;

  /// The predictive columns of chain `chain` (from 1, as CmdStan numbers chains) of a run
  /// seeded with `seed`, for its rows of constrained draws as the run records them: the
  /// parameter columns first (CmdStan's order); later columns (derived quantities) are
  /// not read. The same as rows(draws, chain_generator(seed, chain)).
  /// @throws ArgumentError for a row shorter than parameter_columns().
  PredictiveRows rows(const std::vector<std::vector<double>>& draws, uint64_t seed,
                      uint64_t chain) const;

  /// The parameter values of one recorded row, by name.
  ValueMap parameters_of(const std::vector<double>& row) const;

 private:
  LogJoint log_joint_;
  ParameterLayout layout_;
  std::vector<ObservedVariable> observed_;
  int64_t parameter_columns_ = 0;
  int64_t replicated_size_ = 0;
  int64_t log_lik_size_ = 0;
};

/// The log likelihood of a run's chains by observation, log_lik[i][chain][draw]: the
/// input of diagnostics::psis_loo.
std::vector<diagnostics::Draws> log_lik_by_observation(const std::vector<PredictiveRows>& chains);

}  // namespace variate::workflow
