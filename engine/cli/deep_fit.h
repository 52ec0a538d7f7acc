#pragma once
/// `variate fit` of a model with networks and guides (a VAE): amortized variational
/// inference by minibatch stochastic gradient ascent (engine/deep/amortized_fit.h).
///
///   variate fit vae.vmod --data train.json --test-data test.json --epochs 10
///       --batch-size 128 --learning-rate 1e-3 --project vae.variate [--nproc 2]
///   variate fit vae.vmod --data train.json --project vae.variate --resume 3
///
/// With --project the run keeps its ELBO per step, one record per epoch and checkpoints
/// (the weights and Adam's state, at each epoch's end and every --checkpoint-every
/// steps), so a stopped or killed training continues with --resume from its last one.

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/cli/distributed_run.h"
#include "engine/cli/run_hooks.h"

namespace variate::cli {

struct DeepFitOptions {
  std::optional<std::string> test_data;
  std::optional<int> epochs;  // 10, or a resumed run's
  int64_t batch_size = 128;
  double learning_rate = 1e-3;
  std::optional<int64_t> max_steps;
  int gradient_shards = 0;
  int64_t checkpoint_every = 0;
  std::optional<std::string> project;
  std::optional<int64_t> resume;
  std::optional<std::string> save_weights;
  int threads = 1;
};

/// The options only deep models take, in their own group of `fit --help`.
void add_deep_fit_options(CLI::App& command, DeepFitOptions& options);

/// Whether the model file parses and checks as a model with networks or guides (a file
/// with errors is not: the usual path reports them).
bool is_deep_model_file(const std::string& path);

/// Whether any deep-only option was given (an error for a model without networks).
bool deep_options_given(const CLI::App& command);

/// What `fit` passes on: the options it shares with ADVI.
struct DeepFitShared {
  std::string model_path;
  std::optional<std::string> data;
  std::optional<uint64_t> seed;
  std::optional<std::string> summary_json;
  bool quiet = false;
  DistributedOptions distributed;
};

int run_deep_fit(const DeepFitOptions& options, const DeepFitShared& shared, const RunHooks& hooks);

/// `variate check MODEL.vmod --data D` of a deep model: binds it (every shape checked)
/// and lists its rows, latent variables and networks.
int check_deep_model(const std::string& model_path, const std::string& data_path, std::ostream& out,
                     std::ostream& errors);

}  // namespace variate::cli
