#include "engine/services/fit.h"

#include <memory>
#include <optional>
#include <random>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/memory.h"
#include "engine/core/random_stream.h"
#include "engine/core/threading.h"
#include "engine/diagnostics/psis.h"
#include "engine/distributed/distributed_error.h"
#include "engine/pathfinder/preconditioned_advi.h"
#include "engine/services/approximation_draws.h"
#include "engine/services/approximation_record.h"
#include "engine/services/bound_run.h"
#include "engine/services/run_record.h"
#include "engine/services/elbo_recorder.h"
#include "engine/services/setting_table.h"
#include "engine/vi/variational_draws.h"

namespace variate::services {
namespace {

void check_spec(const RunSpec& spec) {
  const Settings& s = spec.settings;
  if (!s.get(setting::worker)) return;
  if (!s.get(setting::token_file)) throw ArgumentError("--worker needs --token-file");
  if (!spec.remote) throw ArgumentError("this program was built without remote workers (gRPC was not found)");
  if (!spec.model->text()) throw ArgumentError("a model written in C++ runs here only (a worker needs its text)");
}

// The output draws, unconstrained and as rows of columns, and the summary's copy: refused
// before the fit starts, not after it.
void check_memory_of(const Settings& settings, const BoundModel& model) {
  const int draws = settings.get(setting::output_draws);
  const double row_bytes = 8.0 * static_cast<double>(model.batch_target.dimension() + model.columns.size()) + 40;
  check_memory(3.0 * draws * row_bytes,
               std::to_string(draws) + " output draws of " + std::to_string(model.batch_target.dimension()) +
                   " parameters",
               "ask for fewer with --output-draws");
}

// The fit, on this process or by a worker.
AdviFit fit_here(const RunSpec& spec, BoundRun& bound, ElboRecorder& recorder, const RunObservers& observers,
                 FitResult& result) {
  const AdviOptions options = advi_options(spec.settings, bound.seed);
  std::optional<IntraOpThreads> threads;
  if (bound.ranks) threads.emplace(bound.ranks->threads(0));
  AdviObserver* observer = bound.root ? &recorder : nullptr;
  Lockstep* lockstep = bound.ranks ? &bound.ranks->lockstep() : nullptr;
  if (spec.settings.get(setting::precondition) == "pathfinder") {
    return preconditioned_advi(bound.model->batch_target, options, observer, observers.stop_flag(), lockstep,
                               &result.fallback);
  }
  return advi(bound.model->batch_target, options, observer, observers.stop_flag(), lockstep);
}

AdviFit fit_on_worker(const RunSpec& spec, const BoundModel& model, ElboRecorder& recorder,
                      const RunObservers& observers, FitResult& result) {
  const Settings& s = spec.settings;
  const WorkerAddress worker{*s.get(setting::worker), *s.get(setting::token_file), s.get(setting::tls_ca),
                             s.get(setting::heartbeat_timeout)};
  std::string job = spec.job ? spec.job->id : "";
  if (job.empty()) {
    Settings submitted = s;  // the seed drawn here, so that a reattach writes the same
    submitted.set(setting::seed, std::optional<uint64_t>(result.facts.seed));
    job = spec.remote->submit(worker, {Method::advi, spec.model->name(), *spec.model->text(), spec.data,
                                       submitted.arguments(Method::advi, kAcceptedByWorker), {}});
    observers.tell("job " + job + " on " + worker.address + " (reattach: " + spec.remote->reattach_hint(worker, job) +
                   ")");
  }
  result.job = job;
  JobEvents events;
  events.started = [&](const RunFacts& facts) { result.facts = facts; };
  events.elbo = &recorder;
  events.layout = &model.batch_target.layout();
  JobEnd end = spec.remote->follow(worker, job, events, observers);
  if (end.state == JobEnd::State::detached) {
    throw RemoteError("detached from job " + job + "; it goes on: " + spec.remote->reattach_hint(worker, job));
  }
  if (cancelled_elsewhere(end, observers)) {
    throw RemoteError("job " + job + " on " + worker.address + ": " +
                      (end.message.empty() ? std::string("cancelled on the worker") : end.message));
  }
  if (!end.fit) {
    throw RemoteError("job " + job + " on " + worker.address + ": " +
                      (end.message.empty() ? std::string("it ended without a fit") : end.message));
  }
  return std::move(*end.fit);
}

// The fit's record in the summary document.
nlohmann::ordered_json fit_json(const Settings& settings, const FitResult& r) {
  const AdviResult& fit = r.fit.result;
  return {{"method", settings.get(setting::family)},
          {"status", to_string(fit.status)},
          {"iterations", fit.iterations},
          {"elbo", finite_json(fit.elbo)},
          {"eta", finite_json(fit.eta)},
          {"eta_adapted", fit.eta_adapted},
          {"start", r.fit.start},
          {"converged_at", r.converged_at},
          {"draws", settings.get(setting::output_draws)},
          {"gradient_evaluations", fit.gradient_evaluations},
          {"seconds_adaptation", fit.seconds_adaptation},
          {"seconds_optimization", fit.seconds_optimization},
          {"pareto_k", k_hat_json(r.k_hat)},
          {"pareto_k_ok", r.k_hat <= diagnostics::kPsisKHatThreshold},
          {"elbo_still_improving", r.trend.still_improving},
          {"elbo_rise", r.trend.rise},
          {"elbo_rise_se", r.trend.standard_error}};
}

// Draws from the fit (a stream of their own, apart from the optimization's) with their log
// densities: on every rank, whose density is theirs together.
ApproximationDraws draws_from_fit(const RunSpec& spec, const BoundModel& model, const FitResult& r) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(r.facts.seed, 1).next());
  return sample_approximation(model.batch_target, *r.fit.family, spec.settings.get(setting::output_draws), generator);
}

// The draws' rows, summary and k-hat.
void describe_draws(const RunSpec& spec, const BoundModel& model, const ApproximationDraws& draws, FitResult& r) {
  r.rows = model.columns.rows(tensor_rows(draws.unconstrained));
  r.mean_position = tensor_rows(draws.mean.unsqueeze(0)).front();
  r.mean_row = model.columns.rows({r.mean_position}).front();
  const at::Tensor p = draws.log_p.to(at::kDouble).contiguous(), q = draws.log_g.to(at::kDouble).contiguous();
  r.log_p.assign(p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
  r.log_q.assign(q.data_ptr<double>(), q.data_ptr<double>() + q.numel());
  r.names = model.columns.names(NameStyle::StanCsv);
  r.summary = summarize_draws(r.rows, model.columns.names(NameStyle::Bracketed));
  r.k_hat = importance_k_hat(draws.log_p, draws.log_g);
  r.trend = elbo_trend(r.fit.result.trace);
  r.document = io::summary_document(r.summary, std::nullopt, r.facts.backend, r.facts.ranks);
  r.document["variational"] = fit_json(spec.settings, r);
}

bool fit_failed(const AdviResult& fit) {
  return fit.status == AdviStatus::adaptation_failed || fit.status == AdviStatus::diverged;
}

// A fit that failed says why and what to try.
void check_fit(const AdviResult& fit) {
  if (fit.status == AdviStatus::adaptation_failed) {
    throw ArgumentError("every step size tried (eta = 100, 10, 1, 0.1, 0.01) made the ELBO worse than at the start; "
                        "give one with --eta or check the model");
  }
  if (fit.status == AdviStatus::diverged) {
    throw ArgumentError("the ELBO diverged at iteration " + std::to_string(fit.iterations) +
                        " (eta = " + std::to_string(fit.eta) + "); try a smaller --eta");
  }
}

}  // namespace

AdviOptions advi_options(const Settings& settings, uint64_t seed) {
  AdviOptions options = AdviOptions()
                            .method(advi_method_from_string(settings.get(setting::family)))
                            .seed(seed)
                            .iter(settings.get(setting::advi_iter))
                            .tol_rel_obj(settings.get(setting::advi_tol_rel_obj))
                            .adapt_iter(settings.get(setting::adapt_iter))
                            .grad_samples(settings.get(setting::grad_samples))
                            .elbo_samples(settings.get(setting::elbo_samples))
                            .eval_elbo(settings.get(setting::eval_elbo));
  if (const auto eta = settings.get(setting::eta)) options.eta(*eta).adapt_engaged(false);
  return options;
}

FitResult run_fit(const RunSpec& spec, const RunObservers& observers) {
  check_spec(spec);
  if (spec.record.project) check_data_fits_project(spec.data);
  const bool on_worker = spec.settings.get(setting::worker).has_value();
  FitResult result;
  BoundRun bound;
  RankFiles files;
  std::unique_ptr<ApproximationRecord> record;
  try {
    if (on_worker) {
      bound.model = bind_for_worker(spec);
      bound.seed = spec.settings.get(setting::seed).value_or(std::random_device{}());
    } else {
      bind_run(spec, files, observers, bound);
    }
    const BoundModel& model = *bound.model;
    require_parameters(model, "ADVI");
    result.root = bound.root;
    result.facts = {model.batch_target.backend(), bound.size(), bound.seed, spec.settings.get(setting::device),
                    model.backend_note};
    if (bound.root) {
      check_memory_of(spec.settings, model);
      if (!on_worker && !model.backend_note.empty()) observers.tell_note("the density runs on LibTorch: " + model.backend_note);
      if (bound.ranks) observers.tell("running on " + bound.ranks->describe() + ", " +
                                      std::to_string(bound.ranks->threads(0)) + " thread(s) each");
      record = std::make_unique<ApproximationRecord>(spec, model, result.facts, observers);
      result.run_id = record->run_id();
    }
    ElboRecorder recorder(record ? record->project() : nullptr, result.run_id,
                          spec.settings.get(setting::eval_elbo), observers);
    result.fit = on_worker ? fit_on_worker(spec, model, recorder, observers, result)
                           : fit_here(spec, bound, recorder, observers, result);
    std::optional<ApproximationDraws> draws;
    if (!fit_failed(result.fit.result)) draws = draws_from_fit(spec, model, result);
    if (bound.ranks) bound.ranks->finish();
    if (!bound.root) return result;
    recorder.commit(true);
    result.converged_at = recorder.converged_at();
    if (!result.fallback.empty()) observers.tell_note(result.fallback);
    check_fit(result.fit.result);
    describe_draws(spec, model, *draws, result);
    result.stopped = result.fit.result.status == AdviStatus::stopped;
    record->draws(result.rows, at::tensor(result.log_p, at::kDouble), at::tensor(result.log_q, at::kDouble),
                  result.mean_position, result.stopped);
    record->finish(result.stopped ? store::RunStatus::stopped : store::RunStatus::finished, "", result.document);
    return result;
  } catch (const distributed::DistributedError& e) {
    const std::string message = DistributedRun::failure(e, bound.ranks.get());
    if (record) record->fail(message);
    throw distributed::DistributedError(message);
  } catch (const std::exception& e) {
    if (bound.ranks) bound.ranks->abort();
    if (record) record->fail(e.what());
    throw;
  }
}

std::string start_note(const std::string& start) {
  if (start == "pathfinder") {
    return "Started from single-path Pathfinder's estimate of the posterior, optimized in coordinates whitened by "
           "its covariance.";
  }
  if (start == "laplace") {
    return "Started from the Laplace approximation where Pathfinder's L-BFGS ended (its ELBO beat Pathfinder's "
           "estimate), optimized in coordinates whitened by its covariance.";
  }
  return "Started at random (uniform(-2, 2) unconstrained), as Stan's ADVI.";
}

}  // namespace variate::services
