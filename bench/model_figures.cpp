#include "model_figures.h"

#include <exception>
#include <optional>

#include <c10/util/Exception.h>

#include "engine/mcmc/hamiltonian.h"
#include "engine/tape/compiler/select_target.h"

#include "gradient_timing.h"
#include "nuts_runs.h"
#include "stan_models.h"

namespace variate::bench {
namespace {

std::string message(const std::exception& e) {
  const auto* torch_error = dynamic_cast<const c10::Error*>(&e);
  const std::string text = torch_error ? torch_error->what_without_backtrace() : e.what();
  return text.substr(0, text.find('\n'));
}

void time_gradients(const UnconstrainedTarget& torch, const UnconstrainedTarget* tape,
                    const ModelBenchOptions& options, ModelFigures& f) {
  const auto points = standard_normal_points(f.dimension, options.points, options.seed);
  const DensityFunction torch_density = make_density_function(torch);
  if (!tape) {
    f.torch_us = us_per_gradient({torch_density}, points, options.timing)[0];
    return;
  }
  const DensityFunction tape_density = make_density_function(*tape);
  f.max_difference = max_relative_difference(tape_density, torch_density, points);
  const auto us = us_per_gradient({tape_density, torch_density}, points, options.timing);
  f.tape_us = us[0];
  f.torch_us = us[1];
}

NutsFigures run_variate(const UnconstrainedTarget& target, const ModelBenchOptions& options) {
  return run_nuts(target, NutsOptions()
                              .chains(options.chains)
                              .warmup(options.warmup)
                              .draws(options.draws)
                              .seed(options.seed)
                              .threads(options.threads));
}

double chain_seconds(const NutsFigures& run) {
  double seconds = 0;
  for (const ChainResult& chain : run.chains) seconds += chain.seconds_warmup + chain.seconds_sampling;
  return seconds;
}

// The figures of the first run; the chain and CPU seconds are set by the caller.
void take_first_run(const model::CompiledModel& model, const NutsFigures& run, ModelFigures& f) {
  for (const ChainResult& chain : run.chains) {
    f.gradients += chain.gradient_evaluations;
    for (size_t i = static_cast<size_t>(chain.warmup_iterations); i < chain.stats.size(); ++i) {
      f.sampling_leapfrog += chain.stats[i].leapfrog_steps;
    }
  }
  f.leapfrog = run.leapfrog;
  f.divergent = run.divergent;
  // Bulk-ESS is rank-based: the unconstrained coordinates give the constrained values'
  // ESS wherever the transforms are element-wise and monotone.
  f.ess = min_bulk_ess(sampling_draws(run.chains), coordinate_names(model.layout()));
  for (const auto& name : not_rank_preserving(model.layout())) {
    f.notes.push_back("min bulk-ESS: '" + name + "' is measured on its unconstrained coordinates");
  }
}

// The sampler alone and `variate sample`, one after the other, options.runs times (the
// same seed: the same draws): the chain, CPU and wall seconds are medians.
void run_both(const BenchModel& bench_model, const model::CompiledModel& model, const UnconstrainedTarget& target,
              const ModelBenchOptions& options, ModelFigures& f) {
  std::vector<double> chain_s, cpu_s, cli_chain_s, cli_wall_s;
  for (int run = 0; run < options.runs; ++run) {
    const NutsFigures nuts = run_variate(target, options);
    if (run == 0) take_first_run(model, nuts, f);
    chain_s.push_back(chain_seconds(nuts));
    cpu_s.push_back(nuts.cpu_s);
    try {
      const CliFigures cli = run_variate_sample(bench_model, options);
      if (run == 0) f.cli = cli;
      cli_chain_s.push_back(cli.chain_s);
      cli_wall_s.push_back(cli.wall_s);
    } catch (const std::exception& e) {
      f.notes.push_back("variate sample: " + std::string(e.what()));
      break;
    }
  }
  f.chain_s = median_of(chain_s);
  f.cpu_s = median_of(cpu_s);
  f.cli.chain_s = median_of(cli_chain_s);
  f.cli.wall_s = median_of(cli_wall_s);
  if (!cli_chain_s.empty() && !f.cli_same_draws()) {
    f.notes.push_back("variate sample took " + std::to_string(f.cli.sampling_leapfrog) +
                      " leapfrog steps after warmup, the sampler alone " + std::to_string(f.sampling_leapfrog));
  }
}

void run_stan(const BenchModel& model, const ModelBenchOptions& options, ModelFigures& f) {
  if (model.stan_path.empty()) {
    f.notes.push_back("Stan: no program bench/stan/" + model.name + ".stan");
    return;
  }
  StanModelOptions stan;
  stan.chains = options.chains;
  stan.cores = options.threads;
  stan.warmup = options.warmup;
  stan.draws = options.draws;
  stan.seed = options.seed;
  stan.cache_dir = options.stan_cache;
  const StanModelRun run = run_stan_model(model.stan_path, model.data_path, stan);
  f.stan_compiled_fresh = run.compiled_fresh;
  f.stan_compile_s = run.compile_s;
  f.stan_s = run.seconds();
  f.stan_leapfrog = run.leapfrog;
  f.stan_divergent = run.divergent;
  f.stan_ess = min_bulk_ess(run.draws, run.names);
  if (static_cast<int64_t>(run.draws.size()) != f.dimension) {
    f.notes.push_back("Stan samples " + std::to_string(run.draws.size()) + " parameters, Variate " +
                      std::to_string(f.dimension));
  }
}

}  // namespace

double ModelFigures::gradient_us_per_leapfrog() const {
  const double us = nuts_backend == "tape" ? tape_us : torch_us;
  return leapfrog > 0 ? us * static_cast<double>(gradients) / static_cast<double>(leapfrog)
                      : kNotAvailable;
}

ModelFigures measure_model(const BenchModel& model, const ModelBenchOptions& options) {
  ModelFigures f;
  f.name = model.name;
  try {
    const model::CompiledModel compiled = compile_bench_model(model);
    f.dimension = compiled.layout().dimension();
    const UnconstrainedTarget torch = tape::select_target(compiled, tape::Backend::torch).target;
    std::optional<UnconstrainedTarget> tape;
    try {
      tape = tape::select_target(compiled, tape::Backend::tape).target;
    } catch (const std::exception& e) {
      f.notes.push_back("tape: " + message(e) + "; NUTS runs on LibTorch");
    }
    f.nuts_backend = tape ? "tape" : "torch";
    time_gradients(torch, tape ? &*tape : nullptr, options, f);
    run_both(model, compiled, tape ? *tape : torch, options, f);
  } catch (const std::exception& e) {
    f.notes.push_back("Variate: " + message(e));
  }
  if (!options.stan) return f;
  try {
    run_stan(model, options, f);
  } catch (const std::exception& e) {
    f.notes.push_back("Stan: " + std::string(e.what()));
  }
  return f;
}

}  // namespace variate::bench
