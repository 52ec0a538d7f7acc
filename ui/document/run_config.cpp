#include "ui/document/run_config.h"

#include "engine/services/run_config.h"
#include "engine/services/setting_table.h"

namespace variate::ui {

namespace setting = services::setting;

std::string RunConfig::toJson() const {
  nlohmann::ordered_json json = {{"method", store::to_string(method)}};
  for (const services::Method m : services::all_methods()) json[store::to_string(m)] = settings.json(m);
  return json.dump();
}

RunConfig RunConfig::fromJson(const std::string& text) {
  RunConfig config;
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object()) return config;
  const std::string method = json.value("method", std::string("nuts"));
  try {
    config.method = store::run_method_from_string(method == "NUTS" ? "nuts" : method == "ADVI" ? "advi" : method);
  } catch (const std::exception&) {
  }
  for (const services::Method m : services::all_methods()) {
    // Each method's own object; an older studio kept one flat object for all of them.
    const auto own = json.find(store::to_string(m));
    config.settings.read_json(m, own != json.end() && own->is_object() ? *own : json);
  }
  return config;
}

RunConfig RunConfig::ofRun(services::Method method, const std::string& configJson) {
  services::StoredConfig stored = services::read_run_config(method, configJson);
  RunConfig config;
  config.method = method;
  config.settings = std::move(stored.settings);
  config.job = std::move(stored.job);
  config.reparamPilot = stored.facts.reparam_pilot;
  return config;
}

bool RunConfig::onSeveralProcesses() const { return settings.get(setting::nproc).value_or(1) > 1; }

bool RunConfig::isRemote() const {
  return setting::worker.descriptor().methods.contains(method) && settings.get(setting::worker).has_value();
}

QString RunConfig::workerAddress() const {
  return isRemote() ? QString::fromStdString(*settings.get(setting::worker)) : QString();
}

WorkerRef RunConfig::worker() const {
  const auto text = [this](const services::Setting<std::optional<std::string>>& key) {
    return QString::fromStdString(settings.get(key).value_or(""));
  };
  return {text(setting::worker), text(setting::token_file), text(setting::tls_ca)};
}

void RunConfig::setWorker(const WorkerRef& worker) {
  const auto put = [this](const services::Setting<std::optional<std::string>>& key, const QString& text) {
    settings.set(key, text.isEmpty() ? std::optional<std::string>() : std::optional(text.toStdString()));
  };
  put(setting::worker, worker.address);
  put(setting::token_file, worker.tokenFile);
  put(setting::tls_ca, worker.caFile);
}

bool RunConfig::kHatApplies() const {
  return method == services::Method::advi || method == services::Method::pathfinder ||
         (method == services::Method::optimize && settings.get(setting::laplace_draws) > 0 &&
          services::uses_jacobian(settings));
}

bool RunConfig::operator==(const RunConfig& other) const {
  const auto job_id = [](const std::optional<services::JobRef>& job) { return job ? job->id : std::string(); };
  return method == other.method && settings == other.settings && job_id(job) == job_id(other.job);
}

int RunConfig::epochs() const { return settings.get(setting::epochs).value_or(10); }

QString methodName(services::Method method) { return QString::fromUtf8(services::method_label(method)); }

}  // namespace variate::ui
