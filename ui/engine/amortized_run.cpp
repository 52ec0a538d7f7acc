// A deep model's training on the engine thread (as `variate fit --project` runs it): bind
// the training and held-out rows, train with Adam, hand the ELBO, the epochs and images
// to the UI as they come, and record the run with its checkpoints; or continue a run from
// its latest checkpoint.

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include <ATen/ATen.h>

#include <QJsonDocument>
#include <QJsonObject>

#include "engine/core/checks.h"
#include "engine/core/threading.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"
#include "engine/store/project.h"

#include "ui/engine/run_context.h"
#include "ui/engine/training_previewer.h"
#include "ui/engine/training_relay.h"

#undef slots  // see training_previewer.h
#include "engine/deep/training_recorder.h"

namespace variate::ui {
namespace {

// Images in each row of the Reconstructions panel: one row at twice their size in a
// panel 750 pixels wide.
constexpr int kPreviewImages = 12;

struct Trainee {
  std::shared_ptr<const model::Source> source;
  std::unique_ptr<deep::AmortizedModel> model;
  std::unique_ptr<TrainingPreviewer> previewer;
  QString previewProblem;  // why there are no images
};

// The model bound to its rows; the parsed data are let go once bound (a data set of
// images is large).
Trainee bind(const RunRequest& request) {
  Trainee trainee;
  const model::CompileResult compiled = model::compile_model(
      model::Source(request.modelName.toStdString() + ".vmod", request.modelText.toStdString()));
  trainee.source = compiled.source;
  if (!compiled.ok()) throw ArgumentError(compiled.report());
  if (!compiled.checked->is_deep()) {
    throw ArgumentError(
        "model '" + request.modelName.toStdString() +
        "' has no networks or guides: it is sampled with NUTS or ADVI, not trained");
  }
  if (request.dataJson.isEmpty()) {
    throw ArgumentError("model '" + request.modelName.toStdString() +
                        "' declares data: add a data set of its training rows to the project");
  }
  try {
    const Data train =
        io::parse_json_data(request.dataJson.toStdString(), request.dataSetName.toStdString());
    std::optional<Data> heldout;
    if (!request.heldoutJson.isEmpty()) {
      heldout = io::parse_json_data(request.heldoutJson.toStdString(),
                                    request.config.heldoutDataSet.toStdString());
    }
    deep::AmortizedOptions options;
    options.seed = request.config.seed;
    trainee.model = std::make_unique<deep::AmortizedModel>(compiled.checked, train, options);
    if (heldout) trainee.model->bind_heldout(*heldout);
    try {
      // Its own stream: the images' prior draws are not the training's.
      trainee.previewer = std::make_unique<TrainingPreviewer>(
          *trainee.model, heldout ? *heldout : train, kPreviewImages, request.config.seed + 7);
    } catch (const ArgumentError& e) {
      trainee.previewProblem = QString::fromStdString(e.what());
    }
  } catch (const model::ModelError& e) {  // located in the model text, as the compiler reports
    model::Diagnostics diagnostics;
    diagnostics.error(e.span(), e.what());
    throw ArgumentError(diagnostics.format(*trainee.source));
  }
  return trainee;
}

store::RunSpec trainingSpec(const RunRequest& request) {
  store::RunSpec spec;
  spec.name = request.runName.toStdString();
  spec.method = store::RunMethod::amortized;
  QJsonObject config = request.config.toJson();
  config["data"] = request.dataSetName;  // as `variate fit --project` records them
  config["test_data"] = request.config.heldoutDataSet;
  config["ranks"] = 1;
  spec.config_json = QJsonDocument(config).toJson(QJsonDocument::Compact).toStdString();
  spec.model_version_id = request.modelVersionId;
  if (request.dataSetId) spec.data_set_id = *request.dataSetId;
  spec.seed = request.config.seed;
  return spec;
}

std::string summaryJson(const deep::AmortizedModel& model, const deep::AmortizedFitResult& result) {
  QJsonObject networks;
  for (const auto& n : model.network_infos()) {
    networks[QString::fromStdString(n.name)] = double(n.spec.parameter_count());
  }
  const auto finite = [](std::optional<double> x) {
    return x && std::isfinite(*x) ? QJsonValue(*x) : QJsonValue();
  };
  QJsonObject amortized{{"status", deep::to_string(result.status)},
                        {"epochs", result.epochs},
                        {"steps", double(result.steps)},
                        {"rows", double(model.rows())},
                        {"train_elbo", finite(result.train_elbo)},
                        {"heldout_elbo", finite(result.heldout_elbo)},
                        {"seconds", result.seconds},
                        {"network_weights", networks}};
  return QJsonDocument(QJsonObject{{"amortized", amortized}})
      .toJson(QJsonDocument::Compact)
      .toStdString();
}

}  // namespace

RunOutcome runAmortized(const RunRequest& request, RunContext& context) {
  RunOutcome outcome;
  std::shared_ptr<store::Project> project;
  std::unique_ptr<deep::TrainingRecorder> recorder;
  try {
    // A core is left to the UI: intra-op threads that share it with the redraws spin at
    // every parallel region (on 2 cores, 2 threads train ~9x slower than 1).
    IntraOpThreads threads(request.config.threads > 0 ? request.config.threads
                                                      : std::max(1, hardware_threads() - 1));
    project = std::make_shared<store::Project>(request.projectPath.toStdString());
    std::optional<store::CheckpointRecord> resumed;
    if (request.continues >= 0) {
      resumed = project->latest_checkpoint(request.continues);
      if (!resumed) {
        throw ArgumentError(
            "run " + std::to_string(request.continues) +
            " has no checkpoint to continue from (it ended before its first epoch did)");
      }
    }
    Trainee trainee = bind(request);
    deep::AmortizedModel& model = *trainee.model;
    deep::AmortizedFitOptions options;
    options.epochs = request.config.epochs;
    options.batch_size = request.config.batchSize;
    options.learning_rate = request.config.learningRate;
    // A continued run keeps its seed, so its shuffles and draws are the ones it would have made.
    options.seed = request.config.seed;
    if (resumed) {
      options.epochs = request.moreEpochs > 0 ? resumed->epoch - 1 + request.moreEpochs
                                              : std::max(options.epochs, resumed->epoch);
    }
    deep::AmortizedFit fit(model, options);
    if (resumed) {
      fit.resume({resumed->step, resumed->epoch, resumed->epoch_step, resumed->weights,
                  resumed->optimizer});
    }

    recorder = resumed ? std::make_unique<deep::TrainingRecorder>(project, request.continues,
                                                                  resumed->step)
                       : std::make_unique<deep::TrainingRecorder>(project, trainingSpec(request));
    outcome.runId = recorder->run();
    RunStart start{outcome.runId, {}, 0, resumed ? resumed->step : -1, options.epochs};
    context.started(start);

    int64_t weights = 0;
    for (const auto& n : model.network_infos()) weights += n.spec.parameter_count();
    context.log(
        QString(
            "Amortized VI: %1 rows, %2 network(s) with %3 weights, batch %4, Adam %5, %6 epochs%7")
            .arg(model.rows())
            .arg(model.network_infos().size())
            .arg(weights)
            .arg(options.batch_size)
            .arg(options.learning_rate)
            .arg(options.epochs)
            .arg(model.has_heldout() ? QString(", %1 held-out rows").arg(model.heldout_rows())
                                     : QString()));
    if (resumed) {
      context.log(QString("Continuing from the checkpoint after step %1").arg(resumed->step));
    }
    if (!trainee.previewProblem.isEmpty()) {
      context.log("No reconstructions: " + trainee.previewProblem);
    }

    TrainingPreviewer* previewer = trainee.previewer.get();
    TrainingRelay relay(context.control, context.mailbox, recorder.get(),
                        previewer ? std::function<TrainingPreviewPtr(long long, int)>(
                                        [previewer](long long step, int epoch) {
                                          return previewer->compute(step, epoch);
                                        })
                                  : nullptr);
    relay.postPreview();  // the networks before this training: what the grid starts from
    const deep::AmortizedFitResult result = fit.run(&relay, context.control.stopFlag());
    if (result.status == deep::AmortizedFitStatus::stopped) relay.postPreview();
    if (!relay.previewError().empty()) {
      context.log("Reconstructions stopped: " + QString::fromStdString(relay.previewError()));
    }

    outcome.status = result.status == deep::AmortizedFitStatus::stopped ? RunStatus::Stopped
                                                                        : RunStatus::Finished;
    recorder->finish(outcome.status == RunStatus::Stopped ? store::RunStatus::stopped
                                                          : store::RunStatus::finished);
    project->set_diagnostics(outcome.runId, summaryJson(model, result));
    QString elbo = QString("training ELBO %1").arg(result.train_elbo, 0, 'f', 2);
    if (result.heldout_elbo)
      elbo += QString(", held-out ELBO %1").arg(*result.heldout_elbo, 0, 'f', 2);
    context.log(QString("Training %1 after %2 steps (%3 epochs): %4 per row; %5 s")
                    .arg(deep::to_string(result.status))
                    .arg(result.steps)
                    .arg(result.epochs)
                    .arg(elbo)
                    .arg(result.seconds, 0, 'f', 1));
  } catch (const std::exception& e) {
    outcome.status = RunStatus::Failed;
    outcome.message = QString::fromStdString(e.what());
    if (recorder) {
      try {
        recorder->finish(store::RunStatus::failed,
                         std::string(e.what()) +
                             " (its last checkpoint is kept: Continue it from the Runs panel)");
      } catch (const std::exception&) {  // the file is unwritable: the message still reaches the UI
      }
    }
  }
  return outcome;
}

}  // namespace variate::ui
