#pragma once
/// A run's configuration as the Run panel edits it and a project records it: the method,
/// the settings of every method (each described once, engine/services/setting_table.cpp:
/// the panel's rows, their defaults and ranges come from there) and, for a run on a
/// worker, its job. The studio keeps every method's settings while the user switches
/// between them; a run records its own method's (services::run_config_json).
///
///   RunConfig config;
///   config.settings.set(services::setting::max_depth, 8);
///   RunConfig::fromJson(config.toJson()) == config;   // true

#include <optional>
#include <string>

#include <QString>

#include "engine/services/run_facts.h"
#include "engine/services/settings.h"
#include "ui/document/worker_ref.h"

namespace variate::ui {

struct RunConfig {
  services::Method method = services::Method::nuts;
  services::Settings settings;
  /// The job of a run made on a worker, once the worker took it (a reattach follows it).
  std::optional<services::JobRef> job;
  /// Warmup iterations per chain that `--reparam auto`'s pilot took before the chains'
  /// rows (services::RunFacts::reparam_pilot).
  int reparamPilot = 0;

  /// The project's configuration: {"method": "nuts", "nuts": {...}, "advi": {...}, ...}.
  std::string toJson() const;
  /// toJson()'s text, or an older studio's flat configuration; what a setting does not
  /// take keeps its default, so that older and edited projects still load.
  static RunConfig fromJson(const std::string& json);
  /// A run's stored configuration (services::read_run_config).
  static RunConfig ofRun(services::Method method, const std::string& configJson);

  /// Whether several processes make it (the setting nproc above 1).
  bool onSeveralProcesses() const;
  /// Whether a worker makes it; its address.
  bool isRemote() const;
  QString workerAddress() const;
  /// The worker it goes to (the settings worker, token_file, tls_ca); one with no
  /// address: this computer.
  WorkerRef worker() const;
  void setWorker(const WorkerRef& worker);
  /// Whether k-hat says how far its draws can be trusted: ADVI's and Pathfinder's, and
  /// Laplace draws with the Jacobian.
  bool kHatApplies() const;
  /// A training's epochs: the setting, or its default of 10.
  int epochs() const;

  bool operator==(const RunConfig& other) const;
  bool operator!=(const RunConfig& other) const { return !(*this == other); }
};

/// How the studio names a method: services::method_label.
QString methodName(services::Method method);

}  // namespace variate::ui
