#pragma once
/// The settings of one inference run as the run-configuration panel edits them and a
/// project records them (as JSON, next to the run). The values are the engine's own types
/// (MetricKind, AdviMethod) and its options' defaults; ui/engine turns them into
/// NutsOptions, AdviOptions, AmortizedFitOptions and CompileOptions.
///
///   RunConfig config;
///   config.metric = MetricKind::dense;
///   config.maxTreeDepth = 8;
///   RunConfig::fromJson(config.toJson()) == config;   // true

#include <optional>
#include <vector>

#include <QJsonObject>
#include <QString>

#include "engine/mcmc/nuts_options.h"
#include "engine/tape/compiler/backend.h"
#include "engine/vi/advi_options.h"
#include "engine/workflow/auto_stop_rule.h"

namespace variate::ui {

/// Amortized: training a deep model's networks (engine/deep). The studio picks it for
/// every model with networks or guides, and only for those. Optimize: the mode by L-BFGS
/// (optimize/find_mode.h) and draws from the Laplace approximation there; Pathfinder:
/// multi-path Pathfinder's draws (pathfinder/pathfinder.h).
enum class InferenceMethod { Nuts, Advi, Amortized, Optimize, Pathfinder };

/// "NUTS", "ADVI", "amortized VI", "Optimize (L-BFGS)" or "Pathfinder".
QString methodName(InferenceMethod method);
/// Whether the method's draws are independent draws from an approximation (ADVI, Laplace,
/// Pathfinder): one chain, no warmup, no sampler statistics, and R-hat and ESS do not
/// apply; the PSIS k-hat of their importance ratios says how far they can be trusted.
bool drawsAreIndependent(InferenceMethod method);

/// The arithmetic type of real data and of what the model computes from it
/// (CompileOptions::dtype, which ui/engine sets from this).
enum class Dtype { Float64, Float32 };

/// "float64" or "float32", as `variate sample --dtype` spells them.
QString dtypeName(Dtype dtype);
/// "diag" or "dense", as `variate sample --metric` spells them.
QString metricName(MetricKind metric);

/// The `variate worker` a run goes to instead of this computer (an empty address: here).
/// The token and the CA stay in their files; only the paths are recorded. A recorded run
/// also holds its job, which is what reopening the project reattaches to.
struct WorkerRef {
  QString address;  // HOST:PORT
  QString tokenFile;
  QString caFile;   // empty: no TLS
  QString job;      // set on the run's record once the worker accepted it
  /// Of a run continued on a worker ("run more draws"): the rows each chain had before
  /// the job, whose iterations follow them.
  std::vector<int> offsets;

  bool isRemote() const { return !address.isEmpty(); }
};

struct RunConfig {
  InferenceMethod method = InferenceMethod::Nuts;
  quint64 seed = 1;
  Dtype dtype = Dtype::Float64;
  QString device = "cpu";
  /// What evaluates the density (`variate sample --backend`); batched chains run on LibTorch.
  tape::Backend backend = tape::Backend::automatic;
  /// Processes on this machine that split the likelihood's rows (`variate sample --nproc`);
  /// NUTS only: ADVI runs on one.
  int processes = 1;
  // NUTS
  int chains = 4;
  int warmup = 1000;
  int draws = 1000;
  int threads = 0;  // 0: one per chain (every chain live)
  MetricKind metric = NutsOptions().metric();
  int maxTreeDepth = NutsOptions().max_tree_depth();
  double adaptDelta = NutsOptions().target_accept();  // Stan's adapt delta
  bool batchedChains = NutsOptions().batched_chains();
  /// Auto-stop (workflow/auto_stop.h): above 0, after `draws` the chains extend in rounds
  /// until every quantity has bulk and tail ESS >= untilEss and R-hat < untilRhat, or
  /// maxDraws per chain. On one process.
  int untilEss = 0;
  double untilRhat = workflow::AutoStopRule().max_rhat;
  int maxDraws = workflow::AutoStopRule().max_draws;
  // ADVI
  AdviMethod family = AdviOptions().method();
  int iterations = AdviOptions().iter();  // at most; ADVI stops earlier once converged
  double tolRelObj = AdviOptions().tol_rel_obj();
  std::optional<double> eta;  // nullopt: adapted from 100, 10, 1, 0.1, 0.01
  int adaptIterations = AdviOptions().adapt_iter();
  int gradSamples = AdviOptions().grad_samples();
  int elboSamples = AdviOptions().elbo_samples();
  int evalElbo = AdviOptions().eval_elbo();
  int outputDraws = 1000;  // approximate-posterior draws recorded at the end (ADVI, Pathfinder)
  // Optimize. With the Jacobian the mode is the unconstrained density's, the centre of the
  // Laplace approximation whose draws approximate the posterior (Stan's laplace); without
  // it, the posterior mode of the constrained parameters (Stan's optimize), and the Laplace
  // draws approximate no posterior (k-hat does not apply to them).
  bool jacobian = true;
  int laplaceDraws = 1000;  // 0: the run records the mode alone
  // Pathfinder: single paths from independent random starts, pooled and resampled by PSIS
  // to outputDraws draws.
  int paths = 4;
  // Amortized VI (`variate fit` of a deep model); the defaults are the CLI's.
  int epochs = 10;
  int batchSize = 128;
  double learningRate = 1e-3;
  /// The project's data set whose rows give the held-out ELBO after each epoch and the
  /// images the Reconstructions panel shows; empty: none (the training rows are shown).
  QString heldoutDataSet;
  /// Where the run goes: this computer, or a worker ("worker": {...} in the JSON).
  WorkerRef worker;

  /// Keys as `variate sample --project` writes them where the CLI has the setting
  /// ("max_depth", "adapt_delta", "metric": "diag"), so either's runs read back alike.
  QJsonObject toJson() const;
  /// Missing keys keep their defaults and unknown values are ignored, so the projects of
  /// older studios and of the CLI still load.
  static RunConfig fromJson(const QJsonObject& json);

  /// At most as many processes as the row blocks a sharded density is cut into
  /// (distributed::kDefaultRowBlocks, which ui/engine checks against this).
  static constexpr int kMaxProcesses = 16;
  /// Whether the run is made by several processes: NUTS with processes > 1.
  bool onSeveralProcesses() const { return method == InferenceMethod::Nuts && processes > 1; }
  /// Whether k-hat says how far the run's draws can be trusted: ADVI's and Pathfinder's,
  /// and Laplace draws with the Jacobian.
  bool kHatApplies() const {
    return method == InferenceMethod::Advi || method == InferenceMethod::Pathfinder ||
           (method == InferenceMethod::Optimize && jacobian && laplaceDraws > 0);
  }

  bool operator==(const RunConfig& other) const { return toJson() == other.toJson(); }
  bool operator!=(const RunConfig& other) const { return !(*this == other); }
};

}  // namespace variate::ui
