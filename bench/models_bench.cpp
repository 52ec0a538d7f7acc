// variate-bench-models: the posteriordb reference models and the example projects, each
// measured side by side in one run — µs per gradient on the static tape and on LibTorch,
// min bulk-ESS per second of NUTS on the tape against Stan 2.21 (rstan) on the same data,
// and the time per leapfrog step of both. See bench/README.md.

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>

#include "bench_models.h"
#include "model_figures.h"
#include "models_table.h"
#include "r_script.h"
#include "runtime_info.h"
#include "timing.h"

namespace variate::bench {
namespace {

struct Options {
  ModelBenchOptions bench;
  std::vector<std::string> models;  // empty: all
  bool skip_stan = false;
};

std::vector<BenchModel> selected_models(const std::vector<std::string>& names) {
  const std::vector<BenchModel> all = find_bench_models();
  if (names.empty()) return all;
  std::vector<BenchModel> chosen;
  std::set<std::string> unknown(names.begin(), names.end());
  for (const BenchModel& model : all) {
    if (unknown.erase(model.name)) chosen.push_back(model);
  }
  if (!unknown.empty()) {
    std::string known;
    for (const BenchModel& model : all) known += " " + model.name;
    throw std::runtime_error("no model '" + *unknown.begin() + "'; the models are:" + known);
  }
  return chosen;
}

void print_header(const Options& options, size_t models, bool stan) {
  const RuntimeInfo info = runtime_info();
  const ModelBenchOptions& b = options.bench;
  std::printf("Variate benchmark: %zu models of tests/data/reference/ and projects/\n", models);
  std::printf("  LibTorch  %s, %d cores, OPENBLAS_NUM_THREADS %s, OMP_WAIT_POLICY %s\n",
              info.torch_version.c_str(), info.cores, info.openblas_threads.c_str(),
              info.omp_wait_policy.c_str());
  const bool busy = info.load_average > 0.5 * std::max(1, info.cores);
  std::printf("  machine   load average %.2f at the start%s\n", info.load_average,
              busy ? " (other processes share the cores: expect noisy figures)" : "");
  std::printf(
      "  gradients make_density_function (what NUTS calls), one intra-op thread, at %d "
      "standard-normal unconstrained points (seed %llu): median of %d batches of ~2 ms "
      "of the thread's CPU time after %d untimed\n",
      b.points, static_cast<unsigned long long>(b.seed), b.timing.repeats, b.timing.warmup);
  std::printf(
      "  NUTS      Variate on the tape, %d chains x (%d warmup + %d draws), %d chain "
      "threads, seed %llu, diagonal metric, max tree depth 10, target accept 0.8; alone "
      "(sample_nuts) and through `variate sample --output DIR`, interleaved, median of %d runs each\n",
      b.chains, b.warmup, b.draws, b.threads, static_cast<unsigned long long>(b.seed), b.runs);
  if (stan) {
    std::printf(
        "  Stan      2.21 (rstan), the same chains, cores = %d, same seed; its own clock "
        "(get_elapsed_time, CPU time)\n",
        b.threads);
  } else {
    std::printf("  Stan      not run (%s)\n",
                options.skip_stan ? "--skip-stan" : "Rscript with rstan not found");
  }
  std::printf("\n");
  std::fflush(stdout);
}

int run(Options options) {
  at::set_num_threads(1);  // the gradient rows; sample_nuts sets its own for the chains
  const std::vector<BenchModel> models = selected_models(options.models);
  options.bench.stan = !options.skip_stan && stan_available();
  print_header(options, models.size(), options.bench.stan);
  std::vector<ModelFigures> figures;
  const double start = now_seconds();
  for (size_t k = 0; k < models.size(); ++k) {
    std::fprintf(stderr, "[%zu/%zu] %s ...", k + 1, models.size(), models[k].name.c_str());
    const double model_start = now_seconds();
    figures.push_back(measure_model(models[k], options.bench));
    const ModelFigures& f = figures.back();
    std::fprintf(stderr, " %.0f s (Variate NUTS %.1f s, variate sample %.1f s", now_seconds() - model_start,
                 f.chain_s / options.bench.threads, f.cli.chain_s / options.bench.threads);
    if (options.bench.stan) {
      std::fprintf(stderr, ", Stan %.1f s%s", f.stan_s / options.bench.threads,
                   f.stan_compiled_fresh ? ", after compiling it" : "");
    }
    std::fprintf(stderr, ")\n");
  }
  print_summary_table(figures, options.bench);
  print_cli_table(figures);
  print_sampling_table(figures, options.bench);
  print_leapfrog_table(figures);
  print_notes(figures);
  std::printf("\nwhole run %.0f s; load average %.2f at the end\n", now_seconds() - start,
              runtime_info().load_average);
  return 0;
}

}  // namespace
}  // namespace variate::bench

int main(int argc, char** argv) {
  variate::bench::Options options;
  variate::bench::ModelBenchOptions& b = options.bench;
  CLI::App app{
      "Times the reference posteriors and the example projects: microseconds per gradient on "
      "the tape and on LibTorch, and NUTS bulk-ESS per second against Stan 2.21.",
      "variate-bench-models"};
  app.add_option("--models", options.models, "models to run, by folder name (default: all)")
      ->delimiter(',');
  app.add_flag("--skip-stan", options.skip_stan, "do not run Stan");
  app.add_option("--chains", b.chains, "NUTS chains")->check(CLI::PositiveNumber);
  app.add_option("--warmup", b.warmup, "NUTS warmup iterations per chain")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--draws", b.draws, "NUTS draws per chain after warmup")
      ->check(CLI::Range(4, 1 << 30));
  app.add_option("--seed", b.seed, "seed of NUTS (Variate and Stan) and of the gradient points");
  app.add_option("--threads", b.threads, "chain threads for Variate and rstan's cores")
      ->check(CLI::PositiveNumber);
  app.add_option("--runs", b.runs,
                 "runs of Variate's NUTS alone and through `variate sample`, interleaved: their "
                 "times are the medians")
      ->check(CLI::PositiveNumber);
  app.add_option("--repeat", b.timing.repeats, "timed gradient batches (the median is reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--points", b.points, "points the gradients are timed at")
      ->check(CLI::PositiveNumber);
  app.add_option("--stan-cache", b.stan_cache,
                 "folder for the compiled Stan models (default ~/.cache/variate-bench)");
  CLI11_PARSE(app, argc, argv);
  try {
    return variate::bench::run(options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
