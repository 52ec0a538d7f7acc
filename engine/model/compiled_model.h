#pragma once
/// A checked model bound to data and compiled to an ordinary model program: a function that
/// creates the model's random variables through the engine's API, so tracing,
/// make_log_joint and everything built on them work on it as on hand-written C++.

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/core/data.h"
#include "engine/core/log_joint.h"
#include "engine/target/draw_columns.h"
#include "engine/target/parameter_layout.h"
#include "engine/target/unconstrained_target.h"
#include "engine/model/checker.h"
#include "engine/model/fused_likelihood.h"
#include "engine/model/value.h"

namespace variate::model {

/// One part of a model whose likelihood rows are split between processes (a data-parallel
/// run, engine/distributed): the `~` statements whose density it adds, and the rows of
/// the data it keeps.
struct ModelPart {
  /// Indices into the program; the other `~` statements only define their variables
  /// (an observed one is skipped altogether).
  std::set<size_t> scored_statements;
  /// Data values (inputs or transformed data) cut to rows [first, second) of their first
  /// axis after the transformed data is computed.
  std::map<std::string, std::pair<int64_t, int64_t>> rows;
};

/// How a model is compiled; the defaults are what sampling wants.
struct CompileOptions {
  /// The dtype of real data and of what the model computes from data and parameters:
  /// float64, or float32 (about twice as fast on large data sets, with ~1e-7 relative
  /// rounding). Priors, transforms and the log density's total stay float64.
  at::ScalarType dtype = at::kDouble;
  /// Evaluate recognised GLM likelihoods with fused kernels (model/fused_likelihood.h);
  /// off, every term goes through autograd (for comparisons).
  bool fuse_likelihoods = true;
  /// Unset: the whole model.
  std::optional<ModelPart> part;
  /// Where the data and the model's computations live: the CPU, or a CUDA device when
  /// LibTorch is a CUDA build. Off the CPU the fused GLM kernels (CPU code) are not used
  /// and the tape (a CPU backend) is not offered; the samplers' points and the results
  /// stay on the CPU (the target moves them).
  at::Device device = at::kCPU;
  /// Latent variables sampled partially non-centered (model/reparameterize.h); the model
  /// is rewritten by compile_model, and its draws still name the user's variables.
  Centering centering;
};

/// An observed variable whose likelihood is evaluated by a fused GLM kernel.
struct FusedLikelihoodInfo {
  std::string name;
  std::string family;  // "Bernoulli(logits)", ...
  int64_t rows = 0;     // N
  int64_t columns = 0;  // of the design matrix
  bool intercept = false;
};

class CompiledModel {
 public:
  /// Binds `data`, computes transformed data, and runs the model once (at the image of
  /// the unconstrained zero vector) to learn and check every shape.
  /// @throws ModelError located in the model text, for data and model problems alike;
  /// ArgumentError for a dtype other than float64 or float32.
  CompiledModel(std::shared_ptr<const CheckedModel> checked, const Data& data,
                const CompileOptions& options = {});

  const CheckedModel& checked() const;
  /// The model program; observed variables carry their data values.
  Model program() const;
  LogJoint log_joint() const;
  const ParameterLayout& layout() const;
  UnconstrainedTarget target() const;

  /// Derived quantities (deterministic nodes that depend on parameters), in program order.
  const std::vector<std::string>& derived_names() const;
  /// Their values at constrained parameter values ([*shape] each, or [B, *shape] for a
  /// batch of B points).
  ValueMap derived(const ValueMap& parameters) const;
  /// The columns a run records for each draw: parameters, then derived quantities. A
  /// reparameterized variable takes its stand-in's place among the parameters.
  DrawColumns draw_columns() const;
  /// Their names and shapes, in that order.
  std::vector<DrawQuantity> draw_quantities() const;
  /// Shape of any node with a value: data, transformed data, variables, derived ones.
  const Shape& shape(const std::string& name) const;
  /// Inputs and transformed data.
  const std::map<std::string, Value>& data_values() const;
  /// Evaluates an expression over the bound data, with `values` for other names (the
  /// tape backend folds data-only expressions with it, and computes index maps by giving
  /// an indexed name the positions of its elements).
  /// @throws ModelError as evaluation does.
  Value evaluate(const Expr& expr, const std::map<std::string, Value>& values = {}) const;
  /// Deterministic nodes that some distribution reads, directly or through other nodes:
  /// the ones a log density needs.
  const std::set<std::string>& scored_nodes() const;
  /// Whether `~` statement number `statement` adds its density (all do, unless the model
  /// was compiled as a part, CompileOptions::part).
  bool scores(size_t statement) const;

  const CompileOptions& options() const;
  /// The likelihoods evaluated by fused kernels when validation is off (as samplers
  /// evaluate); with validation on, every statement takes the general path, which checks
  /// arguments and reports bad ones.
  std::vector<FusedLikelihoodInfo> fused_likelihoods() const;
  /// The fused form of `~` statement number `statement` (an index into the program), or
  /// nullptr when it has none (the tape evaluates these with the same kernels).
  const FusedLikelihood* fused_likelihood(size_t statement) const;
  /// How many times a fused kernel has evaluated a likelihood, over all copies of this
  /// model and all threads.
  long fused_evaluations() const;

  /// Shared by the copies and by the programs they hand out; immutable once built.
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace variate::model
