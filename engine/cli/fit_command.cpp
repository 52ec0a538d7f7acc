#include "engine/cli/fit_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <nlohmann/json.hpp>

#include "engine/core/checks.h"
#include "engine/core/memory.h"
#include "engine/core/threading.h"
#include "engine/distributed/distributed_error.h"
#include "engine/diagnostics/psis.h"
#include "engine/diagnostics/quantiles.h"
#include "engine/pathfinder/preconditioned_advi.h"
#include "engine/vi/advi.h"
#include "engine/vi/elbo_trend.h"
#include "engine/core/random_stream.h"
#include "engine/vi/variational_draws.h"
#include "engine/io/data_file.h"
#include "engine/io/summary_report.h"
#include "engine/io/variational_csv_writer.h"

#include "engine/cli/deep_fit.h"
#include "engine/cli/distributed_run.h"
#include "engine/cli/independent_draws.h"
#include "engine/cli/summary_file.h"
#include "engine/cli/remote_inference.h"
#include "engine/cli/run_hooks.h"
#include "engine/core/version.h"

namespace variate::cli {
namespace {

struct FitOptions {
  std::optional<std::string> data;
  std::string method = "meanfield";
  std::optional<uint64_t> seed;
  std::optional<std::string> output;
  std::optional<std::string> summary_json;
  int iter = 10000;
  double tol_rel_obj = 0.01;
  std::optional<double> eta;
  int adapt_iter = 50;
  int grad_samples = 1;
  int elbo_samples = 100;
  int eval_elbo = 100;
  int output_draws = 1000;
  std::string precondition = "pathfinder";
  bool quiet = false;
  std::optional<std::string> data_name;  // as outputs name the data file (a worker's job)
  DistributedOptions distributed;
  RemoteOptions remote;
  std::vector<std::string> forwarded;  // the options a worker gets (--worker)
};


// The ELBO trace on stderr, laid out as CmdStan prints it.
class TracePrinter : public AdviObserver {
 public:
  explicit TracePrinter(std::ostream& out) : out_(out) {}
  void on_eta_trial(const EtaTrial& trial) override {
    if (first_trial_) out_ << "Begin eta adaptation.\n";
    first_trial_ = false;
    out_ << "  eta = " << trial.eta << ": ELBO " << number("%.6g", trial.elbo) << "\n";
  }
  void on_eta_chosen(double eta, bool adapted) override {
    if (adapted) out_ << "Success! Found best value [eta = " << eta << "].\n";
    out_ << "\nBegin stochastic gradient ascent.\n"
              << "  iter             ELBO   delta_ELBO_mean   delta_ELBO_med   notes \n";
  }
  void on_evaluation(const ElboEvaluation& e) override {
    out_ << std::string(std::max(0, 6 - static_cast<int>(std::to_string(e.iteration).size())), ' ')
              << e.iteration << number("  %15.3f", e.elbo)
              << number("  %16.3f", e.mean_relative_change)
              << number("  %15.3f", e.median_relative_change)
              << (e.step_reduced       ? "   eta / 10 = " + number("%g", e.eta / 10)
                  : e.mean_converged   ? std::string("   MEAN ELBO CONVERGED")
                  : e.median_converged ? std::string("   MEDIAN ELBO CONVERGED")
                                       : std::string())
              << "\n";
  }

 private:
  std::ostream& out_;
  bool first_trial_ = true;
};

// The trace printer and a hook's observer, in that order.
class AdviObservers : public AdviObserver {
 public:
  explicit AdviObservers(std::vector<AdviObserver*> observers) {
    for (AdviObserver* observer : observers) {
      if (observer) observers_.push_back(observer);
    }
  }
  bool empty() const { return observers_.empty(); }
  void on_eta_trial(const EtaTrial& trial) override {
    for (auto* o : observers_) o->on_eta_trial(trial);
  }
  void on_eta_chosen(double eta, bool adapted) override {
    for (auto* o : observers_) o->on_eta_chosen(eta, adapted);
  }
  void on_iterations(const ElboIterations& batch) override {
    for (auto* o : observers_) o->on_iterations(batch);
  }
  void on_evaluation(const ElboEvaluation& evaluation) override {
    for (auto* o : observers_) o->on_evaluation(evaluation);
  }

 private:
  std::vector<AdviObserver*> observers_;
};

void write_summary(const std::string& path, const std::vector<io::SummaryRow>& rows,
                   const AdviOptions& options, const AdviResult& result, int64_t draws,
                   const std::string& backend, int ranks, double k_hat, const std::string& start,
                   const ElboTrend& trend) {
  auto document = io::summary_document(rows, std::nullopt, backend, ranks);
  const auto finite = [](double x) -> nlohmann::ordered_json {
    return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
  };
  document["variational"] = {{"method", to_string(options.method())},
                             {"status", to_string(result.status)},
                             {"iterations", result.iterations},
                             {"elbo", finite(result.elbo)},
                             {"eta", finite(result.eta)},
                             {"eta_adapted", result.eta_adapted},
                             {"start", start},
                             {"draws", draws},
                             {"gradient_evaluations", result.gradient_evaluations},
                             {"seconds_adaptation", result.seconds_adaptation},
                             {"seconds_optimization", result.seconds_optimization},
                             {"pareto_k", nlohmann::ordered_json::parse(k_hat_json(k_hat))},
                             {"pareto_k_ok", k_hat <= diagnostics::kPsisKHatThreshold},
                             {"elbo_still_improving", trend.still_improving},
                             {"elbo_rise", trend.rise},
                             {"elbo_rise_se", trend.standard_error}};
  write_summary_file(path, document);
}

int fit_on(const FitOptions& options, const ModelSource& source, DistributedRun* run, RemoteInference* remote,
           const RunHooks& hooks);

int run_fit(const FitOptions& options, const ModelSource& source, RemoteInference* remote, const RunHooks& hooks) {
  std::ostream& err = *hooks.err;
  std::unique_ptr<DistributedRun> run;  // with several processes on this host
  if (!start_run(options.remote, options.distributed, remote, hooks, run)) return 1;
  try {
    if (options.remote.worker && !options.remote.job) {  // the job starts before the model is bound here
      FitOptions submitted = options;
      submitted.seed = options.seed ? *options.seed : std::random_device{}();
      submitted.remote.job = remote->submit(
          options.remote, make_submission("fit", source, options.data, options.forwarded, *submitted.seed), err);
      return fit_on(submitted, source, nullptr, remote, hooks);
    }
    return fit_on(options, source, run.get(), remote, hooks);
  } catch (const distributed::DistributedError& e) {
    err << "error: " << DistributedRun::failure(e, run.get()) << "\n";
    return 1;
  } catch (const RemoteError& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

// The fit, on this process's part of `run` (null: the only process, or a worker's run).
int fit_on(const FitOptions& options, const ModelSource& source, DistributedRun* run, RemoteInference* remote,
           const RunHooks& hooks) {
  const bool on_worker = options.remote.worker.has_value();
  const bool root = !run || run->root();  // rank 0 alone prints and writes
  static std::ostream discard(nullptr);
  std::ostream& out = *hooks.out;
  std::ostream& errors = root ? *hooks.err : discard;
  const std::optional<BoundModel> model =
      on_worker ? source.bind_here(options.data, errors)
      : run     ? source.bind_distributed(options.data, errors, *run)
                : source.bind(options.data, errors);
  if (!model) {
    if (run) run->abort();
    if (on_worker) remote->cancel(options.remote);
    return 1;
  }
  // ADVI evaluates batches of points (the ELBO's Monte Carlo draws).
  const UnconstrainedTarget& target = model->batch_target;
  if (root && !on_worker) {
    // The output draws, unconstrained and as rows of columns, and the summary's copy: before
    // the fit starts, not after it.
    const double row_bytes = 8.0 * static_cast<double>(target.dimension() + model->columns.size()) + 40;
    try {
      check_memory(3.0 * options.output_draws * row_bytes,
                   std::to_string(options.output_draws) + " output draws of " + std::to_string(target.dimension()) +
                       " parameters",
                   "ask for fewer with --output-draws");
    } catch (const ArgumentError& e) {
      if (run) run->abort();
      errors << "error: " << e.what() << "\n";
      return 1;
    }
  }
  if (!on_worker && !model->backend_note.empty()) errors << "note: the density runs on LibTorch: " << model->backend_note << "\n";
  const uint64_t seed = run ? run->agree_on_seed(options.seed) : options.seed ? *options.seed : std::random_device{}();
  std::optional<IntraOpThreads> threads;
  if (run) {
    threads.emplace(run->threads(0));
    if (root) errors << "running on " << run->describe() << ", " << run->threads(0) << " thread(s) each\n";
  }
  try {
    AdviOptions advi_options = AdviOptions()
                                   .method(advi_method_from_string(options.method))
                                   .seed(seed)
                                   .iter(options.iter)
                                   .tol_rel_obj(options.tol_rel_obj)
                                   .adapt_iter(options.adapt_iter)
                                   .grad_samples(options.grad_samples)
                                   .elbo_samples(options.elbo_samples)
                                   .eval_elbo(options.eval_elbo);
    if (options.eta) advi_options.eta(*options.eta).adapt_engaged(false);
    TracePrinter printer(errors);
    AdviObservers observers({options.quiet || !root ? nullptr : &printer, hooks.advi_observer});
    RunFacts facts{target.backend(), run ? run->size() : 1, seed, source.device()};
    AdviFit fit;
    if (on_worker) {
      fit = remote->fit(options.remote, errors, target, observers.empty() ? nullptr : &observers, facts);
    } else {
      if (hooks.started) hooks.started(facts);
      AdviObserver* observer = observers.empty() ? nullptr : &observers;
      Lockstep* lockstep = run ? &run->lockstep() : nullptr;
      if (options.precondition == "pathfinder") {
        std::string fallback;
        fit = preconditioned_advi(target, advi_options, observer, hooks.stop, lockstep, &fallback);
        if (!fallback.empty()) errors << "note: " << fallback << "\n";
      } else {
        fit = advi(target, advi_options, observer, hooks.stop, lockstep);
      }
      if (hooks.fitted) hooks.fitted(fit);
      if (!hooks.writes_outputs) return fit.result.status == AdviStatus::adaptation_failed ||
                                        fit.result.status == AdviStatus::diverged ? 1 : 0;
    }
    const AdviResult& result = fit.result;
    if (result.status == AdviStatus::adaptation_failed) {
      errors << "error: every step size tried (eta = 100, 10, 1, 0.1, 0.01) made the ELBO "
                "worse than at the start; give one with --eta or check the model\n";
      return 1;
    }
    if (result.status == AdviStatus::diverged) {
      errors << "error: the ELBO diverged at iteration " << result.iterations
             << " (eta = " << result.eta << "); try a smaller --eta\n";
      return 1;
    }

    // Output draws have their own stream, apart from the optimization's.
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(
        RandomStream::for_chain(seed, 1).next());
    const ApproximationDraws draws =
        sample_approximation(target, *fit.family, options.output_draws, generator);
    const DrawColumns& columns = model->columns;
    const auto to_rows = tensor_rows;
    if (run) {
      if (const std::string failure = run->finish(); !failure.empty()) {
        throw distributed::DistributedError(failure + " after the run");
      }
    }
    if (!root) return 0;
    const auto rows = columns.rows(to_rows(draws.unconstrained));
    const auto mean_row = columns.rows(to_rows(draws.mean.unsqueeze(0))).front();

    if (options.output) {
      std::filesystem::create_directories(*options.output);
      io::VariationalCsvInfo info;
      info.run.model = source.name();
      info.run.data_file = options.data_name.value_or(options.data.value_or(""));
      info.run.seed = seed;
      info.run.variate_version = variate::version();
      info.algorithm = to_string(advi_options.method());
      info.iter = options.iter;
      info.grad_samples = options.grad_samples;
      info.elbo_samples = options.elbo_samples;
      info.eta = options.eta.value_or(1.0);
      info.adapt_engaged = !options.eta;
      info.adapt_iter = options.adapt_iter;
      info.tol_rel_obj = options.tol_rel_obj;
      info.eval_elbo = options.eval_elbo;
      info.output_samples = options.output_draws;
      io::VariationalCsvWriter writer(
          (std::filesystem::path(*options.output) / "variational.csv").string(), info,
          columns.names(NameStyle::StanCsv));
      if (result.eta_adapted) writer.write_eta(result.eta);
      writer.write_mean(mean_row);
      for (size_t i = 0; i < rows.size(); ++i) {
        writer.write_draw(draws.log_p[i].item<double>(), draws.log_g[i].item<double>(), rows[i]);
      }
      writer.finish();
    }

    const auto summary = summarize_draws(rows, columns.names(NameStyle::Bracketed));
    out << "Inference for " << source.name() << ": ADVI (" << options.method << "), "
              << options.output_draws << " draws from the approximation; seed " << seed << "\n"
              << "eta = " << result.eta << (result.eta_adapted ? " (adapted)" : "") << "; "
              << to_string(result.status) << " after " << result.iterations
              << " iterations; ELBO " << number("%.6g", result.elbo) << "\n"
              << (fit.start == "pathfinder" ? "Started from single-path Pathfinder's estimate of the posterior, "
                                              "optimized in coordinates whitened by its covariance.\n\n"
                  : fit.start == "laplace"
                      ? "Started from the Laplace approximation where Pathfinder's L-BFGS ended (its ELBO beat "
                        "Pathfinder's estimate), optimized in coordinates whitened by its covariance.\n\n"
                      : "Started at random (uniform(-2, 2) unconstrained), as Stan's ADVI.\n\n")
              << format_table(summary)
              << "\nDraws are independent draws from the approximation: R-hat and ESS do not "
                 "apply.\n";
    const double k_hat = importance_k_hat(draws.log_p, draws.log_g);
    print_k_hat(out, k_hat, "A converged ELBO does not vouch for them. Try --method fullrank, or sample with NUTS.");
    const ElboTrend trend = elbo_trend(result.trace);
    if (trend.still_improving) {
      out << "Warning: the ELBO was still rising when the run stopped: by " << number("%.3g", trend.rise)
          << " over its last " << trend.evaluations << " evaluations, " << number("%.1f", trend.rise / trend.standard_error)
          << " times the noise of that rise. The fit may be short of its optimum: give it more iterations (--iter) or "
             "a smaller --tol-rel-obj.\n";
    }
    if (result.status == AdviStatus::max_iterations) {
      out << "Warning: the maximum number of iterations (" << options.iter
                << ") was reached before the ELBO converged.\n";
    }
    if (options.summary_json) {
      write_summary(*options.summary_json, summary, advi_options, result, options.output_draws,
                    facts.backend, facts.ranks, k_hat, fit.start, trend);
    }
    return 0;
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_fit_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source,
                     std::shared_ptr<RemoteInference> remote, RunHooks hooks) {
  auto o = std::make_shared<FitOptions>();
  auto deep = std::make_shared<DeepFitOptions>();
  CLI::App* command = app.add_subcommand(
      "fit", "Fit a variational approximation with ADVI, or train a model with networks and guides (a VAE)");
  source->add_arguments(*command, ModelCommand::fit);
  command->add_option("--data", o->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--method", o->method, "meanfield or fullrank")->capture_default_str()->check(CLI::IsMember({"meanfield", "fullrank"}));
  command->add_option("--seed", o->seed, "Random seed (default: drawn at random and printed)");
  command->add_option("--output", o->output, "Write variational.csv (CmdStan's layout) into this folder");
  command->add_option("--summary-json", o->summary_json, "Write the summary as JSON");
  command->add_option("--iter", o->iter, "Maximum number of iterations")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--tol-rel-obj", o->tol_rel_obj, "Relative ELBO change that counts as converged")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--eta", o->eta, "Step size (default: adapted from 100, 10, 1, 0.1, 0.01)")->check(CLI::PositiveNumber);
  command->add_option("--adapt-iter", o->adapt_iter, "Iterations per step size tried")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--grad-samples", o->grad_samples, "Monte Carlo draws per gradient")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--elbo-samples", o->elbo_samples, "Monte Carlo draws per ELBO evaluation")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--eval-elbo", o->eval_elbo, "Evaluate the ELBO every this many iterations")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--output-draws", o->output_draws, "Draws from the approximation")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--precondition", o->precondition,
                      "pathfinder: start from single-path Pathfinder's estimate and optimize in coordinates whitened "
                      "by it; none: Stan's random start")
      ->capture_default_str()
      ->check(CLI::IsMember({"pathfinder", "none"}));
  command->add_flag("--quiet", o->quiet, "No ELBO trace");
  add_distributed_options(*command, o->distributed);
  if (source->model_file()) add_remote_options(*command, o->remote);  // a worker gets the model's text
  command->add_option("--data-name", o->data_name, "How the outputs name the data file (default: as given)")->group("");
  if (source->model_file()) add_deep_fit_options(*command, *deep);
  command->callback([o, deep, source, remote, hooks, command, &exit_code] {
    o->forwarded = forwarded_arguments(*command);
    if (source->model_file() && is_deep_model_file(*source->model_file())) {
      if (o->remote.worker || source->device() != "cpu") {
        *hooks.err << "error: a model with networks trains on this machine's CPU in this version (--worker and "
                      "--device run NUTS and ADVI)\n";
        exit_code = 1;
        return;
      }
      exit_code = run_deep_fit(*deep, {*source->model_file(), o->data, o->seed, o->summary_json, o->quiet, o->distributed},
                               hooks);
      return;
    }
    if (source->model_file() && deep_options_given(*command)) {
      *hooks.err << "error: --epochs, --batch-size, --test-data and the other options of deep models apply to "
                    "models with networks (mlp) and guides\n";
      exit_code = 1;
      return;
    }
    exit_code = run_fit(*o, *source, remote.get(), hooks);
  });
}

}  // namespace variate::cli
