#include "ui/engine/compiled_request.h"

#include <ATen/Context.h>

#include <QJsonDocument>

#include "engine/core/checks.h"
#include "engine/core/shape.h"
#include "engine/io/data_file.h"
#include "engine/tape/compiler/select_target.h"

namespace variate::ui {

CompiledRequest compileModel(const RunRequest& request) {
  CompiledRequest compiled;
  if (!request.dataJson.isEmpty()) {
    compiled.data = io::parse_json_data(request.dataJson.toStdString(), request.dataSetName.toStdString());
  }
  model::CompileOptions options;
  options.dtype = request.config.dtype == Dtype::Float32 ? at::kFloat : at::kDouble;
  checkDevice(request.config.device);
  options.device = at::Device(request.config.device.toStdString());
  compiled.result = model::compile_model(
      model::Source(request.modelName.toStdString() + ".vmod", request.modelText.toStdString()),
      compiled.data ? &*compiled.data : nullptr, options);
  if (!compiled.result.ok()) throw ArgumentError(compiled.result.report());
  if (!compiled.result.model) {
    throw ArgumentError("model '" + request.modelName.toStdString() +
                        "' declares data: add a data set to the project");
  }
  const model::CompiledModel& model = *compiled.result.model;
  setColumns(compiled, model.draw_columns());
  for (const auto& parameter : model.layout().parameters()) {
    compiled.parameterColumns += static_cast<int>(numel(parameter.shape));
  }
  return compiled;
}

CompiledRequest compileRequest(const RunRequest& request) {
  CompiledRequest compiled = compileModel(request);
  const bool batched = request.config.method == InferenceMethod::Nuts && request.config.batchedChains;
  tape::SelectedTarget selected =
      tape::select_target(*compiled.result.model, batched ? tape::Backend::torch : request.config.backend);
  compiled.target = std::move(selected.target);
  compiled.backendNote = std::move(selected.fallback_reason);
  return compiled;
}

void setColumns(CompiledRequest& compiled, DrawColumns columns) {
  compiled.bracketedNames.clear();
  for (const auto& name : columns.names(NameStyle::Bracketed)) {
    compiled.bracketedNames << QString::fromStdString(name);
  }
  compiled.stanNames = columns.names(NameStyle::StanCsv);
  compiled.columns = std::move(columns);
}

store::RunSpec runSpec(const RunRequest& request, const CompiledRequest& compiled,
                       std::vector<std::string> columns) {
  store::RunSpec spec;
  spec.name = request.runName.toStdString();
  switch (request.config.method) {
    case InferenceMethod::Advi: spec.method = store::RunMethod::advi; break;
    case InferenceMethod::Optimize: spec.method = store::RunMethod::optimize; break;
    case InferenceMethod::Pathfinder: spec.method = store::RunMethod::pathfinder; break;
    case InferenceMethod::Amortized: spec.method = store::RunMethod::amortized; break;
    case InferenceMethod::Nuts: spec.method = store::RunMethod::nuts; break;
  }
  // What the run uses, every setting (the stored summary reads max_depth from it).
  QJsonObject config = request.config.toJson();
  // A worker's run evaluates its density there: it has none here.
  if (compiled.target) config["backend_used"] = QString::fromStdString(compiled.target->backend());
  if (!compiled.backendNote.empty()) config["backend_note"] = QString::fromStdString(compiled.backendNote);
  spec.config_json = QJsonDocument(config).toJson(QJsonDocument::Compact).toStdString();
  spec.model_version_id = request.modelVersionId;
  if (request.dataSetId) spec.data_set_id = *request.dataSetId;
  spec.seed = request.config.seed;
  spec.columns = std::move(columns);
  return spec;
}

void checkDevice(const QString& device) {
  if (device == "cpu") return;
  if (!at::hasCUDA()) {
    throw ArgumentError("device '" + device.toStdString() + "': this LibTorch build runs on the CPU only (no CUDA)");
  }
  try {
    (void)at::Device(device.toStdString());
  } catch (const c10::Error&) {
    throw ArgumentError("device '" + device.toStdString() + "': expected cpu, cuda or cuda:N");
  }
}

}  // namespace variate::ui
