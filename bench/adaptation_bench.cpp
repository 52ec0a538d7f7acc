// variate-bench-adaptation: effective samples per gradient of NUTS under each warmup
// adaptation (Stan's windowed one; the Fisher one from draws and gradients, with a diagonal
// and with a low-rank metric), on every reference posterior and project, against Stan 2.21
// (rstan) at its defaults. See bench/README.md.
//
// A run's figure is its min bulk-ESS over the unconstrained coordinates divided by all its
// gradient evaluations, warmup and step-size searches included (Stan's: its leapfrog steps,
// warmup included). Each side runs with --seeds seeds; the median is reported.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/tape/compiler/select_target.h"

#include "bench_models.h"
#include "bulk_ess.h"
#include "nuts_runs.h"
#include "report.h"
#include "stan_models.h"
#include "timing.h"

namespace variate::bench {
namespace {

struct Options {
  std::vector<std::string> models;
  int chains = 4;
  int warmup = 1000;
  int fisher_warmup = 0;  // 0: warmup
  int draws = 1000;
  int seeds = 3;
  int threads = 2;
  bool skip_stan = false;
  std::string stan_cache;
};

struct Side {
  std::vector<double> ess_per_gradient;  // one per seed
  std::vector<double> gradients;
  std::vector<double> divergent;
  std::vector<double> warmup;  // mean warmup iterations of the chains
  double median_ess_per_gradient() const { return median_of(ess_per_gradient); }
};

// Each of Variate's sides: how it adapts, which metric.
struct Way {
  Adaptation adaptation;
  MetricKind metric;
};
constexpr Way kStanAdaptation{Adaptation::stan, MetricKind::diagonal};
constexpr Way kFisher{Adaptation::fisher, MetricKind::diagonal};
constexpr Way kLowRank{Adaptation::fisher, MetricKind::low_rank};

Side run_variate(const UnconstrainedTarget& target, const std::vector<std::string>& names, Way way,
                 const Options& options) {
  Side side;
  for (int seed = 1; seed <= options.seeds; ++seed) {
    const NutsFigures run = run_nuts(
        target, NutsOptions()
                    .chains(options.chains)
                    .warmup(way.adaptation == Adaptation::fisher && options.fisher_warmup > 0 ? options.fisher_warmup
                                                                                              : options.warmup)
                    .draws(options.draws)
                    .seed(static_cast<uint64_t>(seed))
                    .threads(options.threads)
                    .adaptation(way.adaptation)
                    .metric(way.metric));
    long gradients = 0;
    for (const ChainResult& chain : run.chains) gradients += chain.gradient_evaluations;
    const double ess = min_bulk_ess(sampling_draws(run.chains), names).ess;
    side.ess_per_gradient.push_back(ess / static_cast<double>(gradients));
    side.gradients.push_back(static_cast<double>(gradients));
    side.divergent.push_back(static_cast<double>(run.divergent));
    double warmup = 0;
    for (const ChainResult& chain : run.chains) warmup += chain.warmup_iterations;
    side.warmup.push_back(warmup / static_cast<double>(run.chains.size()));
  }
  return side;
}

Side run_stan(const BenchModel& model, const Options& options) {
  Side side;
  for (int seed = 1; seed <= options.seeds; ++seed) {
    StanModelOptions stan;
    stan.chains = options.chains;
    stan.cores = options.threads;
    stan.warmup = options.warmup;
    stan.draws = options.draws;
    stan.seed = static_cast<uint64_t>(seed);
    stan.cache_dir = options.stan_cache;
    const StanModelRun run = run_stan_model(model.stan_path, model.data_path, stan);
    const double ess = min_bulk_ess(run.draws, run.names).ess;
    side.ess_per_gradient.push_back(ess / static_cast<double>(run.leapfrog));
    side.gradients.push_back(static_cast<double>(run.leapfrog));
    side.divergent.push_back(static_cast<double>(run.divergent));
  }
  return side;
}

std::string ratio(double a, double b) { return b > 0 && a == a && b == b ? number(a / b) : "-"; }

void print_spread(const char* what, const std::vector<double>& ratios) {
  if (ratios.empty()) return;
  std::printf("%-26s median %s, min %s\n", what, number(median_of(ratios)).c_str(),
              number(*std::min_element(ratios.begin(), ratios.end())).c_str());
}

int run(const Options& options) {
  std::vector<BenchModel> models = find_bench_models();
  if (!options.models.empty()) {
    const std::set<std::string> wanted(options.models.begin(), options.models.end());
    models.erase(
        std::remove_if(models.begin(), models.end(), [&](const BenchModel& m) { return !wanted.count(m.name); }),
        models.end());
  }
  std::printf(
      "Effective samples per gradient: min bulk-ESS / gradient evaluations (warmup included),\n"
      "%d chains x (%d warmup + %d draws), median of %d seeds\n\n",
      options.chains, options.warmup, options.draws, options.seeds);
  std::printf("%-36s %9s %9s %9s %9s %8s %8s %8s %9s %9s %9s %6s %6s %6s %7s %7s\n", "model", "stan-ad.", "fisher",
              "lowrank", "Stan 2.21", "fisher/", "lowrank/", "lowrank/", "grads", "grads", "grads", "div", "div", "div",
              "warmup", "warmup");
  std::printf("%-36s %9s %9s %9s %9s %8s %8s %8s %9s %9s %9s %6s %6s %6s %7s %7s\n", "", "ESS/grad", "ESS/grad",
              "ESS/grad", "ESS/grad", "Stan", "Stan", "fisher", "stan-ad.", "fisher", "lowrank", "stan-ad.", "fisher",
              "lowrank", "fisher", "lowrank");
  std::vector<double> fisher_windowed, low_rank_windowed, fisher_stan, low_rank_stan;
  for (const BenchModel& model : models) {
    try {
      const model::CompiledModel compiled = compile_bench_model(model);
      const UnconstrainedTarget target = tape::select_target(compiled, tape::Backend::automatic).target;
      const std::vector<std::string> names = coordinate_names(compiled.layout());
      const Side windowed = run_variate(target, names, kStanAdaptation, options);
      const Side fisher = run_variate(target, names, kFisher, options);
      const Side low_rank = run_variate(target, names, kLowRank, options);
      Side stan;
      if (!options.skip_stan && !model.stan_path.empty()) stan = run_stan(model, options);
      const double w = windowed.median_ess_per_gradient();
      const double f = fisher.median_ess_per_gradient();
      const double l = low_rank.median_ess_per_gradient();
      const double s = stan.ess_per_gradient.empty() ? kNotAvailable : stan.median_ess_per_gradient();
      fisher_windowed.push_back(f / w);
      low_rank_windowed.push_back(l / w);
      if (s == s) {
        fisher_stan.push_back(f / s);
        low_rank_stan.push_back(l / s);
      }
      std::printf("%-36s %9.4f %9.4f %9.4f %9s %8s %8s %8s %9.0f %9.0f %9.0f %6.0f %6.0f %6.0f %7.0f %7.0f\n",
                  model.name.c_str(), w, f, l, s == s ? number(s, 4).c_str() : "-", ratio(f, s).c_str(),
                  ratio(l, s).c_str(), ratio(l, f).c_str(), median_of(windowed.gradients), median_of(fisher.gradients),
                  median_of(low_rank.gradients), median_of(windowed.divergent), median_of(fisher.divergent),
                  median_of(low_rank.divergent), median_of(fisher.warmup), median_of(low_rank.warmup));
    } catch (const std::exception& e) {
      std::printf("%-36s %s\n", model.name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  std::printf("\n");
  print_spread("fisher / stan-adaptation:", fisher_windowed);
  print_spread("lowrank / stan-adaptation:", low_rank_windowed);
  print_spread("fisher / Stan 2.21:", fisher_stan);
  print_spread("lowrank / Stan 2.21:", low_rank_stan);
  return 0;
}

}  // namespace
}  // namespace variate::bench

int main(int argc, char** argv) {
  variate::bench::Options options;
  CLI::App app{"Effective samples per gradient of NUTS under each warmup adaptation, against Stan 2.21.",
               "variate-bench-adaptation"};
  app.add_option("--models", options.models, "models to run, by folder name (default: all)");
  app.add_flag("--skip-stan", options.skip_stan, "do not run Stan");
  app.add_option("--chains", options.chains, "NUTS chains")->check(CLI::PositiveNumber);
  app.add_option("--warmup", options.warmup, "warmup iterations per chain")->check(CLI::NonNegativeNumber);
  app.add_option("--fisher-warmup", options.fisher_warmup,
                 "warmup iterations of the Fisher adaptation (default: --warmup)");
  app.add_option("--draws", options.draws, "draws per chain after warmup")->check(CLI::Range(4, 1 << 30));
  app.add_option("--seeds", options.seeds, "seeds per side (the median is reported)")->check(CLI::PositiveNumber);
  app.add_option("--threads", options.threads, "chain threads for Variate and rstan's cores")
      ->check(CLI::PositiveNumber);
  app.add_option("--stan-cache", options.stan_cache,
                 "folder for the compiled Stan models (default ~/.cache/variate-bench)");
  CLI11_PARSE(app, argc, argv);
  try {
    return variate::bench::run(options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
