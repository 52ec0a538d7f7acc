// variate-bench-logistic: a covertype-sized Bayesian logistic regression measured side by
// side in one run — ms per gradient and per NUTS leapfrog step of the compiled .vmod
// model (fused GLM kernel, and autograd), the C++ random-variable API, hand-written
// LibTorch and (with --stan) Stan 2.21's bernoulli_logit_glm, in float64 and float32 —
// then bulk-ESS per second on eight schools against Stan, and a table of ratios.
// See bench/README.md.

#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>

#include "bench_sections.h"
#include "logistic_targets.h"
#include "report.h"
#include "runtime_info.h"
#include "stan_runner.h"
#include "synthetic_logistic.h"
#include "timing.h"
#include "torch_baseline.h"

namespace variate::bench {
namespace {

// A gradient function under test: theta [D] -> (log density, gradient).
using GradientFn = std::function<std::pair<at::Tensor, at::Tensor>(const at::Tensor&)>;

struct Measured {
  double ms = kNotAvailable;
  double log_density = kNotAvailable;
  at::Tensor gradient;  // float64
  std::string why_not;  // set when it could not run
};

// One gradient function at one point; `make` builds it (and may throw: then it is n/a).
struct Variant {
  std::string label;
  std::function<GradientFn()> make;
  at::Tensor theta;
  Measured measured;
  GradientFn f;
};

std::string message(const std::exception& e) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&e)) return torch_error->what_without_backtrace();
  return e.what();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Evaluates every variant once (value, gradient), then times those that ran, in turns,
// so that a change in the machine's load touches them alike.
void measure(std::vector<Variant>& variants, const TimingOptions& timing) {
  std::vector<Variant*> runnable;
  for (Variant& v : variants) {
    try {
      v.f = v.make();
      const auto [lp, g] = v.f(v.theta);
      v.measured.log_density = lp.item<double>();
      v.measured.gradient = g.to(at::kDouble);
      runnable.push_back(&v);
    } catch (const std::exception& e) {
      v.measured.why_not = message(e);
    }
  }
  std::vector<std::function<void()>> calls;
  for (Variant* v : runnable) calls.push_back([v] { v->f(v->theta); });
  const std::vector<double> ms = median_ms_interleaved(calls, timing);
  for (size_t k = 0; k < runnable.size(); ++k) runnable[k]->measured.ms = ms[k];
}

// max |g - reference| / max |reference|: one number for "the same gradient".
double gradient_error(const at::Tensor& g, const at::Tensor& reference) {
  if (!g.defined() || !reference.defined() || g.numel() != reference.numel()) return kNotAvailable;
  return (g - reference).abs().max().item<double>() / reference.abs().max().item<double>();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

model::CompileOptions compile_options(at::ScalarType dtype, bool fuse) {
  model::CompileOptions options;
  options.dtype = dtype;
  options.fuse_likelihoods = fuse;
  return options;
}

void print_header(const BenchOptions& options, const LogisticData& data, double generate_s) {
  const RuntimeInfo info = runtime_info();
  std::printf("Variate benchmark: Bayesian logistic regression (synthetic, covertype-sized)\n");
  std::printf("  data      N = %lld, D = %lld (intercept + %lld standard-normal features), "
              "beta_true ~ Normal(0, sd 0.5), seed %llu, X %s\n",
              static_cast<long long>(data.rows()), static_cast<long long>(data.columns()),
              static_cast<long long>(data.columns() - 1), static_cast<unsigned long long>(options.seed),
              options.row_major ? "row-major" : "column-major");
  std::printf("  model     beta[D] ~ Normal(0, 1); y ~ Bernoulli(logits = X @ beta)\n");
  std::printf("  LibTorch  %s, intra-op threads %d (at::set_num_threads; %d cores), "
              "OPENBLAS_NUM_THREADS %s, OMP_WAIT_POLICY %s\n",
              info.torch_version.c_str(), info.intra_op_threads, info.cores, info.openblas_threads.c_str(),
              info.omp_wait_policy.c_str());
  const bool busy = info.load_average > 0.5 * std::max(1, info.cores);
  std::printf("  machine   load average %.2f at the start%s\n", info.load_average,
              busy ? " (other processes share the cores: expect noisy figures)" : "");
  std::printf("  BLAS      built for: %s\n            loaded: %s\n", info.blas_config.c_str(),
              info.blas_loaded.c_str());
  std::printf("  timing    median of %d calls after %d warm-up calls, gradient at beta_true; "
              "data generated in %.1f s\n\n",
              options.timing.repeats, options.timing.warmup, generate_s);
  std::fflush(stdout);
}

// Stan on the same data, or a note of why not.
std::optional<StanResult> run_stan_or_note(const BenchOptions& options, const LogisticData& data,
                                           const at::Tensor& theta,
                                           std::vector<std::pair<std::string, std::string>>& notes) {
  StanOptions stan_options;
  stan_options.warmup = options.nuts_warmup;
  stan_options.draws = options.nuts_draws;
  stan_options.max_tree_depth = options.max_tree_depth;
  stan_options.seed = options.seed;
  stan_options.gradient = options.timing;
  stan_options.cache_dir = options.stan_cache;
  try {
    return run_stan(data, theta, stan_options);
  } catch (const std::exception& e) {
    notes.push_back({"Stan", e.what()});
    return std::nullopt;
  }
}

// Milliseconds per gradient of each variant (float64, float32) and their ratios.
void print_gradient_table(const std::vector<Variant>& v, bool with_stan, double stan_ms) {
  std::printf("ms per gradient (log density + gradient)%*s%11s%11s\n", 13, "", "float64", "float32");
  for (size_t k = 0; k < v.size(); k += 2) row(v[k].label, {number(v[k].measured.ms), number(v[k + 1].measured.ms)});
  if (with_stan) row("Stan 2.21 bernoulli_logit_glm (rstan, 1 thread)", {number(stan_ms), "-"});
  const auto pair_ratio = [&](size_t k, size_t reference_k) {
    row(v[k].label.substr(0, v[k].label.find(' ')) + "/" + v[reference_k].label.substr(0, v[reference_k].label.find(' ')),
        {ratio(v[k].measured.ms, v[reference_k].measured.ms), ratio(v[k + 1].measured.ms, v[reference_k + 1].measured.ms)});
  };
  pair_ratio(0, 6);
  pair_ratio(2, 6);
  pair_ratio(4, 6);
  if (with_stan) {
    for (size_t k : {0, 2, 6}) {
      row(v[k].label.substr(0, v[k].label.find(' ')) + "/Stan", {ratio(v[k].measured.ms, stan_ms), ratio(v[k + 1].measured.ms, stan_ms)});
    }
  }

}

// Whether the variants' gradients agree with the hand-written float64 one, and what the
// log densities and the fused kernels were.
void print_gradient_agreement(const std::vector<Variant>& v, const std::optional<StanResult>& stan,
                              const model::CompiledModel& fused64) {
  const at::Tensor reference_gradient = v[6].measured.gradient;
  std::printf("\nsame gradient? max|g - g(c, float64)| / max|g(c, float64)|%*s%11s%11s\n", 0, "", "float64", "float32");
  for (size_t k = 0; k < v.size(); k += 2) {
    row(v[k].label, {scientific(gradient_error(v[k].measured.gradient, reference_gradient)),
                     scientific(gradient_error(v[k + 1].measured.gradient, reference_gradient))});
  }
  if (stan) {
    row("Stan (its log density drops constants; the gradient does not)",
        {scientific(gradient_error(at::tensor(stan->gradient, at::kDouble), reference_gradient))});
  }
  std::printf("  log density at beta_true, float64: (a) %.10g, (a') %.10g, (b) %.10g, (c) %.10g\n",
              v[0].measured.log_density, v[2].measured.log_density, v[4].measured.log_density,
              v[6].measured.log_density);
  std::printf("  fused likelihoods in (a): ");
  for (const auto& f : fused64.fused_likelihoods()) {
    std::printf("%s ~ %s, %lld x %lld%s ", f.name.c_str(), f.family.c_str(), static_cast<long long>(f.rows),
                static_cast<long long>(f.columns), f.intercept ? " + intercept" : "");
  }
  std::printf("(%ld kernel evaluations so far)\n", fused64.fused_evaluations());
}

int run(const BenchOptions& options) {
  const int threads = options.threads > 0 ? options.threads
                                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  const double generate_start = now_seconds();
  const LogisticData data = make_synthetic_logistic(options.rows, options.columns, options.seed);
  print_header(options, data, now_seconds() - generate_start);
  const at::Tensor theta = data.beta_true;  // gradients are taken near the posterior mode
  const at::Tensor theta32 = theta.to(at::kFloat);

  // Every implementation of a dtype reads the same X in memory.
  const std::string vmod = read_file(std::string(VARIATE_BENCH_DIR) + "/logistic_regression.vmod");
  const at::Tensor x64 = data.design(at::kDouble, options.row_major);
  const at::Tensor x32 = data.design(at::kFloat, options.row_major);
  const double compile_start = now_seconds();
  const model::CompiledModel fused64 = compile_vmod_logistic(vmod, x64, data.y, compile_options(at::kDouble, true));
  const double compile_s = now_seconds() - compile_start;
  const model::CompiledModel fused32 = compile_vmod_logistic(vmod, x32, data.y, compile_options(at::kFloat, true));
  const model::CompiledModel autograd64 = compile_vmod_logistic(vmod, x64, data.y, compile_options(at::kDouble, false));
  const model::CompiledModel autograd32 = compile_vmod_logistic(vmod, x32, data.y, compile_options(at::kFloat, false));

  const auto engine = [](UnconstrainedTarget target) -> GradientFn {
    return [target](const at::Tensor& x) { return target.log_density_and_gradient(x); };
  };
  const auto baseline = [](const at::Tensor& X, const at::Tensor& y) -> GradientFn {
    const TorchLogisticBaseline base(X, y);
    return [base](const at::Tensor& x) { return base.log_density_and_gradient(x); };
  };
  // In pairs: float64, float32.
  std::vector<Variant> v = {
      {"(a) compiled .vmod, fused GLM kernel", [&] { return engine(fused64.target()); }, theta, {}, {}},
      {"", [&] { return engine(fused32.target()); }, theta, {}, {}},
      {"(a') compiled .vmod, autograd (fusion off)", [&] { return engine(autograd64.target()); }, theta, {}, {}},
      {"", [&] { return engine(autograd32.target()); }, theta, {}, {}},
      {"(b) C++ random-variable API (autograd)", [&] { return engine(cpp_api_logistic(x64, data.y)); }, theta, {}, {}},
      {"", [&] { return engine(cpp_api_logistic(x32, data.y)); }, theta32, {}, {}},
      {"(c) hand-written LibTorch + autograd (baseline)", [&] { return baseline(x64, data.y); }, theta, {}, {}},
      {"", [&] { return baseline(x32, data.y); }, theta32, {}, {}},
  };
  measure(v, options.timing);

  std::vector<std::pair<std::string, std::string>> notes;
  const bool stan_ready = options.stan && stan_available();
  if (options.stan && !stan_ready) notes.push_back({"Stan", "Rscript -e 'library(rstan)' failed: install r-cran-rstan"});
  const std::optional<StanResult> stan = stan_ready ? run_stan_or_note(options, data, theta, notes) : std::nullopt;
  const double stan_ms = stan ? stan->gradient_ms : kNotAvailable;

  print_gradient_table(v, options.stan, stan_ms);
  print_gradient_agreement(v, stan, fused64);
  std::printf("\none-time costs: .vmod compile + data binding %.2f s", compile_s);
  if (stan) std::printf("; Stan model %s %.1f s", stan->compiled_fresh ? "compile" : "load from cache", stan->compile_s);
  std::printf("\n");

  Summary summary;
  summary.stan_gradient_ms = stan_ms;
  summary.gradient_ms64 = v[0].measured.ms;
  summary.gradient_ms32 = v[1].measured.ms;
  if (options.nuts_draws > 0) {
    print_nuts_section(options, {&fused64, &fused32}, stan ? &*stan : nullptr, summary);
  }
  if (!options.skip_eight_schools) print_eight_schools_section(options, stan_ready, summary, notes);
  print_summary(summary);

  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k].measured.why_not.empty()) continue;
    notes.push_back({(k % 2 ? v[k - 1].label : v[k].label) + (k % 2 ? " float32" : " float64"),
                     first_line(v[k].measured.why_not)});
  }
  if (!notes.empty()) std::printf("\nnotes\n");
  for (const auto& [what, why] : notes) std::printf("  %s: %s\n", what.c_str(), why.c_str());
  return 0;
}

}  // namespace
}  // namespace variate::bench

int main(int argc, char** argv) {
  variate::bench::BenchOptions options;
  CLI::App app{"Times a covertype-sized Bayesian logistic regression (the compiled .vmod model with and "
               "without its fused kernel, the C++ API, hand-written LibTorch and, with --stan, Stan) and "
               "eight schools' bulk-ESS per second, side by side.",
               "variate-bench-logistic"};
  app.add_option("--rows", options.rows, "rows N of the synthetic data set")->check(CLI::PositiveNumber);
  app.add_option("--columns", options.columns, "columns D, the intercept included")->check(CLI::PositiveNumber);
  app.add_option("--seed", options.seed, "seed of the data and of NUTS");
  app.add_option("--threads", options.threads, "LibTorch intra-op threads for the gradient rows (0: one per core)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--row-major", options.row_major, "store X row-major instead of column-major");
  app.add_option("--repeat", options.timing.repeats, "timed gradient calls (the median is reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--warmup-calls", options.timing.warmup, "untimed gradient calls first")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--nuts-warmup", options.nuts_warmup, "NUTS warmup iterations")->check(CLI::NonNegativeNumber);
  app.add_option("--nuts-draws", options.nuts_draws, "NUTS draws after warmup (0 skips NUTS)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max-tree-depth", options.max_tree_depth, "NUTS maximum tree depth (Variate and Stan)")
      ->check(CLI::Range(1, 30));
  app.add_option("--nuts-chains", options.nuts_chains, "chains of the multi-chain NUTS rows")->check(CLI::PositiveNumber);
  app.add_flag("--skip-eight-schools", options.skip_eight_schools, "skip the eight schools ESS/s table");
  app.add_flag("--stan", options.stan, "also time Stan 2.21 through Rscript and rstan");
  app.add_option("--stan-cache", options.stan_cache,
                 "folder for the compiled Stan models (default ~/.cache/variate-bench)");
  CLI11_PARSE(app, argc, argv);
  try {
    return variate::bench::run(options);
  } catch (const c10::Error& e) {
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
