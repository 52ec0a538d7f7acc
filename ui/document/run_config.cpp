#include "ui/document/run_config.h"

#include <QJsonArray>
#include <QJsonValue>

namespace variate::ui {
namespace {

// The names older files hold besides today's: the recorder's "diag_e"/"dense_e".
std::optional<MetricKind> metricFromName(const QString& name) {
  if (name == "diag" || name == "diag_e" || name == "diagonal") return MetricKind::diagonal;
  if (name == "dense" || name == "dense_e") return MetricKind::dense;
  return std::nullopt;
}

std::optional<Dtype> dtypeFromName(const QString& name) {
  if (name == "float64" || name == "double") return Dtype::Float64;
  if (name == "float32" || name == "float") return Dtype::Float32;
  return std::nullopt;
}

std::optional<AdviMethod> adviMethodFromName(const QString& name) {
  try {
    return advi_method_from_string(name.toStdString());
  } catch (const ArgumentError&) {
    return std::nullopt;
  }
}

}  // namespace

QString methodName(InferenceMethod method) {
  switch (method) {
    case InferenceMethod::Advi: return QStringLiteral("ADVI");
    case InferenceMethod::Amortized: return QStringLiteral("amortized VI");
    case InferenceMethod::Optimize: return QStringLiteral("Optimize (L-BFGS)");
    case InferenceMethod::Pathfinder: return QStringLiteral("Pathfinder");
    case InferenceMethod::Nuts: break;
  }
  return QStringLiteral("NUTS");
}

bool drawsAreIndependent(InferenceMethod method) {
  return method == InferenceMethod::Advi || method == InferenceMethod::Optimize ||
         method == InferenceMethod::Pathfinder;
}

QString dtypeName(Dtype dtype) { return dtype == Dtype::Float32 ? QStringLiteral("float32") : QStringLiteral("float64"); }

QString metricName(MetricKind metric) { return metric == MetricKind::dense ? QStringLiteral("dense") : QStringLiteral("diag"); }

QJsonObject RunConfig::toJson() const {
  QJsonObject json;
  // "amortized", as `variate fit --project` records a training; "optimize" and
  // "pathfinder" as the commands are named.
  json["method"] = method == InferenceMethod::Amortized    ? QStringLiteral("amortized")
                   : method == InferenceMethod::Optimize   ? QStringLiteral("optimize")
                   : method == InferenceMethod::Pathfinder ? QStringLiteral("pathfinder")
                                                           : methodName(method);
  json["seed"] = QString::number(seed);  // JSON numbers lose 64-bit integers
  json["dtype"] = dtypeName(dtype);
  json["device"] = device;
  json["backend"] = QString(tape::backend_name(backend));
  json["processes"] = processes;
  json["chains"] = chains;
  json["warmup"] = warmup;
  json["draws"] = draws;
  json["threads"] = threads;
  json["metric"] = metricName(metric);
  json["max_depth"] = maxTreeDepth;
  json["adapt_delta"] = adaptDelta;
  json["batched_chains"] = batchedChains;
  json["until_ess"] = untilEss;
  json["until_rhat"] = untilRhat;
  json["max_draws"] = maxDraws;
  json["family"] = QString::fromStdString(to_string(family));
  json["iterations"] = iterations;
  json["tol_rel_obj"] = tolRelObj;
  json["eta"] = eta ? QJsonValue(*eta) : QJsonValue(QJsonValue::Null);  // null: adapted
  json["adapt_iter"] = adaptIterations;
  json["grad_samples"] = gradSamples;
  json["elbo_samples"] = elboSamples;
  json["eval_elbo"] = evalElbo;
  json["output_draws"] = outputDraws;
  json["jacobian"] = jacobian;
  json["laplace_draws"] = laplaceDraws;
  json["num_paths"] = paths;
  json["epochs"] = epochs;
  json["batch_size"] = batchSize;
  json["learning_rate"] = learningRate;
  json["test_data_set"] = heldoutDataSet;
  if (worker.isRemote()) {
    QJsonObject remote{{"address", worker.address}, {"token_file", worker.tokenFile}};
    if (!worker.caFile.isEmpty()) remote["ca_file"] = worker.caFile;
    if (!worker.job.isEmpty()) remote["job"] = worker.job;
    if (!worker.offsets.empty()) {
      QJsonArray offsets;
      for (const int offset : worker.offsets) offsets.append(offset);
      remote["offsets"] = offsets;
    }
    json["worker"] = remote;
  }
  return json;
}

RunConfig RunConfig::fromJson(const QJsonObject& json) {
  RunConfig config;
  const QString method = json["method"].toString();
  config.method = method == "ADVI"         ? InferenceMethod::Advi
                  : method == "amortized"  ? InferenceMethod::Amortized
                  : method == "optimize"   ? InferenceMethod::Optimize
                  : method == "pathfinder" ? InferenceMethod::Pathfinder
                                           : InferenceMethod::Nuts;
  const QJsonValue seed = json["seed"];
  config.seed = seed.isString() ? seed.toString().toULongLong() : static_cast<quint64>(seed.toDouble(1));
  config.dtype = dtypeFromName(json["dtype"].toString()).value_or(config.dtype);
  config.device = json["device"].toString(config.device);
  config.backend = tape::parse_backend(json["backend"].toString().toStdString()).value_or(config.backend);
  // `variate sample --project` records the processes that made a run as "ranks".
  config.processes = json["processes"].toInt(json["ranks"].toInt(config.processes));
  config.chains = json["chains"].toInt(config.chains);
  config.warmup = json["warmup"].toInt(config.warmup);
  config.draws = json["draws"].toInt(config.draws);
  config.threads = json["threads"].toInt(config.threads);
  config.metric = metricFromName(json["metric"].toString()).value_or(config.metric);
  config.maxTreeDepth = json["max_depth"].toInt(config.maxTreeDepth);
  config.adaptDelta = json["adapt_delta"].toDouble(config.adaptDelta);
  config.batchedChains = json["batched_chains"].toBool(config.batchedChains);
  config.untilEss = json["until_ess"].toInt(config.untilEss);
  config.untilRhat = json["until_rhat"].toDouble(config.untilRhat);
  config.maxDraws = json["max_draws"].toInt(config.maxDraws);
  config.family = adviMethodFromName(json["family"].toString()).value_or(config.family);
  config.iterations = json["iterations"].toInt(config.iterations);
  config.tolRelObj = json["tol_rel_obj"].toDouble(config.tolRelObj);
  if (json["eta"].isDouble()) config.eta = json["eta"].toDouble();
  config.adaptIterations = json["adapt_iter"].toInt(config.adaptIterations);
  config.gradSamples = json["grad_samples"].toInt(config.gradSamples);
  config.elboSamples = json["elbo_samples"].toInt(config.elboSamples);
  config.evalElbo = json["eval_elbo"].toInt(config.evalElbo);
  config.outputDraws = json["output_draws"].toInt(config.outputDraws);
  config.jacobian = json["jacobian"].toBool(config.jacobian);
  config.laplaceDraws = json["laplace_draws"].toInt(config.laplaceDraws);
  config.paths = json["num_paths"].toInt(config.paths);
  config.epochs = json["epochs"].toInt(config.epochs);
  config.batchSize = json["batch_size"].toInt(config.batchSize);
  config.learningRate = json["learning_rate"].toDouble(config.learningRate);
  config.heldoutDataSet = json["test_data_set"].toString();
  const QJsonObject remote = json["worker"].toObject();
  config.worker = {remote["address"].toString(), remote["token_file"].toString(), remote["ca_file"].toString(),
                   remote["job"].toString(), {}};
  for (const QJsonValue offset : remote["offsets"].toArray()) config.worker.offsets.push_back(offset.toInt());
  return config;
}

}  // namespace variate::ui
