#include "ui/document/run_config.h"

namespace variate::ui {

QString methodName(InferenceMethod method) {
  return method == InferenceMethod::Advi ? QStringLiteral("ADVI") : QStringLiteral("NUTS");
}

QJsonObject RunConfig::toJson() const {
  QJsonObject json;
  json["method"] = methodName(method);
  json["chains"] = chains;
  json["warmup"] = warmup;
  json["draws"] = draws;
  json["seed"] = QString::number(seed);  // JSON numbers lose 64-bit integers
  json["threads"] = threads;
  json["device"] = device;
  json["family"] = family;
  json["iterations"] = iterations;
  json["output_draws"] = outputDraws;
  return json;
}

RunConfig RunConfig::fromJson(const QJsonObject& json) {
  RunConfig config;
  config.method = json["method"].toString() == "ADVI" ? InferenceMethod::Advi : InferenceMethod::Nuts;
  config.chains = json["chains"].toInt(config.chains);
  config.warmup = json["warmup"].toInt(config.warmup);
  config.draws = json["draws"].toInt(config.draws);
  const QJsonValue seed = json["seed"];
  config.seed = seed.isString() ? seed.toString().toULongLong() : static_cast<quint64>(seed.toDouble(1));
  config.threads = json["threads"].toInt(config.threads);
  config.device = json["device"].toString(config.device);
  config.family = json["family"].toString(config.family);
  config.iterations = json["iterations"].toInt(config.iterations);
  config.outputDraws = json["output_draws"].toInt(config.outputDraws);
  return config;
}

}  // namespace variate::ui
