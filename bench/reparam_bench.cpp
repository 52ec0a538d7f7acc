// variate-bench-reparam: hierarchical models written centered, as users write them, sampled
// by `variate sample`'s driver under each --reparam (auto, the default; noncentered; none,
// the model as written) and by Stan 2.21 (rstan) at its defaults on the same text. See
// bench/README.md.
//
// A run's figure is its min bulk-ESS over the model's parameters divided by all its
// gradient evaluations, warmup and the reparameterization pilot included (Stan's: its
// leapfrog steps, warmup included), and the share of its transitions that diverged. Each
// side runs with --seeds seeds; the median is reported.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/services/run_observers.h"
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"

#include "bulk_ess.h"
#include "report.h"
#include "stan_models.h"
#include "timing.h"

namespace variate::bench {
namespace {

struct Options {
  int seeds = 3;
  int threads = 2;
  bool skip_stan = false;
  std::string stan_cache;
};

struct CenteredModel {
  std::string name;
  std::string vmod;  // relative to the source tree
  std::string data;
  std::string stan;
};

const std::vector<CenteredModel>& centered_models() {
  static const std::vector<CenteredModel> models = {
      {"eight schools, centered", "tests/data/reparam/eight_schools_centered.vmod",
       "tests/data/reference/eight_schools-eight_schools_noncentered/data.json",
       "bench/stan/eight_schools_centered.stan"},
      {"radon, centered (85 counties)", "tests/data/reparam/radon_centered.vmod", "projects/radon/data.json",
       "bench/stan/radon_centered.stan"},
      {"8 groups of 200, centered", "tests/data/reparam/strong_groups.vmod", "tests/data/reparam/strong_groups.json",
       "bench/stan/strong_groups.stan"},
  };
  return models;
}

std::string source_path(const std::string& relative) { return std::string(VARIATE_BENCH_DIR) + "/../" + relative; }

struct Side {
  std::vector<double> ess_per_gradient;  // one per seed
  std::vector<double> divergent;         // share of post-warmup transitions
};

Side run_variate(const CenteredModel& model, const std::string& reparam, const Options& options) {
  Side side;
  for (int seed = 1; seed <= options.seeds; ++seed) {
    services::RunSpec spec;
    spec.model = std::make_shared<services::VmodSource>(services::VmodSource::from_file(source_path(model.vmod)));
    spec.data = services::DataInput::file(source_path(model.data));
    spec.settings.set(services::setting::seed, std::optional<uint64_t>(seed));
    spec.settings.set(services::setting::threads, options.threads);
    spec.settings.set(services::setting::reparam, reparam);
    const services::SampleResult result = services::run_sample(spec, services::RunObservers{});
    double ess = 1e300;
    for (const auto& row : result.summary.parameters) ess = std::min(ess, row.ess_bulk);
    side.ess_per_gradient.push_back(ess / static_cast<double>(result.totals.gradient_evaluations));
    side.divergent.push_back(static_cast<double>(result.totals.divergences) / (4.0 * result.draws));
  }
  return side;
}

Side run_stan(const CenteredModel& model, const Options& options) {
  Side side;
  for (int seed = 1; seed <= options.seeds; ++seed) {
    StanModelOptions stan;
    stan.cores = options.threads;
    stan.seed = static_cast<uint64_t>(seed);
    stan.cache_dir = options.stan_cache;
    const StanModelRun run = run_stan_model(source_path(model.stan), source_path(model.data), stan);
    side.ess_per_gradient.push_back(min_bulk_ess(run.draws, run.names).ess / static_cast<double>(run.leapfrog));
    side.divergent.push_back(static_cast<double>(run.divergent) / (4.0 * stan.draws));
  }
  return side;
}

std::string percent(double share) { return number(100 * share, 2) + "%"; }
std::string ratio(double a, double b) { return b > 0 && a == a && b == b ? number(a / b) : "-"; }

int run(const Options& options) {
  std::printf(
      "Centered hierarchical models: min bulk-ESS / gradient evaluations (warmup and pilot included)\n"
      "and divergent transitions, 4 chains x (1000 warmup + 1000 draws), median of %d seeds\n\n",
      options.seeds);
  std::printf("%-30s %10s %10s %10s %10s %8s %8s %8s %8s %8s\n", "model", "auto", "noncent.", "none", "Stan 2.21",
              "auto/", "div", "div", "div", "div");
  std::printf("%-30s %10s %10s %10s %10s %8s %8s %8s %8s %8s\n", "", "ESS/grad", "ESS/grad", "ESS/grad", "ESS/grad",
              "Stan", "auto", "noncent.", "none", "Stan");
  for (const CenteredModel& model : centered_models()) {
    try {
      const Side automatic = run_variate(model, "auto", options);
      const Side noncentered = run_variate(model, "noncentered", options);
      const Side written = run_variate(model, "none", options);
      Side stan;
      if (!options.skip_stan) stan = run_stan(model, options);
      const double a = median_of(automatic.ess_per_gradient);
      const double s = stan.ess_per_gradient.empty() ? kNotAvailable : median_of(stan.ess_per_gradient);
      std::printf("%-30s %10.4f %10.4f %10.4f %10s %8s %8s %8s %8s %8s\n", model.name.c_str(), a,
                  median_of(noncentered.ess_per_gradient), median_of(written.ess_per_gradient),
                  s == s ? number(s, 4).c_str() : "-", ratio(a, s).c_str(),
                  percent(median_of(automatic.divergent)).c_str(), percent(median_of(noncentered.divergent)).c_str(),
                  percent(median_of(written.divergent)).c_str(),
                  stan.divergent.empty() ? "-" : percent(median_of(stan.divergent)).c_str());
    } catch (const std::exception& e) {
      std::printf("%-30s %s\n", model.name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace variate::bench

int main(int argc, char** argv) {
  variate::bench::Options options;
  CLI::App app{"Centered hierarchical models under each --reparam, against Stan 2.21.", "variate-bench-reparam"};
  app.add_flag("--skip-stan", options.skip_stan, "do not run Stan");
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
