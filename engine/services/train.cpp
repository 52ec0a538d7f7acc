#include "engine/services/train.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "engine/core/threading.h"
#include "engine/deep/amortized_fit.h"
#include "engine/deep/amortized_model.h"
#include "engine/deep/training_recorder.h"
#include "engine/distributed/distributed_error.h"
#include "engine/io/stan_csv_format.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"
#include "engine/services/approximation_draws.h"
#include "engine/services/distributed_run.h"
#include "engine/services/rank_command.h"
#include "engine/services/run_error.h"
#include "engine/services/run_record.h"
#include "engine/services/setting_table.h"

namespace variate::services {
namespace {

// Several observers in order (the project's recorder first, then the front end's); the
// training is held here, between steps, while the run is paused.
class TrainingObservers : public deep::AmortizedFitObserver {
 public:
  explicit TrainingObservers(const RunObservers& run) : run_(run) {}
  void add(deep::AmortizedFitObserver* observer) {
    if (observer) observers_.push_back(observer);
  }
  void on_steps(const std::vector<deep::TrainingStep>& steps) override {
    for (auto* o : observers_) o->on_steps(steps);
    run_.wait_while_paused();
  }
  void on_epoch(const deep::EpochReport& report) override {
    for (auto* o : observers_) o->on_epoch(report);
  }
  void on_checkpoint(const deep::TrainingCheckpoint& checkpoint) override {
    for (auto* o : observers_) o->on_checkpoint(checkpoint);
  }

 private:
  const RunObservers& run_;
  std::vector<deep::AmortizedFitObserver*> observers_;
};

}  // namespace

// A binding error is located in the model's text as the compiler reports.
std::shared_ptr<deep::AmortizedModel> bind_deep_model(const RunSpec& spec, uint64_t seed) {
  const std::optional<std::string> text = spec.model->text();
  if (!text) throw ArgumentError("a model written in C++ is not trained by amortized VI");
  const model::CompileResult compiled = model::compile_model(model::Source(spec.model->name(), *text));
  if (!compiled.ok()) throw ReportedError(compiled.report());
  if (!compiled.checked->is_deep()) {
    throw ArgumentError(spec.model->name() + " has no networks or guides: it is sampled with NUTS or fitted with "
                        "ADVI, not trained");
  }
  if (!spec.data.given()) {
    throw ArgumentError(spec.model->name() + " declares data: give the training rows (--data, or a data set)");
  }
  try {
    deep::AmortizedOptions options;
    options.seed = seed;
    auto bound = std::make_shared<deep::AmortizedModel>(compiled.checked, spec.data.read(), options);
    if (spec.heldout.given()) bound->bind_heldout(spec.heldout.read());
    return bound;
  } catch (const model::ModelError& e) {
    model::Diagnostics diagnostics;
    diagnostics.error(e.span(), e.what());
    throw ReportedError(diagnostics.format(*compiled.source));
  }
}

namespace {

// The run a training continues, and its latest checkpoint.
struct Continued {
  store::RunInfo run;
  store::CheckpointRecord checkpoint;
};

std::optional<Continued> continued(const RunSpec& spec) {
  if (!spec.record.continues) return std::nullopt;
  if (!spec.record.project) throw ArgumentError("continuing a training needs the project that holds it");
  const store::Project project(*spec.record.project, store::Project::OpenMode::existing);
  const store::RunInfo run = project.run(*spec.record.continues);
  if (run.method != store::RunMethod::amortized) {
    throw ArgumentError("run " + std::to_string(run.id) + " of " + *spec.record.project +
                        " is not a deep model's training");
  }
  std::optional<store::CheckpointRecord> checkpoint = project.latest_checkpoint(run.id);
  if (!checkpoint) {
    throw ArgumentError("run " + std::to_string(run.id) +
                        " has no checkpoint to continue from (it ended before its first epoch did)");
  }
  return Continued{run, std::move(*checkpoint)};
}

deep::AmortizedFitOptions fit_options(const RunSpec& spec, const std::optional<Continued>& from, uint64_t seed) {
  Settings settings = spec.settings;
  if (from) {  // its batches and steps, and its epochs unless more are asked for
    const StoredConfig stored = read_run_config(Method::amortized, from->run.config_json);
    for (const auto& setting : {&setting::batch_size.descriptor(), &setting::learning_rate.descriptor(),
                                &setting::gradient_shards.descriptor()}) {
      if (const auto value = stored.settings.value_of(*setting)) settings.put(*setting, *value); else settings.clear(*setting);
    }
    if (!settings.get(setting::epochs)) settings.set(setting::epochs, stored.settings.get(setting::epochs));
  }
  deep::AmortizedFitOptions options;
  options.epochs = settings.get(setting::epochs).value_or(10);
  if (from && spec.more_epochs > 0) options.epochs = from->checkpoint.epoch - 1 + spec.more_epochs;
  if (from && !spec.settings.get(setting::epochs) && spec.more_epochs == 0) {
    options.epochs = std::max(options.epochs, from->checkpoint.epoch);
  }
  options.batch_size = settings.get(setting::batch_size);
  options.learning_rate = settings.get(setting::learning_rate);
  options.gradient_shards = settings.get(setting::gradient_shards).value_or(0);
  options.checkpoint_every = settings.get(setting::checkpoint_every).value_or(0);
  if (const auto steps = settings.get(setting::max_steps)) options.max_steps = *steps;
  options.seed = seed;
  return options;
}

nlohmann::ordered_json training_json(const TrainResult& r) {
  nlohmann::ordered_json networks = nlohmann::ordered_json::array();
  for (const auto& n : r.model->network_infos()) {
    networks.push_back({{"name", n.name},
                        {"input", n.spec.input_width},
                        {"widths", n.spec.widths},
                        {"activation", model::activation_name(n.spec.activation)},
                        {"parameters", n.spec.parameter_count()}});
  }
  const auto finite = [](std::optional<double> x) { return x ? finite_json(*x) : nlohmann::ordered_json(nullptr); };
  return {{"amortized",
           {{"status", deep::to_string(r.result.status)},
            {"epochs", r.result.epochs},
            {"steps", r.result.steps},
            {"batch_size", r.options.batch_size},
            {"learning_rate", r.options.learning_rate},
            {"rows", r.model->rows()},
            {"train_elbo", finite(r.result.train_elbo)},
            {"heldout_elbo", finite(r.result.heldout_elbo)},
            {"seconds", r.result.seconds},
            {"training_seconds", r.result.training_seconds},
            {"rows_per_second", r.result.rows_per_second},
            {"ranks", r.facts.ranks},
            {"seed", r.facts.seed},
            {"networks", networks}}}};
}

std::string describe(const TrainResult& r, const DistributedRun* ranks, int threads) {
  int64_t weights = 0;
  for (const auto& n : r.model->network_infos()) weights += n.spec.parameter_count();
  std::string text = "amortized variational inference: " + std::to_string(r.model->rows()) + " rows (" +
                     r.model->row_axis() + "), " + std::to_string(r.model->network_infos().size()) +
                     " network(s) with " + std::to_string(weights) + " weights, batch " +
                     std::to_string(r.options.batch_size) + ", Adam " + io::format_number(r.options.learning_rate, -1) +
                     ", " + std::to_string(r.options.epochs) + " epochs, seed " + std::to_string(r.facts.seed);
  if (r.model->has_heldout()) text += ", " + std::to_string(r.model->heldout_rows()) + " held-out rows";
  if (ranks) {
    text += "; " + std::to_string(ranks->size()) + " processes, " + std::to_string(threads) +
            " thread(s) each, gradients summed " + (r.options.share_memory ? "in shared memory" : "by allreduce");
  }
  return text;
}

// The project's record of the training: a new run, or the continued one after its
// checkpoint.
// The held-out rows are a data set of the project too, and the run names it (as the
// studio's configuration does), whoever ran it.
std::unique_ptr<deep::TrainingRecorder> start_record(const RunSpec& spec, const std::optional<Continued>& from,
                                                     const RunFacts& facts) {
  auto project = std::make_shared<store::Project>(*spec.record.project, store::Project::OpenMode::create);
  if (from) return std::make_unique<deep::TrainingRecorder>(project, from->run.id, from->checkpoint.step);
  RunSpec recorded = spec;
  if (spec.heldout.given()) {
    const std::string name = std::filesystem::path(spec.heldout.name).stem().string();
    project->save_data_set(name, spec.heldout.json_text());
    recorded.settings.set(setting::test_data, std::optional(name));
  }
  return std::make_unique<deep::TrainingRecorder>(project, new_run(*project, recorded, {}, facts));
}

}  // namespace

bool is_deep_model(const ModelSource& source) {
  const std::optional<std::string> text = source.text();
  if (!text) return false;
  const model::CompileResult compiled = model::compile_model(model::Source(source.name(), *text));
  return compiled.ok() && compiled.checked->is_deep();
}

int training_threads(int setting, int processes) {
  if (setting > 0) return setting;
  return std::max(1, hardware_threads() / std::max(1, processes) - 1);
}

TrainResult run_training(const RunSpec& spec, const RunObservers& observers,
                         const std::function<void(const deep::AmortizedModel&)>& preview) {
  TrainResult r;
  RankFiles files;
  std::unique_ptr<DistributedRun> ranks;
  std::unique_ptr<deep::TrainingRecorder> recorder;
  try {
    ranks = DistributedRun::start(rank_plan(spec, files), [&](const std::string& line) { observers.tell(line); });
    r.root = !ranks || ranks->root();
    const std::optional<Continued> from = continued(spec);
    const int threads = training_threads(spec.settings.get(setting::training_threads), ranks ? ranks->size() : 1);
    IntraOpThreads scope(threads);
    // A continued run keeps its seed: the shuffles and draws after the checkpoint are the
    // ones it would have made.
    const std::optional<uint64_t> wanted = from ? std::optional<uint64_t>(from->run.seed) : spec.settings.get(setting::seed);
    r.facts.seed = ranks ? ranks->agree_on_seed(wanted) : wanted.value_or(std::random_device{}());
    r.facts.ranks = ranks ? ranks->size() : 1;
    r.model = bind_deep_model(spec, r.facts.seed);
    r.options = fit_options(spec, from, r.facts.seed);
    if (ranks) {
      r.options.share_memory = ranks->on_one_host();
      r.options.rank_timeout = std::chrono::milliseconds(static_cast<int64_t>(ranks->timeout_seconds() * 1000));
    }
    deep::AmortizedFit fit(*r.model, r.options, ranks ? ranks->communicator() : nullptr);
    if (from) {
      const store::CheckpointRecord& c = from->checkpoint;
      fit.resume({c.step, c.epoch, c.epoch_step, c.weights, c.optimizer});
      r.resumed_step = c.step;
    }
    if (r.root) {
      observers.tell(describe(r, ranks.get(), threads));
      if (from) observers.tell("continuing run " + std::to_string(from->run.id) + " from its checkpoint after step " +
                               std::to_string(r.resumed_step));
      if (spec.record.project) recorder = start_record(spec, from, r.facts);
      r.run_id = recorder ? recorder->run() : -1;
      if (preview) preview(*r.model);
      if (observers.started) {
        RunStarted started;
        started.run_id = r.run_id;
        started.facts = r.facts;
        started.resumed_step = r.resumed_step;
        started.epochs = r.options.epochs;
        observers.started(started);
      }
    }
    TrainingObservers training(observers);
    training.add(recorder.get());
    if (r.root) training.add(observers.training);
    r.result = fit.run(&training, observers.stop_flag());
    if (ranks) ranks->finish();
    if (!r.root) return r;
    r.document = training_json(r);
    if (recorder) {
      recorder->finish(r.result.status == deep::AmortizedFitStatus::stopped ? store::RunStatus::stopped
                                                                           : store::RunStatus::finished);
      store::Project(*spec.record.project).set_diagnostics(r.run_id, r.document.dump());
    }
    return r;
  } catch (const std::exception& e) {
    const bool between_ranks = dynamic_cast<const distributed::DistributedError*>(&e) != nullptr;
    const std::string message = between_ranks ? DistributedRun::failure(e, ranks.get()) : e.what();
    if (!between_ranks && ranks) ranks->abort();
    if (recorder) {
      try {
        const std::string run = std::to_string(recorder->run());
        recorder->finish(store::RunStatus::failed, message + " (its last checkpoint is kept: continue with "
                                                   "`variate fit --resume " + run + "`, or the studio's Continue Training)");
      } catch (const std::exception&) {  // the file is unwritable: the message still reaches the front end
      }
    }
    if (between_ranks) throw distributed::DistributedError(message);
    throw;
  }
}

}  // namespace variate::services
