#pragma once
/// Where the model of a command (sample, fit, logp) comes from: a .vmod file compiled with
/// its data (`variate`, vmod_source.h), or a model written in C++ and compiled into the
/// program (the programs `variate export` writes, cpp_model_source.h). A command declares
/// its options, asks its source to add the arguments that name the model, and runs on the
/// BoundModel the source makes once the command line is parsed:
///
///   auto source = std::make_shared<VmodSource>();
///   add_sample_command(app, exit_code, source);   // `variate sample MODEL.vmod ...`

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/core/log_joint.h"
#include "engine/target/draw_columns.h"
#include "engine/target/unconstrained_target.h"

#include "engine/cli/distributed_run.h"

namespace variate::cli {

/// A model bound to its data: what the commands run on.
struct BoundModel {
  /// The joint log density of constrained values (`logp`).
  LogJoint log_joint;
  /// The density of one unconstrained point [d] at a time (NUTS, `logp --jacobian`).
  UnconstrainedTarget target;
  /// The same density for batches of points [B, d] (ADVI's ELBO, --batched-chains). For a
  /// compiled .vmod model it is `target`; C++ written for one point evaluates a batch
  /// point by point (target/pointwise_log_joint.h).
  UnconstrainedTarget batch_target;
  /// What each draw records: the parameters, then the quantities derived from them.
  DrawColumns columns;
  /// The derived quantities: `logp --params` may name them (they are not used).
  std::vector<std::string> derived_names;
  /// Why `--backend auto` runs this model on LibTorch rather than the tape; empty when it
  /// does not (target.backend() says which runs).
  std::string backend_note;
  /// When NUTS finds no initial point: the first argument of a distribution outside its
  /// domain, as a located diagnostic (model/invalid_argument.h); empty when the source
  /// cannot tell (a C++ model) or every argument is valid.
  std::function<std::string()> explain_no_initial_point = [] { return std::string(); };
};

/// The commands that run on a model.
enum class ModelCommand { sample, fit, logp };

class ModelSource {
 public:
  virtual ~ModelSource() = default;

  /// Declares on `command` the arguments that name the model (MODEL.vmod) and the options
  /// that only this kind of model has (--dtype on `sample` and --backend, how it is
  /// compiled).
  virtual void add_arguments(CLI::App& command, ModelCommand which) = 0;

  /// The model as the outputs name it: "Inference for NAME", `model = NAME` in CSV files.
  virtual std::string name() const = 0;

  /// Where the model computes: "cpu", or "cuda" / "cuda:N" (--device, when the source
  /// offers it).
  virtual std::string device() const { return "cpu"; }

  /// The .vmod file, whose text `sample --project` records; nullopt for a model written
  /// in C++, which has no text (its `sample` offers no --project). Whether there is one
  /// is known before the command line is parsed; its path, after.
  virtual std::optional<std::string> model_file() const = 0;

  /// The model bound to the data in `data_path` (CmdStan JSON or CSV; none for a model
  /// that declares no data). Prints every problem to `errors` and returns nullopt.
  virtual std::optional<BoundModel> bind(const std::optional<std::string>& data_path,
                                         std::ostream& errors) const = 0;

  /// The model bound on this machine's CPU for a run a worker makes: the columns of its
  /// outputs (and, for `fit`, the density of its output draws), whatever device the
  /// worker computes on.
  virtual std::optional<BoundModel> bind_here(const std::optional<std::string>& data_path,
                                              std::ostream& errors) const {
    return bind(data_path, errors);
  }

  /// The model bound for this rank of `run`: the likelihood's rows split between the
  /// ranks (distributed/sharded_target.h), or, with `--shard none`, the whole model on
  /// each. A model without text can only run whole.
  /// @throws distributed::DistributedError when the ranks disagree or cannot be reached.
  virtual std::optional<BoundModel> bind_distributed(const std::optional<std::string>& data_path,
                                                     std::ostream& errors, const DistributedRun& run) const;
};

}  // namespace variate::cli
