#pragma once
/// Every run setting, each described once (setting_table.cpp), as the typed handles the
/// methods' code reads them by. Adding a setting is a description there and the code that
/// uses it: its flag, its place in the stored configuration, its Run panel row, whether a
/// worker accepts it and whether the other ranks get it follow from the description.

#include <cstdint>
#include <optional>
#include <string>

#include "engine/mcmc/euclidean_metric.h"
#include "engine/services/setting.h"

namespace variate::services {

class Settings;

/// Whether an optimization's density includes the Jacobian: the setting jacobian, whose
/// auto means on with Laplace draws and off without them or with mle.
bool uses_jacobian(const Settings& settings);
/// The metric the setting metric names (diag, dense, lowrank).
MetricKind metric_kind(const Settings& settings);
/// Whether each replication's fit of an SBC run takes `setting`: its method's settings,
/// but those of a run's outputs, auto-stop, sharding rows and running on one worker.
bool sbc_fit_takes(const SettingDescriptor& setting);

}  // namespace variate::services

namespace variate::services::setting {

// Every method.
extern const Setting<std::optional<uint64_t>> seed;
// How the model is compiled: NUTS, ADVI, Optimize, Pathfinder.
extern const Setting<std::string> backend;  // "auto", "tape", "torch"
extern const Setting<std::string> dtype;    // "float64", "float32"
extern const Setting<std::string> device;   // "cpu", "cuda", "cuda:N"

// Processes that split the likelihood's rows: NUTS, ADVI, a deep model's training.
extern const Setting<std::optional<int>> nproc;
extern const Setting<double> dist_timeout;
extern const Setting<std::string> shard;  // "rows", "none"
extern const Setting<int> row_blocks;

// A worker that runs it: NUTS, ADVI.
extern const Setting<std::optional<std::string>> worker;
extern const Setting<std::optional<std::string>> token_file;
extern const Setting<std::optional<std::string>> tls_ca;
extern const Setting<double> heartbeat_timeout;

// Simulation-based calibration (services/sbc.h); each replication's fit takes its
// method's settings too.
extern const Setting<int> replications;
extern const Setting<int> thin;
extern const Setting<std::string> fit;  // "nuts", "advi", "pathfinder" (`sbc --method`)
extern const Setting<int> parallel;
extern const Setting<std::optional<std::string>> generator;

// NUTS.
extern const Setting<int> chains;
extern const Setting<int> warmup;
extern const Setting<int> draws;
extern const Setting<int> threads;
extern const Setting<int> max_depth;
extern const Setting<double> stepsize;
extern const Setting<double> adapt_delta;
extern const Setting<std::string> metric;  // "diag", "dense", "lowrank": see metric_kind
extern const Setting<std::string> adapt;   // "fisher", "stan"
extern const Setting<std::string> reparam;  // "auto", "none", "noncentered", "theta=0.1,...;..."
extern const Setting<std::string> init;    // a radius, or "pathfinder"
extern const Setting<bool> save_warmup;
extern const Setting<bool> predict;
extern const Setting<bool> prior;
extern const Setting<bool> batched_chains;
extern const Setting<std::optional<int>> until_ess;
extern const Setting<double> until_rhat;
extern const Setting<int> max_draws;

// ADVI.
extern const Setting<std::string> family;  // "meanfield", "fullrank" (`fit --method`)
extern const Setting<int> advi_iter;
extern const Setting<double> advi_tol_rel_obj;
extern const Setting<std::optional<double>> eta;
extern const Setting<int> adapt_iter;
extern const Setting<int> grad_samples;
extern const Setting<int> elbo_samples;
extern const Setting<int> eval_elbo;
extern const Setting<int> output_draws;
extern const Setting<std::string> precondition;  // "pathfinder", "none"

// Optimize.
extern const Setting<std::string> jacobian;  // "auto", "on", "off"
extern const Setting<bool> mle;
extern const Setting<bool> newton;
extern const Setting<int> laplace_draws;
extern const Setting<int> lbfgs_iter;
extern const Setting<double> init_alpha;
extern const Setting<double> tol_obj;
extern const Setting<double> lbfgs_tol_rel_obj;
extern const Setting<double> tol_grad;
extern const Setting<double> tol_rel_grad;
extern const Setting<double> tol_param;
// Optimize and Pathfinder.
extern const Setting<int> history_size;

// Pathfinder.
extern const Setting<int> num_paths;
extern const Setting<int> path_draws;
extern const Setting<int> psis_draws;
extern const Setting<bool> psis_resample;
extern const Setting<int> elbo_draws;
extern const Setting<int> path_iter;

// A deep model's training (amortized VI).
extern const Setting<std::optional<int>> epochs;
extern const Setting<int> batch_size;
extern const Setting<double> learning_rate;
extern const Setting<std::optional<int>> max_steps;
extern const Setting<std::optional<int>> gradient_shards;
extern const Setting<std::optional<int>> checkpoint_every;
extern const Setting<std::optional<std::string>> test_data;
extern const Setting<int> training_threads;

}  // namespace variate::services::setting
