#include "engine/cli/deep_fit.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <torch/serialize/output-archive.h>

#include "engine/core/checks.h"
#include "engine/core/threading.h"
#include "engine/deep/amortized_fit.h"
#include "engine/deep/amortized_model.h"
#include "engine/distributed/distributed_error.h"
#include "engine/io/data_file.h"
#include "engine/io/portable_json_data.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"
#include "engine/store/project.h"

#include "engine/deep/training_recorder.h"

#include "engine/cli/summary_file.h"

namespace variate::cli {
namespace {

constexpr const char* kGroup = "Deep models (networks and guides)";
constexpr const char* kDeepOptions[] = {"--test-data", "--epochs", "--batch-size", "--learning-rate",
                                        "--max-steps", "--gradient-shards", "--checkpoint-every",
                                        "--project", "--resume", "--save-weights", "--threads"};

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// The epochs as they end, on stderr.
class EpochPrinter : public deep::AmortizedFitObserver {
 public:
  EpochPrinter(std::ostream& out, int epochs) : out_(out), epochs_(epochs) {}
  void on_epoch(const deep::EpochReport& r) override {
    out_ << "epoch " << r.epoch << "/" << epochs_ << ": step " << r.step << ", training ELBO "
         << number("%.2f", r.train_elbo);
    if (r.heldout_elbo) out_ << ", held-out ELBO " << number("%.2f", *r.heldout_elbo);
    out_ << " per row; " << number("%.2f", r.seconds) << " s (" << number("%.0f", r.rows_per_second)
         << " rows/s)\n";
  }

 private:
  std::ostream& out_;
  int epochs_;
};

// Several observers in order (the printer, the project).
class Observers : public deep::AmortizedFitObserver {
 public:
  void add(deep::AmortizedFitObserver* observer) {
    if (observer) observers_.push_back(observer);
  }
  void on_steps(const std::vector<deep::TrainingStep>& steps) override {
    for (auto* o : observers_) o->on_steps(steps);
  }
  void on_epoch(const deep::EpochReport& report) override {
    for (auto* o : observers_) o->on_epoch(report);
  }
  void on_checkpoint(const deep::TrainingCheckpoint& checkpoint) override {
    for (auto* o : observers_) o->on_checkpoint(checkpoint);
  }

 private:
  std::vector<deep::AmortizedFitObserver*> observers_;
};

struct LoadedModel {
  std::shared_ptr<const model::Source> source;
  std::unique_ptr<deep::AmortizedModel> model;
};

// The model bound to its training (and held-out) data, or nullopt with the problems
// printed as a compiler prints them.
std::optional<LoadedModel> load(const DeepFitShared& shared, const DeepFitOptions& options, uint64_t seed,
                                std::ostream& errors) {
  LoadedModel loaded;
  try {
    model::CompileResult compiled =
        model::compile_model(model::Source(shared.model_path, io::read_text_file(shared.model_path)));
    loaded.source = compiled.source;
    if (!compiled.ok()) {
      errors << compiled.report();
      return std::nullopt;
    }
    if (!shared.data) {
      errors << "error: " << shared.model_path << " declares data: give the training rows with --data\n";
      return std::nullopt;
    }
    deep::AmortizedOptions model_options;
    model_options.seed = seed;
    const Data train = io::read_data_file(*shared.data);
    loaded.model = std::make_unique<deep::AmortizedModel>(compiled.checked, train, model_options);
    if (options.test_data) loaded.model->bind_heldout(io::read_data_file(*options.test_data));
    return loaded;
  } catch (const model::ModelError& e) {
    model::Diagnostics diagnostics;
    diagnostics.error(e.span(), e.what());
    errors << diagnostics.format(*loaded.source);
    return std::nullopt;
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

nlohmann::ordered_json config_json(const DeepFitOptions& o, const DeepFitShared& shared, int ranks) {
  nlohmann::ordered_json config = {{"method", "amortized"},
                                   {"data", shared.data.value_or("")},
                                   {"test_data", o.test_data.value_or("")},
                                   {"epochs", o.epochs.value_or(10)},
                                   {"batch_size", o.batch_size},
                                   {"learning_rate", o.learning_rate},
                                   {"gradient_shards", o.gradient_shards},
                                   {"ranks", ranks}};
  return config;
}

void write_summary(const std::string& path, const deep::AmortizedModel& model, const deep::AmortizedFitResult& result,
                   const deep::AmortizedFitOptions& fit, int ranks, uint64_t seed) {
  nlohmann::ordered_json networks = nlohmann::ordered_json::array();
  for (const auto& n : model.network_infos()) {
    networks.push_back({{"name", n.name},
                        {"input", n.spec.input_width},
                        {"widths", n.spec.widths},
                        {"activation", model::activation_name(n.spec.activation)},
                        {"parameters", n.spec.parameter_count()}});
  }
  const auto finite = [](std::optional<double> x) -> nlohmann::ordered_json {
    return x && std::isfinite(*x) ? nlohmann::ordered_json(*x) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json document = {
      {"amortized",
       {{"status", deep::to_string(result.status)},
        {"epochs", result.epochs},
        {"steps", result.steps},
        {"batch_size", fit.batch_size},
        {"learning_rate", fit.learning_rate},
        {"rows", model.rows()},
        {"train_elbo", finite(result.train_elbo)},
        {"heldout_elbo", finite(result.heldout_elbo)},
        {"seconds", result.seconds},
        {"training_seconds", result.training_seconds},
        {"rows_per_second", result.rows_per_second},
        {"ranks", ranks},
        {"seed", seed},
        {"networks", networks}}}};
  write_summary_file(path, document);
}

void save_weights(const std::string& path, const deep::AmortizedModel& model) {
  torch::serialize::OutputArchive archive;
  model.networks().save(archive);
  try {
    archive.save_to(path);
  } catch (const c10::Error& e) {
    throw ArgumentError("cannot write the weights to '" + path + "': " + e.what_without_backtrace());
  }
}

}  // namespace

int check_deep_model(const std::string& model_path, const std::string& data_path, std::ostream& out,
                     std::ostream& errors) {
  DeepFitShared shared;
  shared.model_path = model_path;
  shared.data = data_path;
  const auto loaded = load(shared, {}, 1, errors);
  if (!loaded) return 1;
  const deep::AmortizedModel& model = *loaded->model;
  out << model_path << ": ok\n" << model.rows() << " rows (" << model.row_axis() << ")\nlatent variables, one value per row:";
  for (const auto& latent : model.latents()) {
    out << " " << latent.name << "[" << model.row_axis();
    for (const int64_t size : latent.row_shape) out << ", " << size;
    out << "]" << (latent.analytic_kl ? " (KL to its prior in closed form)" : "");
  }
  out << "\nnetworks:";
  for (const auto& n : model.network_infos()) {
    out << " " << n.name << " (mlp " << n.spec.input_width;
    for (const int64_t width : n.spec.widths) out << "-" << width;
    out << ", " << model::activation_name(n.spec.activation) << ", " << n.spec.parameter_count() << " weights)";
  }
  out << "\nfit with `variate fit` (amortized variational inference)\n";
  return 0;
}

void add_deep_fit_options(CLI::App& command, DeepFitOptions& o) {
  command.add_option("--test-data", o.test_data, "Held-out rows: their ELBO is reported after each epoch")->group(kGroup);
  command.add_option("--epochs", o.epochs, "Passes over the training rows (default: 10, or a resumed run's)")->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--batch-size", o.batch_size, "Rows per step (the likelihood is scaled by N / batch size)")->capture_default_str()->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--learning-rate", o.learning_rate, "Adam's learning rate")->capture_default_str()->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--max-steps", o.max_steps, "Stop after this many steps in all")->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--gradient-shards", o.gradient_shards,
                     "Parts of each batch whose gradients are added (default: one per process; 2 on one "
                     "process gives the weights of 2 processes to the bit)")->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--checkpoint-every", o.checkpoint_every, "Also checkpoint every this many steps (default: each epoch's end)")->check(CLI::PositiveNumber)->group(kGroup);
  command.add_option("--project", o.project, "Keep the run (ELBO per step, epochs, checkpoints) in this project file")->group(kGroup);
  command.add_option("--resume", o.resume, "Continue this run of --project from its last checkpoint")->group(kGroup);
  command.add_option("--save-weights", o.save_weights, "Write the trained weights (a torch::serialize archive)")->group(kGroup);
  command.add_option("--threads", o.threads, "LibTorch threads per process")->capture_default_str()->check(CLI::PositiveNumber)->group(kGroup);
}

bool is_deep_model_file(const std::string& path) {
  try {
    const auto compiled = model::compile_model(model::Source(path, io::read_text_file(path)));
    return compiled.ok() && compiled.checked->is_deep();
  } catch (const ArgumentError&) {
    return false;
  }
}

bool deep_options_given(const CLI::App& command) {
  for (const char* name : kDeepOptions) {
    if (command.get_option(name)->count() > 0) return true;
  }
  return false;
}

int run_deep_fit(const DeepFitOptions& options, const DeepFitShared& shared, const RunHooks& hooks) {
  std::ostream& err = *hooks.err;
  std::unique_ptr<DistributedRun> run;
  if (!start_distributed(shared.distributed, run, err)) return 1;
  const bool root = !run || run->root();
  static std::ostream discard(nullptr);
  std::ostream& errors = root ? err : discard;
  std::unique_ptr<deep::TrainingRecorder> recorder;
  try {
    if (options.resume && !options.project) throw ArgumentError("--resume needs the --project that holds the run");
    IntraOpThreads threads(options.threads);
    std::shared_ptr<store::Project> project;
    std::optional<store::CheckpointRecord> resumed;
    std::optional<store::RunInfo> resumed_run;
    // Rank 0 records the run; every rank reads the checkpoint it continues from.
    if (options.project && (root || options.resume)) {
      project = std::make_shared<store::Project>(*options.project, options.resume ? store::Project::OpenMode::existing
                                                                                  : store::Project::OpenMode::create);
      if (options.resume) {
        resumed_run = project->run(*options.resume);
        if (resumed_run->method != store::RunMethod::amortized) {
          throw ArgumentError("run " + std::to_string(*options.resume) + " of " + *options.project +
                              " is not a deep model's training");
        }
        resumed = project->latest_checkpoint(*options.resume);
        if (!resumed) {
          throw ArgumentError("run " + std::to_string(*options.resume) + " has no checkpoint to continue from");
        }
      }
    }
    // A continued run keeps its seed: the shuffles and draws after the checkpoint are the
    // ones it would have made.
    const std::optional<uint64_t> wanted = resumed_run ? std::optional<uint64_t>(resumed_run->seed) : shared.seed;
    const uint64_t seed = run ? run->agree_on_seed(wanted) : wanted ? *wanted : std::random_device{}();
    auto loaded = load(shared, options, seed, errors);
    if (!loaded) {
      if (run) run->abort();
      return 1;
    }
    deep::AmortizedModel& model = *loaded->model;
    const int ranks = run ? run->size() : 1;
    deep::AmortizedFitOptions fit_options;
    fit_options.epochs = options.epochs.value_or(10);
    fit_options.batch_size = options.batch_size;
    fit_options.learning_rate = options.learning_rate;
    fit_options.gradient_shards = options.gradient_shards;
    if (resumed_run) {  // its batches and steps, and its epochs unless more are asked for
      const auto config = nlohmann::json::parse(resumed_run->config_json);
      fit_options.batch_size = config.value("batch_size", fit_options.batch_size);
      fit_options.learning_rate = config.value("learning_rate", fit_options.learning_rate);
      fit_options.gradient_shards = config.value("gradient_shards", fit_options.gradient_shards);
      if (!options.epochs) fit_options.epochs = config.value("epochs", fit_options.epochs);
    }
    fit_options.seed = seed;
    fit_options.max_steps = options.max_steps;
    if (run) {
      fit_options.share_memory = run->on_one_host();
      fit_options.rank_timeout = std::chrono::milliseconds(static_cast<int64_t>(run->timeout_seconds() * 1000));
    }
    fit_options.checkpoint_every = options.checkpoint_every;
    deep::AmortizedFit fit(model, fit_options, run ? run->communicator() : nullptr);
    if (resumed) {
      fit.resume({resumed->step, resumed->epoch, resumed->epoch_step, resumed->weights, resumed->optimizer});
    }
    int64_t parameters = 0;
    for (const auto& n : model.network_infos()) parameters += n.spec.parameter_count();
    errors << "amortized variational inference: " << model.rows() << " rows (" << model.row_axis() << "), "
           << model.network_infos().size() << " network(s) with " << parameters << " weights, batch "
           << fit_options.batch_size << ", Adam " << fit_options.learning_rate << ", seed " << seed;
    if (run) {
      errors << "; " << ranks << " processes, " << options.threads << " thread(s) each, gradients summed "
             << (fit_options.share_memory ? "in shared memory" : "by allreduce");
    }
    errors << "\n";
    if (resumed) {
      errors << "continuing run " << *options.resume << " from its checkpoint after step " << resumed->step << "\n";
    }
    if (root && project) {
      if (resumed) {
        recorder = std::make_unique<deep::TrainingRecorder>(project, *options.resume, resumed->step);
      } else {
        store::RunSpec spec;
        spec.method = store::RunMethod::amortized;
        spec.config_json = config_json(options, shared, ranks).dump();
        spec.seed = seed;
        const std::string name = std::filesystem::path(shared.model_path).stem().string();
        spec.model_version_id = project->save_model(name, io::read_text_file(shared.model_path)).id;
        if (shared.data) {
          spec.data_set_id = project->save_data_set(std::filesystem::path(*shared.data).stem().string(),
                                                    io::portable_json_data(io::read_text_file(*shared.data), *shared.data)).id;
        }
        recorder = std::make_unique<deep::TrainingRecorder>(project, spec);
        errors << "run " << recorder->run() << " in " << *options.project << "\n";
      }
    }
    EpochPrinter printer(errors, fit_options.epochs);
    Observers observers;
    if (!shared.quiet) observers.add(&printer);
    observers.add(recorder.get());
    const deep::AmortizedFitResult result = fit.run(&observers, hooks.stop);
    if (run) {
      if (const std::string failure = run->finish(); !failure.empty()) {
        throw distributed::DistributedError(failure + " after the run");
      }
    }
    if (!root) return 0;
    if (recorder) {
      recorder->finish(result.status == deep::AmortizedFitStatus::stopped ? store::RunStatus::stopped
                                                                         : store::RunStatus::finished);
    }
    if (options.save_weights) save_weights(*options.save_weights, model);
    *hooks.out << "Amortized variational inference of " << shared.model_path << ": " << deep::to_string(result.status)
               << " after " << result.steps << " steps (" << result.epochs << " epochs); training ELBO "
               << number("%.2f", result.train_elbo) << " per row";
    if (result.heldout_elbo) *hooks.out << ", held-out ELBO " << number("%.2f", *result.heldout_elbo) << " per row";
    *hooks.out << "; " << number("%.1f", result.seconds) << " s\n";
    if (shared.summary_json) write_summary(*shared.summary_json, model, result, fit_options, ranks, seed);
    return 0;
  } catch (const distributed::DistributedError& e) {
    const std::string message = DistributedRun::failure(e, run.get());
    err << "error: " << message << "\n";
    if (recorder) recorder->finish(store::RunStatus::failed, message + " (the last checkpoint is kept: continue with --resume " +
                                                                 std::to_string(recorder->run()) + ")");
    return 1;
  } catch (const std::exception& e) {  // ArgumentError, ProjectError
    err << "error: " << e.what() << "\n";
    if (recorder) recorder->finish(store::RunStatus::failed, e.what());
    if (run) run->abort();
    return 1;
  }
}

}  // namespace variate::cli
