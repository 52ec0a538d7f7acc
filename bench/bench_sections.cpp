#include "bench_sections.h"

#include <cstdio>
#include <exception>
#include <thread>

#include "eight_schools.h"
#include "nuts_runs.h"

namespace variate::bench {
namespace {

std::string threads_cell(int chain_threads, int intra_op) {
  return std::to_string(chain_threads) + " x " + std::to_string(intra_op);
}

constexpr int kEightSchoolsChains = 4;
constexpr int kEightSchoolsWarmup = 1000;
constexpr int kEightSchoolsDraws = 1000;

}  // namespace

void print_nuts_section(const BenchOptions& options, const LogisticModels& models, const StanResult* stan,
                        Summary& summary) {
  std::printf("\nNUTS on the logistic regression: %d warmup + %d draws per chain, max tree depth %d, seed %llu, "
              "diagonal metric;\nms/leapfrog = the run's wall time over all leapfrog steps of all chains, "
              "warmup included; threads = chain threads x intra-op threads\n",
              options.nuts_warmup, options.nuts_draws, options.max_tree_depth,
              static_cast<unsigned long long>(options.seed));
  row("", {"ms/leapfrog", "leapfrogs", "wall s", "step size", "divergent", "threads"}, 44, 12);
  std::fflush(stdout);
  const NutsOptions base = NutsOptions()
                               .warmup(options.nuts_warmup)
                               .draws(options.nuts_draws)
                               .max_tree_depth(options.max_tree_depth)
                               .seed(options.seed);
  const std::string k = std::to_string(options.nuts_chains);
  struct Configuration {
    std::string label;
    const model::CompiledModel* model;
    NutsOptions nuts;
    double* figure;
  };
  const std::vector<Configuration> configurations = {
      {"(a) float64, 1 chain", models.float64, NutsOptions(base).chains(1), &summary.nuts_ms64},
      {"(a) float32, 1 chain", models.float32, NutsOptions(base).chains(1), &summary.nuts_ms32},
      {"(a) float64, " + k + " chains, a thread each", models.float64, NutsOptions(base).chains(options.nuts_chains),
       &summary.nuts_ms_chains},
      {"(a) float64, " + k + " chains, batched", models.float64,
       NutsOptions(base).chains(options.nuts_chains).batched_chains(true), &summary.nuts_ms_batched},
  };
  for (const auto& c : configurations) {
    const NutsFigures f = run_nuts(c.model->target(), c.nuts);
    *c.figure = f.ms_per_leapfrog;
    row(c.label, {number(f.ms_per_leapfrog), std::to_string(f.leapfrog), number(f.wall_s, 1), number(f.step_size, 4),
                  std::to_string(f.divergent), threads_cell(f.chain_threads, f.intra_op_threads)},
        44, 12);
    std::fflush(stdout);
  }
  if (stan) {
    const double wall = stan->nuts_warmup_s + stan->nuts_sampling_s;
    summary.stan_nuts_ms = stan->nuts_leapfrog_all > 0 ? 1000.0 * wall / static_cast<double>(stan->nuts_leapfrog_all)
                                                       : kNotAvailable;
    row("Stan 2.21, 1 chain (rstan)", {number(summary.stan_nuts_ms), std::to_string(stan->nuts_leapfrog_all),
                                       number(wall, 1), number(stan->nuts_step_size, 4),
                                       std::to_string(stan->nuts_divergent), "1 x 1"},
        44, 12);
  }
  std::printf("  1-chain float64 ms/leapfrog over (a)'s float64 ms per gradient: %s\n",
              ratio(summary.nuts_ms64, summary.gradient_ms64).c_str());
}

void print_eight_schools_section(const BenchOptions& options, bool stan, Summary& summary,
                                 std::vector<std::pair<std::string, std::string>>& notes) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::printf("\nEight schools (non-centered): %d chains x (%d warmup + %d draws), seed %llu; wall time of the "
              "whole run;\nmin bulk-ESS over mu, tau, theta_trans (Variate's diagnostics for both)\n",
              kEightSchoolsChains, kEightSchoolsWarmup, kEightSchoolsDraws,
              static_cast<unsigned long long>(options.seed));
  row("", {"wall s", "leapfrogs", "min ESS", "of", "ESS/s", "divergent", "threads"}, 40, 11);
  std::fflush(stdout);
  const NutsOptions base = NutsOptions()
                               .chains(kEightSchoolsChains)
                               .warmup(kEightSchoolsWarmup)
                               .draws(kEightSchoolsDraws)
                               .seed(options.seed);
  struct Mode {
    std::string label;
    at::ScalarType dtype;
    NutsOptions nuts;
  };
  const std::vector<Mode> modes = {
      {"Variate, a thread per chain", at::kDouble, base},
      {"Variate, batched chains", at::kDouble, NutsOptions(base).batched_chains(true)},
      {"Variate, a thread per chain, float32", at::kFloat, base},
  };
  const auto print = [](const std::string& label, const EssFigures& f, const std::string& threads) {
    row(label, {number(f.wall_s, 2), std::to_string(f.leapfrog), number(f.min_bulk_ess, 0), f.worst,
                number(f.ess_per_second(), 0), std::to_string(f.divergent), threads},
        40, 11);
    std::fflush(stdout);
  };
  for (const auto& mode : modes) {
    const EssFigures f = eight_schools_variate(compile_eight_schools(mode.dtype), mode.nuts);
    summary.ess_per_second.push_back({mode.label, f.ess_per_second()});
    print(mode.label, f, threads_cell(f.chain_threads, f.intra_op_threads));
  }
  if (!stan) return;
  try {
    const StanEightSchools s = run_stan_eight_schools(kEightSchoolsChains, cores, kEightSchoolsWarmup,
                                                      kEightSchoolsDraws, options.seed, options.stan_cache);
    EssFigures f;
    f.wall_s = s.wall_s;
    f.leapfrog = s.leapfrog;
    f.divergent = s.divergent;
    set_min_bulk_ess(f, s.draws, eight_schools_parameter_names());
    summary.stan_ess_per_second = f.ess_per_second();
    print("Stan 2.21 (rstan, " + std::to_string(cores) + " processes)", f, std::to_string(cores) + " x 1");
    std::printf("  Stan model %s %.1f s (not in the wall time)\n", s.compiled_fresh ? "compile" : "load from cache",
                s.compile_s);
  } catch (const std::exception& e) {
    notes.push_back({"Stan eight schools", e.what()});
  }
}

void print_summary(const Summary& s) {
  std::printf("\nSummary: Variate against Stan 2.21, measured above in this run\n");
  row("", {"Variate", "Stan", "ratio", "target"}, 52, 11);
  row("ms per gradient, float64 (fused kernel)",
      {number(s.gradient_ms64), number(s.stan_gradient_ms), ratio(s.gradient_ms64, s.stan_gradient_ms), "<= 0.40x"}, 52, 11);
  row("ms per gradient, float32 (fused kernel)",
      {number(s.gradient_ms32), number(s.stan_gradient_ms), ratio(s.gradient_ms32, s.stan_gradient_ms), "<= 0.20x"}, 52, 11);
  row("NUTS ms per leapfrog, float64, 1 chain",
      {number(s.nuts_ms64), number(s.stan_nuts_ms), ratio(s.nuts_ms64, s.stan_nuts_ms), "<= 13 ms"}, 52, 11);
  row("NUTS ms per leapfrog, float32, 1 chain",
      {number(s.nuts_ms32), number(s.stan_nuts_ms), ratio(s.nuts_ms32, s.stan_nuts_ms), ""}, 52, 11);
  row("NUTS ms per leapfrog, float64, chains on threads",
      {number(s.nuts_ms_chains), number(s.stan_nuts_ms), ratio(s.nuts_ms_chains, s.stan_nuts_ms), ""}, 52, 11);
  row("NUTS ms per leapfrog, float64, batched chains",
      {number(s.nuts_ms_batched), number(s.stan_nuts_ms), ratio(s.nuts_ms_batched, s.stan_nuts_ms), ""}, 52, 11);
  for (const auto& [label, ess] : s.ess_per_second) {
    row("eight schools bulk-ESS/s: " + label.substr(label.find(',') + 2),
        {number(ess, 0), number(s.stan_ess_per_second, 0), ratio(ess, s.stan_ess_per_second), ">= 1x"}, 52, 11);
  }
  std::printf("  (time ratios: below 1x, Variate is faster; ESS/s ratios: above 1x, Variate is faster)\n");
}

}  // namespace variate::bench
