// Every run setting, described once. The defaults are the engine's options' own where the
// engine has the setting (NutsOptions, AdviOptions, LbfgsOptions, PathfinderOptions,
// AmortizedFitOptions, the convergence rule of diagnostics/thresholds.h); the order is the
// Run panel's and the help's.

#include "engine/services/setting_table.h"

#include <deque>
#include <set>

#include "engine/deep/amortized_fit.h"
#include "engine/diagnostics/thresholds.h"
#include "engine/distributed/shard_plan.h"
#include "engine/mcmc/nuts_options.h"
#include "engine/optimize/lbfgs_options.h"
#include "engine/pathfinder/pathfinder_options.h"
#include "engine/services/init_files.h"
#include "engine/services/reparam_choice.h"
#include "engine/services/settings.h"
#include "engine/vi/advi_options.h"
#include "engine/workflow/auto_stop_rule.h"

namespace variate::services {
namespace {

constexpr unsigned kEverywhere = kInRunPanel | kSharedByRanks | kAcceptedByWorker;

// A description under construction: setting_table's rows read as sentences.
class Describe {
 public:
  Describe(std::string name, SettingKind kind) {
    d_.name = std::move(name);
    d_.kind = kind;
  }
  Describe& by_default(SettingValue value) { d_.default_value = std::move(value); return *this; }
  Describe& none_means(std::string text) { d_.none_means = std::move(text); return *this; }
  Describe& at_least(double min) { d_.min = min; return *this; }
  Describe& above(double min) { d_.min = min; d_.min_excluded = true; return *this; }
  Describe& at_most(double max) { d_.max = max; return *this; }
  Describe& choices(std::vector<std::string> choices) { d_.choices = std::move(choices); return *this; }
  Describe& unit(std::string unit) { d_.unit = std::move(unit); return *this; }
  Describe& label(std::string label) { d_.label = std::move(label); return *this; }
  Describe& help(std::string help) { d_.help = std::move(help); return *this; }
  Describe& methods(Methods methods) { d_.methods = methods; return *this; }
  Describe& scopes(unsigned scopes) { d_.scopes = scopes; return *this; }
  Describe& flag(std::string flag) { d_.flag_name = std::move(flag); return *this; }
  Describe& legacy(std::vector<std::string> keys) { d_.legacy_keys = std::move(keys); return *this; }
  Describe& stan(std::vector<std::string> names) { d_.stan_names = std::move(names); return *this; }
  Describe& check(std::string (*check)(const std::string&)) { d_.check = check; return *this; }
  const SettingDescriptor& descriptor() const { return d_; }

 private:
  SettingDescriptor d_;
};

std::deque<SettingDescriptor>& table() {
  static std::deque<SettingDescriptor> descriptors;  // stable addresses
  return descriptors;
}

std::vector<const SettingDescriptor*>& registry() {
  static std::vector<const SettingDescriptor*> settings;
  return settings;
}

const SettingDescriptor& add(const Describe& row) {
  SettingDescriptor& descriptor = table().emplace_back(row.descriptor());
  if (descriptor.default_value) descriptor.checked(*descriptor.default_value);  // a default its own check takes
  registry().push_back(&descriptor);
  return descriptor;
}

const Methods kSampling{Method::nuts};
const Methods kCompiled{Method::nuts, Method::advi, Method::optimize, Method::pathfinder};
const Methods kOnRanks{Method::nuts, Method::advi, Method::amortized};
const Methods kOnWorkers{Method::nuts, Method::advi};

std::string radius_or_pathfinder(const std::string& text) {
  if (text == "pathfinder" || names_init_files(text)) return "";
  try {
    size_t used = 0;
    if (std::stod(text, &used) >= 0 && used == text.size()) return "";
  } catch (const std::exception&) {
  }
  return "expected a radius (a number >= 0), 'pathfinder', or init files (FILE.json, or one per chain: A.json,B.json), "
         "got '" + text + "'";
}

std::string host_and_port(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size() ||
      text.find_first_not_of("0123456789", colon + 1) != std::string::npos) {
    return "expected HOST:PORT, got '" + text + "'";
  }
  return "";
}

std::string not_empty(const std::string& text) { return text.empty() ? "expected a file, got nothing" : ""; }

}  // namespace

bool uses_jacobian(const Settings& settings) {
  const std::string jacobian = settings.get(setting::jacobian);
  if (jacobian != "auto") return jacobian == "on";
  return settings.get(setting::laplace_draws) > 0 && !settings.get(setting::mle);
}

MetricKind metric_kind(const Settings& settings) {
  const std::string metric = settings.get(setting::metric);
  if (metric == "dense") return MetricKind::dense;
  if (metric == "lowrank") return MetricKind::low_rank;
  return MetricKind::diagonal;
}

bool sbc_fit_takes(const SettingDescriptor& setting) {
  static const std::set<std::string> left_out = {"shard", "row_blocks", "worker",     "save_warmup", "predict",
                                                 "prior", "until_ess",  "until_rhat", "max_draws"};
  return !left_out.count(setting.name);
}

// The handles below are defined in this file, in order: the registry is whole before main.
const std::vector<const SettingDescriptor*>& all_settings() { return registry(); }

namespace setting {

using K = SettingKind;

const Setting<std::optional<uint64_t>> seed{add(
    Describe("seed", K::seed).none_means("drawn at random").label("Seed")
        .help("Random seed: the same seed and settings give the same draws (none: one drawn at random, printed and "
              "recorded with the run)")
        .methods(Methods::all()).scopes(kInRunPanel | kAcceptedByWorker))};

const Setting<std::string> backend{add(
    Describe("backend", K::choice).by_default(std::string("auto")).choices({"auto", "tape", "torch"}).label("Backend")
        .help("What evaluates the density: auto (the tape on the CPU in float64 when every op of the model has a "
              "kernel, else LibTorch), tape, or torch; batched chains run on LibTorch")
        .methods(kCompiled).scopes(kEverywhere))};

const Setting<std::string> dtype{add(
    Describe("dtype", K::choice).by_default(std::string("float64")).choices({"float64", "float32"}).label("Dtype")
        .help("float64, or float32 for data and model arithmetic (faster on large data; the log density is summed "
              "in float64)")
        .methods(kCompiled).scopes(kEverywhere))};

const Setting<std::string> device{add(
    Describe("device", K::device).by_default(std::string("cpu")).label("Device")
        .help("cpu, or cuda (cuda:N) with a CUDA build of LibTorch: where the data lives and the model computes (on "
              "LibTorch; several processes on one host take one GPU each)")
        .methods(kCompiled).scopes(kEverywhere))};

const Setting<std::optional<int>> nproc{add(
    Describe("nproc", K::integer).none_means("one process, its density whole").at_least(1).at_most(1024)
        .unit("processes").label("Processes").legacy({"processes"})
        .help("Processes on this host that split the likelihood's rows (data-parallel); the first starts the "
              "others. Any number of processes, 1 included, draws what any other number draws (the rows are cut "
              "into the same blocks); chains then run one after another on all of them")
        .methods(kOnRanks).scopes(kInRunPanel | kAcceptedByWorker))};

const Setting<double> dist_timeout{add(
    Describe("dist_timeout", K::real).by_default(60.0).above(0).unit("seconds").label("Rank timeout")
        .help("Seconds a process waits for the others to join or answer before the run fails")
        .methods(kOnRanks).scopes(kEverywhere))};

const Setting<std::string> shard{add(
    Describe("shard", K::choice).by_default(std::string("rows")).choices({"rows", "none"}).label("Sharding")
        .help("rows: each process evaluates its blocks of the likelihood's rows; none: every process evaluates the "
              "whole model")
        .methods(kOnRanks).scopes(kEverywhere))};

const Setting<int> row_blocks{add(
    Describe("row_blocks", K::integer).by_default(int64_t{distributed::kDefaultRowBlocks}).at_least(1)
        .unit("blocks").label("Row blocks")
        .help("Blocks the rows are cut into, whatever the number of processes (at most this many processes; the "
              "same blocks give the same draws on any number)")
        .methods(kOnRanks).scopes(kEverywhere))};

const Setting<std::optional<std::string>> worker{add(
    Describe("worker", K::text).none_means("this computer").label("Run on").check(host_and_port)
        .help("HOST:PORT of a `variate worker` that runs it; its draws come back as they are made")
        .methods(kOnWorkers))};

const Setting<std::optional<std::string>> token_file{add(
    Describe("token_file", K::text).none_means("none").label("Token file").check(not_empty)
        .help("The file holding the worker's token")
        .methods(kOnWorkers))};

const Setting<std::optional<std::string>> tls_ca{add(
    Describe("tls_ca", K::text).none_means("no TLS").label("CA certificate").check(not_empty)
        .help("The worker's CA certificate (PEM): TLS")
        .methods(kOnWorkers))};

const Setting<double> heartbeat_timeout{add(
    Describe("heartbeat_timeout", K::real).by_default(15.0).above(0).unit("seconds").label("Heartbeat timeout")
        .help("Seconds without a word from the worker before it counts as gone")
        .methods(kOnWorkers))};

const Setting<int> replications{
    add(Describe("replications", K::integer)
            .by_default(int64_t{100})
            .at_least(1)
            .unit("replications")
            .label("Replications")
            .help("Data sets simulated from the prior and fitted: each parameter's rank among its fit's draws is "
                  "uniform when the fits are calibrated")
            .methods({Method::sbc})
            .scopes(kInRunPanel | kSharedByRanks))};

const Setting<int> thin{add(Describe("thin", K::integer)
                                .by_default(int64_t{10})
                                .at_least(1)
                                .label("Thin")
                                .help("Rank among every THIN-th draw of each chain: autocorrelated draws make ranks "
                                      "non-uniform even when the fit is right (Talts et al.'s remedy)")
                                .methods({Method::sbc})
                                .scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::string> fit{add(Describe("fit", K::choice)
                                       .by_default(std::string("nuts"))
                                       .choices({"nuts", "advi", "pathfinder"})
                                       .label("Fits by")
                                       .flag("--method")
                                       .help("What fits each simulated data set, with its own settings")
                                       .methods({Method::sbc})
                                       .scopes(kInRunPanel | kSharedByRanks))};

const Setting<int> parallel{add(Describe("parallel", K::integer)
                                    .by_default(int64_t{0})
                                    .at_least(0)
                                    .at_most(4096)
                                    .unit("replications")
                                    .label("At once")
                                    .help("Replications fitted at once by each process, each on one core (0: one per "
                                          "core of the process's share of its host)")
                                    .methods({Method::sbc})
                                    .scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::optional<std::string>> generator{
    add(Describe("generator", K::text)
            .none_means("the fitted model")
            .label("Simulate from")
            .check(not_empty)
            .help("A model file (.vmod) with the fitted model's parameters that the data are simulated from instead: "
                  "a planted mismatch, which SBC should reject")
            .methods({Method::sbc})
            .scopes(kInRunPanel | kSharedByRanks))};

const Setting<int> chains{add(
    Describe("chains", K::integer).by_default(int64_t{NutsOptions().chains()}).at_least(1).at_most(1024)
        .unit("chains").label("Chains").help("Independent chains (R-hat needs at least 2)").stan({"num_chains"})
        .methods(kSampling).scopes(kEverywhere))};

const Setting<int> warmup{add(
    Describe("warmup", K::integer).by_default(int64_t{NutsOptions().warmup()}).at_least(0)
        .unit("iterations per chain").label("Warmup").stan({"num_warmup", "iter_warmup"})
        .help("Warmup iterations per chain: step size and metric adaptation")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<int> draws{add(
    Describe("draws", K::integer).by_default(int64_t{NutsOptions().draws()}).at_least(0)
        .unit("draws per chain").label("Draws").help("Draws per chain after warmup").stan({"num_samples", "iter_sampling"})
        .methods(kSampling).scopes(kEverywhere))};

const Setting<int> threads{add(
    Describe("threads", K::integer).by_default(int64_t{0}).at_least(0).at_most(4096).unit("threads")
        .label("Threads")
        .help("Threads for chains (0: one per chain, up to this machine's cores); with several processes, threads "
              "per process (0: this host's cores shared by its processes)")
        .methods(kSampling).scopes(kInRunPanel | kAcceptedByWorker))};

const Setting<int> max_depth{add(
    Describe("max_depth", K::integer).by_default(int64_t{NutsOptions().max_tree_depth()}).at_least(1).at_most(30)
        .label("Max tree depth").stan({"max_depth", "max_treedepth"})
        .help("A trajectory has at most 2^depth leapfrog steps; transitions that reach it are counted")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<double> stepsize{add(
    Describe("stepsize", K::real).by_default(NutsOptions().step_size()).above(0)
        .label("Initial step size")
        .help("Where warmup's search for a first step size starts; adaptation takes it from there")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<double> adapt_delta{add(
    Describe("adapt_delta", K::real).by_default(NutsOptions().target_accept()).above(0).at_most(0.9999)
        .label("Adapt delta").stan({"adapt_delta", "delta"})
        .help("Target acceptance rate of warmup's step-size adaptation: higher means smaller steps and fewer "
              "divergences")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<std::string> metric{add(
    Describe("metric", K::choice)
        .by_default(std::string("diag"))
        .choices({"diag", "dense", "lowrank"})
        .label("Metric")
        .help("The mass matrix warmup adapts: diag, as --adapt says; dense, as Stan's; or lowrank, a diagonal "
              "with the directions where the posterior is much wider or narrower than it, from the draws' and the "
              "gradients' covariances, renewed as warmup goes and ending it once settled (nutpie's; diagonal beyond "
              "2000 parameters)")
        .methods(kSampling)
        .scopes(kEverywhere))};

const Setting<std::string> adapt{
    add(Describe("adapt", K::choice)
            .by_default(std::string(NutsOptions().adaptation() == Adaptation::fisher ? "fisher" : "stan"))
            .choices({"fisher", "stan"})
            .label("Adaptation")
            .help("How warmup learns a diagonal metric: fisher, from the draws' and the gradients' variances, renewed "
                  "after every transition, ending warmup once two windows agree (nutpie's estimate); stan, the draws' "
                  "variance over doubling windows, for all of --warmup (Stan's). A dense metric adapts as Stan's, a "
                  "low-rank one as fisher")
            .methods(kSampling)
            .scopes(kEverywhere))};

const Setting<std::string> reparam{
    add(Describe("reparam", K::text)
            .by_default(std::string("auto"))
            .label("Reparameterize")
            .check(reparam_text_problem)
            .help("Latent variables of a location-scale family whose location or scale reads parameters (theta ~ "
                  "Normal(mu, tau)) are sampled as theta = mu + tau^(1-c) * (theta.z - c * mu), theta.z ~ "
                  "Normal(c * mu, tau^c), with a centering c of 1 (as written) to 0 (non-centered): auto, warmup's "
                  "first iterations sample them non-centered, then each element is sampled as written where its "
                  "gradients say the data dominate its prior, else non-centered; noncentered, c = 0; none, the "
                  "model as written; or NAME=C[,C...][;NAME=...] by hand. Draws name the model's variables")
            .methods(kSampling)
            .scopes(kEverywhere))};

const Setting<std::string> init{add(
    Describe("init", K::text).by_default(std::string("2")).label("Initial points").check(radius_or_pathfinder)
        .help("Where chains start: uniform(-R, R) on the unconstrained scale for a number R; 'pathfinder': at "
              "draws of multi-path Pathfinder, warmup starting from their covariance as the inverse metric; or "
              "CmdStan's init files of parameter values, FILE.json for every chain or A.json,B.json,... one per chain")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<bool> save_warmup{add(
    Describe("save_warmup", K::flag).by_default(false).label("Save warmup").stan({"save_warmup"})
        .help("Also write warmup draws to the CSV files (a project keeps them always)")
        .methods(kSampling).scopes(kAcceptedByWorker))};

const Setting<bool> predict{add(
    Describe("predict", K::flag).by_default(false).label("Predictive columns")
        .help("Add each observed variable's posterior predictive draws (NAME_rep.1, ...) and the pointwise log "
              "likelihood (log_lik.1, ...) to every draw, as CmdStan's generated quantities")
        .methods(kSampling))};

const Setting<bool> prior{
    add(Describe("prior", K::flag)
            .by_default(false)
            .label("From the prior")
            .help("Draw from the prior instead of the posterior: each draw's parameters simulated from their priors "
                  "(exactly, no MCMC and no likelihood) and, as with --predict, each observed variable's NAME_rep from "
                  "the model given them: the prior predictive distribution")
            .methods(kSampling)
            .scopes(kInRunPanel))};

const Setting<bool> batched_chains{add(
    Describe("batched_chains", K::flag).by_default(NutsOptions().batched_chains()).label("Batched chains")
        .help("Evaluate all chains in one batched LibTorch computation: faster where one evaluation has a large "
              "fixed cost (small models, GPUs)")
        .methods(kSampling).scopes(kEverywhere))};

const Setting<std::optional<int>> until_ess{add(
    Describe("until_ess", K::integer).none_means("off").at_least(1).unit("effective draws per chain")
        .label("Until ESS")
        .help("Auto-stop: after Draws, extend the chains (keeping their adaptation) in rounds until every quantity "
              "has bulk and tail ESS at least this many per chain and R-hat below Until R-hat, or Max draws per "
              "chain (the convergence rule's own bound is 100 per chain)")
        .methods(kSampling).scopes(kInRunPanel))};

const Setting<double> until_rhat{add(
    Describe("until_rhat", K::real).by_default(diagnostics::kMaxRhat).above(1).at_most(10).label("Until R-hat")
        .help("Auto-stop's bound on every quantity's rank-normalized split R-hat")
        .methods(kSampling).scopes(kInRunPanel))};

const Setting<int> max_draws{add(
    Describe("max_draws", K::integer).by_default(int64_t{workflow::AutoStopRule().max_draws}).at_least(1)
        .unit("draws per chain").label("Max draws").help("Auto-stop's cap on draws per chain")
        .methods(kSampling).scopes(kInRunPanel))};

const Setting<std::string> family{add(
    Describe("family", K::choice).by_default(std::string("meanfield")).choices({"meanfield", "fullrank"})
        .label("Family").flag("--method")
        .help("meanfield: independent Gaussians; fullrank: one correlated Gaussian")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> advi_iter{add(
    Describe("iter", K::integer).by_default(int64_t{AdviOptions().iter()}).at_least(1).unit("iterations")
        .label("Iterations").legacy({"iterations"})
        .help("Most optimization iterations; ADVI stops earlier once converged")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<double> advi_tol_rel_obj{add(
    Describe("tol_rel_obj", K::real).by_default(AdviOptions().tol_rel_obj()).above(0).label("tol_rel_obj")
        .help("Converged when the relative ELBO change drops below this")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<std::optional<double>> eta{add(
    Describe("eta", K::real).none_means("adapted from 100, 10, 1, 0.1, 0.01").above(0).label("Eta")
        .help("Step size; none: the best of 100, 10, 1, 0.1 and 0.01 after the adaptation iterations")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> adapt_iter{add(
    Describe("adapt_iter", K::integer).by_default(int64_t{AdviOptions().adapt_iter()}).at_least(1)
        .unit("iterations").label("Adapt iterations").help("Iterations per step size tried while adapting eta")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> grad_samples{add(
    Describe("grad_samples", K::integer).by_default(int64_t{AdviOptions().grad_samples()}).at_least(1)
        .label("Gradient draws").help("Monte Carlo draws per gradient")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> elbo_samples{add(
    Describe("elbo_samples", K::integer).by_default(int64_t{AdviOptions().elbo_samples()}).at_least(1)
        .label("ELBO draws").help("Monte Carlo draws per ELBO evaluation")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> eval_elbo{add(
    Describe("eval_elbo", K::integer).by_default(int64_t{AdviOptions().eval_elbo()}).at_least(1)
        .unit("iterations").label("Evaluate ELBO every")
        .help("Iterations between ELBO evaluations (and convergence checks)")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<int> output_draws{add(
    Describe("output_draws", K::integer).by_default(int64_t{1000}).at_least(1).label("Output draws")
        .help("Draws from the fitted approximation, recorded as the run's draws")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<std::string> precondition{add(
    Describe("precondition", K::choice).by_default(std::string("pathfinder")).choices({"pathfinder", "none"})
        .label("Start")
        .help("pathfinder: start from single-path Pathfinder's estimate and optimize in coordinates whitened by "
              "it; none: Stan's random start")
        .methods({Method::advi}).scopes(kEverywhere))};

const Setting<std::string> jacobian{add(
    Describe("jacobian", K::tristate).by_default(std::string("auto")).label("Jacobian")
        .help("Include the Jacobian of the constraining transforms: the mode of the unconstrained density, the "
              "centre of the Laplace approximation whose draws then approximate the posterior (Stan's laplace). "
              "auto: on with Laplace draws, off without them (Stan's optimize: the posterior mode of the "
              "constrained parameters)")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<bool> mle{add(
    Describe("mle", K::flag).by_default(false).label("Maximum likelihood")
        .help("Maximize the likelihood alone (the priors of the parameters left out)")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<bool> newton{add(
    Describe("newton", K::flag).by_default(true).label("Newton steps")
        .help("Finish with Newton steps on the exact Hessian where L-BFGS's tests stop short of the mode (on "
              "ridges); off: stop where L-BFGS stops")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<int> laplace_draws{add(
    Describe("laplace_draws", K::integer).by_default(int64_t{0}).at_least(0).label("Laplace draws")
        .help("Draws from the Laplace approximation at the mode (Gaussian, the inverse Hessian its covariance), "
              "recorded as the run's draws; 0: the run records the mode alone")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<int> lbfgs_iter{add(
    Describe("iter", K::integer).by_default(int64_t{LbfgsOptions().max_iterations()}).at_least(1)
        .unit("iterations").label("Iterations").help("Maximum number of L-BFGS iterations")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> init_alpha{add(
    Describe("init_alpha", K::real).by_default(LbfgsOptions().init_alpha()).above(0).label("Initial step")
        .help("First trial step length").methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> tol_obj{add(
    Describe("tol_obj", K::real).by_default(LbfgsOptions().tol_obj()).at_least(0).label("tol_obj")
        .help("Converged when the objective changes by less").methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> lbfgs_tol_rel_obj{add(
    Describe("tol_rel_obj", K::real).by_default(LbfgsOptions().tol_rel_obj()).at_least(0).label("tol_rel_obj")
        .help("... or its relative change is below this many epsilons")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> tol_grad{add(
    Describe("tol_grad", K::real).by_default(LbfgsOptions().tol_grad()).at_least(0).label("tol_grad")
        .help("... or the gradient's norm is below this").methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> tol_rel_grad{add(
    Describe("tol_rel_grad", K::real).by_default(LbfgsOptions().tol_rel_grad()).at_least(0).label("tol_rel_grad")
        .help("... or the relative gradient is below this many epsilons")
        .methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<double> tol_param{add(
    Describe("tol_param", K::real).by_default(LbfgsOptions().tol_param()).at_least(0).label("tol_param")
        .help("... or the step's norm is below this").methods({Method::optimize}).scopes(kInRunPanel))};

const Setting<int> history_size{add(
    Describe("history_size", K::integer).by_default(int64_t{LbfgsOptions().history_size()}).at_least(1)
        .label("History size").help("Curvature pairs of L-BFGS's inverse Hessian estimate")
        .methods({Method::optimize, Method::pathfinder}).scopes(kInRunPanel))};

const Setting<int> num_paths{add(
    Describe("num_paths", K::integer).by_default(int64_t{PathfinderOptions().num_paths()}).at_least(1)
        .unit("paths").label("Paths")
        .help("Single Pathfinder paths from independent random starts; several paths' draws are pooled and "
              "resampled by Pareto smoothed importance weights")
        .methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<int> path_draws{add(
    Describe("draws", K::integer).by_default(int64_t{PathfinderOptions().num_draws()}).at_least(1)
        .unit("draws per path").label("Draws per path")
        .help("Draws per path from its best approximation").methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<int> psis_draws{add(
    Describe("psis_draws", K::integer).by_default(int64_t{PathfinderOptions().num_psis_draws()}).at_least(1)
        .label("Resampled draws").legacy({"output_draws"})
        .help("Draws kept by importance resampling of the pooled draws")
        .methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<bool> psis_resample{add(
    Describe("psis_resample", K::flag).by_default(PathfinderOptions().psis_resample()).label("PSIS resampling")
        .help("Resample the paths' pooled draws by Pareto smoothed importance weights; off: keep every path's "
              "draws")
        .methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<int> elbo_draws{add(
    Describe("elbo_draws", K::integer).by_default(int64_t{PathfinderOptions().num_elbo_draws()}).at_least(1)
        .label("ELBO draws").help("Monte Carlo draws per ELBO estimate along a path")
        .methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<int> path_iter{add(
    Describe("iter", K::integer).by_default(int64_t{PathfinderOptions().lbfgs().max_iterations()}).at_least(1)
        .unit("iterations").label("Iterations").help("Maximum L-BFGS iterations per path")
        .methods({Method::pathfinder}).scopes(kInRunPanel))};

const Setting<std::optional<int>> epochs{add(
    Describe("epochs", K::integer).none_means("10, or as many as the continued run had").at_least(1)
        .label("Epochs").help("Passes over the training rows")
        .methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<int> batch_size{add(
    Describe("batch_size", K::integer).by_default(int64_t{deep::AmortizedFitOptions().batch_size}).at_least(1)
        .unit("rows").label("Batch size").help("Rows per step (the likelihood is scaled by N / batch size)")
        .methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<double> learning_rate{add(
    Describe("learning_rate", K::real).by_default(deep::AmortizedFitOptions().learning_rate).above(0)
        .label("Learning rate").help("Adam's learning rate")
        .methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::optional<int>> max_steps{add(
    Describe("max_steps", K::integer).none_means("no limit").at_least(1).unit("steps").label("Max steps")
        .help("Stop after this many steps in all").methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::optional<int>> gradient_shards{add(
    Describe("gradient_shards", K::integer).none_means("one per process").at_least(1).label("Gradient shards")
        .help("Parts of each batch whose gradients are added (2 on one process gives the weights of 2 processes "
              "to the bit)")
        .methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::optional<int>> checkpoint_every{add(
    Describe("checkpoint_every", K::integer).none_means("at each epoch's end").at_least(1).unit("steps")
        .label("Checkpoint every").help("Also checkpoint every this many steps")
        .methods({Method::amortized}).scopes(kInRunPanel | kSharedByRanks))};

const Setting<std::optional<std::string>> test_data{add(
    Describe("test_data", K::text).none_means("none").label("Held-out data").legacy({"test_data_set"})
        .help("Held-out rows: their ELBO is reported after each epoch, and the studio's Reconstructions panel "
              "shows them")
        .methods({Method::amortized}))};

const Setting<int> training_threads{add(
    Describe("threads", K::integer).by_default(int64_t{0}).at_least(0).at_most(4096).unit("threads")
        .label("Threads")
        .help("LibTorch threads per process (0: this host's cores shared by its processes, one left free)")
        .methods({Method::amortized}).scopes(kInRunPanel))};

}  // namespace setting
}  // namespace variate::services
