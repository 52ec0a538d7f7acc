#pragma once
/// Where a run's model comes from, and the model bound to its data: a .vmod text compiled
/// with its data (vmod_source.h), or a model written in C++ and compiled into the program
/// (an exported program's, engine/cli/cpp_model_source.h). The services bind it; no front
/// end does.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/log_joint.h"
#include "engine/distributed/communicator.h"
#include "engine/model/checker.h"
#include "engine/services/data_input.h"
#include "engine/target/draw_columns.h"
#include "engine/target/unconstrained_target.h"

namespace variate::services {

class PredictiveColumns;  // predictive_columns.h

/// How a model is compiled: the settings backend, dtype and device.
struct CompileChoice {
  std::string backend = "auto";
  std::string dtype = "float64";
  std::string device = "cpu";
  /// The setting reparam's text (reparam_choice.h): a sampler's runs only. `auto` binds
  /// the non-centered form, which the pilot that decides the centerings samples.
  std::string reparam = "none";
};

/// A model bound to its data: what the methods run on.
struct BoundModel {
  /// The joint log density of constrained values (`logp`).
  LogJoint log_joint;
  /// The density of unconstrained points, one [d] or a batch [B, d] at a time.
  UnconstrainedTarget target;
  /// The same density for batches (ADVI's ELBO, batched chains). For a compiled .vmod model
  /// it is `target`; C++ written for one point evaluates a batch point by point.
  UnconstrainedTarget batch_target;
  /// What each draw records: the parameters, then the quantities derived from them.
  DrawColumns columns;
  /// The derived quantities (`logp --params` may name them).
  std::vector<std::string> derived_names;
  /// Why `auto` runs this model on LibTorch rather than the tape; empty when it does not.
  std::string backend_note;
  /// When NUTS finds no initial point: the first argument of a distribution outside its
  /// domain, as a located diagnostic; empty where the source cannot tell.
  std::function<std::string()> explain_no_initial_point = [] { return std::string(); };
  /// The argument outside its domain at an unconstrained point the target rejected, as
  /// "model.vmod:3:5: Categorical: argument 'p' must be a simplex, ..."; empty where the
  /// source cannot tell.
  std::function<std::string(const std::vector<double>&)> explain_rejection = [](const std::vector<double>&) {
    return std::string();
  };
  /// The parameters' values per draw among `columns` (the leading ones).
  int parameter_columns = 0;
  /// The variables sampled partially non-centered (model/reparameterize.h), with their
  /// centerings; empty for the model as written. `log_joint`, `derived_names` and
  /// `predictive` are the model's as written: they read the user's variables.
  model::Centering centering;
  /// Its posterior predictive columns (`--predict`), made when asked for: on the tape
  /// when `columns` are.
  std::function<std::shared_ptr<const PredictiveColumns>()> predictive = nullptr;
};

/// The ranks that split a model's rows: what a sharded binding needs of them.
struct RowSplit {
  std::shared_ptr<distributed::Communicator> communicator;
  int row_blocks = 16;
  /// This process's index among its host's ranks: its GPU with device cuda.
  int local_rank = 0;
};

/// The values a draw records of the parameters themselves: the first of its columns.
int parameter_columns(const ParameterLayout& layout);

class ModelSource {
 public:
  virtual ~ModelSource() = default;

  /// The model as the outputs name it: "Inference for NAME", `model = NAME` in CSV files.
  virtual std::string name() const = 0;
  /// The .vmod text, which a project records and a worker or another rank is given;
  /// nullopt for a model written in C++.
  virtual std::optional<std::string> text() const { return std::nullopt; }
  /// The .vmod file the text was read from, if any (the other ranks read it there).
  virtual std::optional<std::string> file() const { return std::nullopt; }

  /// The model bound to `data`, compiled as `choice` says.
  /// @throws ReportedError with the compiler's report; ArgumentError for data the model
  /// does not take, a device this LibTorch cannot use, or a backend that cannot run it.
  virtual BoundModel bind(const DataInput& data, const CompileChoice& choice) const = 0;

  /// The model bound for this rank of a run whose ranks split its likelihood's rows
  /// (distributed/sharded_target.h): every rank makes this call, in step.
  /// @throws as bind; distributed::DistributedError when the ranks disagree. A model
  /// without text cannot split its rows.
  virtual BoundModel bind_sharded(const DataInput& data, const CompileChoice& choice, const RowSplit& split) const;
};

}  // namespace variate::services
