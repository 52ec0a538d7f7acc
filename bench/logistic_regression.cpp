// variate-bench-logistic: ms per gradient and per NUTS leapfrog step of a covertype-sized
// Bayesian logistic regression, measured side by side in one run — the compiled .vmod
// model, the same model through the C++ random-variable API, a hand-written LibTorch
// baseline, and (with --stan) Stan 2.21's bernoulli_logit_glm. See bench/README.md.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>

#include "variate/inference/sample.h"

#include "logistic_targets.h"
#include "runtime_info.h"
#include "stan_runner.h"
#include "synthetic_logistic.h"
#include "timing.h"
#include "torch_baseline.h"

namespace {

using namespace variate;
using namespace variate::bench;

constexpr double kNotAvailable = std::numeric_limits<double>::quiet_NaN();

struct Options {
  int64_t rows = 581012;
  int64_t columns = 55;
  uint64_t seed = 1;
  int threads = 0;  // 0: one per core
  bool row_major = false;
  TimingOptions timing;
  int nuts_warmup = 100;
  int nuts_draws = 100;
  int max_tree_depth = 10;
  bool stan = false;
  std::string stan_cache;
};

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
  std::function<GradientFn()> make;
  at::Tensor theta;
  Measured measured;
  GradientFn f;
};

std::string message(const std::exception& e) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&e)) return torch_error->what_without_backtrace();
  return e.what();
}

// Evaluates every variant once (value, gradient), then times those that ran, in turns.
void measure(std::vector<Variant*> variants, const TimingOptions& timing) {
  std::vector<Variant*> runnable;
  for (Variant* v : variants) {
    try {
      v->f = v->make();
      const auto [lp, g] = v->f(v->theta);
      v->measured.log_density = lp.item<double>();
      v->measured.gradient = g.to(at::kDouble);
      runnable.push_back(v);
    } catch (const std::exception& e) {
      v->measured.why_not = message(e);
    }
  }
  std::vector<std::function<void()>> calls;
  for (Variant* v : runnable) calls.push_back([v] { v->f(v->theta); });
  const std::vector<double> ms = median_ms_interleaved(calls, timing);
  for (size_t k = 0; k < runnable.size(); ++k) runnable[k]->measured.ms = ms[k];
}

// max |g - reference| / max |reference|: one number for "the same gradient".
double gradient_error(const at::Tensor& g, const at::Tensor& reference) {
  if (!g.defined() || !reference.defined()) return kNotAvailable;
  return (g - reference).abs().max().item<double>() / reference.abs().max().item<double>();
}

std::string number(double value, int precision = 2) {
  if (std::isnan(value)) return "n/a";
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(precision);
  text << value;
  return text.str();
}

std::string scientific(double value) {
  if (std::isnan(value)) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1e", value);
  return buffer;
}

std::string ratio(double a, double b) { return std::isnan(a) || std::isnan(b) ? "n/a" : number(a / b) + "x"; }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

void row(const std::string& label, const std::vector<std::string>& cells, int label_width = 50,
         int cell_width = 11) {
  std::printf("  %-*s", label_width, label.c_str());
  for (const auto& cell : cells) std::printf("%*s", cell_width, cell.c_str());
  std::printf("\n");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct NutsFigures {
  double ms_per_leapfrog = kNotAvailable;
  int64_t leapfrog = 0;
  double sampling_s = 0;
  double warmup_s = 0;
  double step_size = 0;
  int64_t divergent = 0;
  int intra_op_threads = 0;
};

// sample_nuts picks the intra-op thread count itself (cores / chain threads), whatever
// --threads said: this records what the chain actually ran with.
class ThreadCountObserver : public SampleObserver {
 public:
  void on_adapted(int, double, const std::vector<double>&) override { threads = at::get_num_threads(); }
  int threads = 0;
};

NutsFigures run_nuts(const UnconstrainedTarget& target, const Options& options) {
  ThreadCountObserver observer;
  const auto chains = sample_nuts(target, NutsOptions()
                                              .chains(1)
                                              .threads(1)
                                              .warmup(options.nuts_warmup)
                                              .draws(options.nuts_draws)
                                              .max_tree_depth(options.max_tree_depth)
                                              .seed(options.seed),
                                  &observer);
  const ChainResult& chain = chains.at(0);
  NutsFigures f;
  for (size_t i = chain.warmup_iterations; i < chain.stats.size(); ++i) {
    f.leapfrog += chain.stats[i].leapfrog_steps;
    f.divergent += chain.stats[i].has_divergence ? 1 : 0;
  }
  f.sampling_s = chain.seconds_sampling;
  f.warmup_s = chain.seconds_warmup;
  f.step_size = chain.step_size;
  f.intra_op_threads = observer.threads;
  if (f.leapfrog > 0) f.ms_per_leapfrog = 1000.0 * f.sampling_s / static_cast<double>(f.leapfrog);
  return f;
}

int run(const Options& options) {
  const int threads = options.threads > 0 ? options.threads
                                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  const RuntimeInfo info = runtime_info();
  const std::string layout = options.row_major ? "row-major" : "column-major";

  const double generate_start = now_seconds();
  const LogisticData data = make_synthetic_logistic(options.rows, options.columns, options.seed);
  const double generate_s = now_seconds() - generate_start;
  const at::Tensor theta = data.beta_true;  // gradients are taken near the posterior mode

  std::printf("Variate benchmark: Bayesian logistic regression (synthetic, covertype-sized)\n");
  std::printf("  data      N = %lld, D = %lld (intercept + %lld standard-normal features), "
              "beta_true ~ Normal(0, sd 0.5), seed %llu, X %s\n",
              static_cast<long long>(data.rows()), static_cast<long long>(data.columns()),
              static_cast<long long>(data.columns() - 1),
              static_cast<unsigned long long>(options.seed), layout.c_str());
  std::printf("  model     beta[D] ~ Normal(0, 1); y ~ Bernoulli(logits = X @ beta)\n");
  std::printf("  LibTorch  %s, intra-op threads %d (at::set_num_threads; %d cores), "
              "OPENBLAS_NUM_THREADS %s, OMP_WAIT_POLICY %s\n",
              info.torch_version.c_str(), info.intra_op_threads, info.cores,
              info.openblas_threads.c_str(), info.omp_wait_policy.c_str());
  const bool busy = info.load_average > 0.5 * std::max(1, info.cores);
  std::printf("  machine   load average %.2f at the start%s\n", info.load_average,
              busy ? " (other processes share the cores: expect noisy figures)" : "");
  std::printf("  BLAS      built for: %s\n            loaded: %s\n", info.blas_config.c_str(),
              info.blas_loaded.c_str());
  std::printf("  timing    median of %d calls after %d warm-up calls, gradient at beta_true; "
              "data generated in %.1f s\n\n",
              options.timing.repeats, options.timing.warmup, generate_s);
  std::fflush(stdout);

  // float64: all three on the same X (same layout, same memory).
  const std::string vmod = read_file(std::string(VARIATE_BENCH_DIR) + "/logistic_regression.vmod");
  const at::Tensor x64 = data.design(at::kDouble, options.row_major);
  const double compile_start = now_seconds();
  const model::CompiledModel compiled = compile_vmod_logistic(vmod, x64, data.y);
  const UnconstrainedTarget vmod_target = compiled.target();
  const double compile_s = now_seconds() - compile_start;

  // float32: the baseline and whatever of the engine runs in float32. All five variants
  // are timed in turns, so that the machine's load touches them alike.
  const at::Tensor x32 = data.design(at::kFloat, options.row_major);
  const at::Tensor theta32 = theta.to(at::kFloat);
  const auto engine = [](UnconstrainedTarget target) -> GradientFn {
    return [target](const at::Tensor& x) { return target.log_density_and_gradient(x); };
  };
  const auto baseline = [](const at::Tensor& X, const at::Tensor& y) -> GradientFn {
    const TorchLogisticBaseline base(X, y);
    return [base](const at::Tensor& x) { return base.log_density_and_gradient(x); };
  };
  Variant a64v{[&] { return engine(vmod_target); }, theta, {}, {}};
  Variant b64v{[&] { return engine(cpp_api_logistic(x64, data.y)); }, theta, {}, {}};
  Variant c64v{[&] { return baseline(x64, data.y); }, theta, {}, {}};
  Variant b32v{[&] { return engine(cpp_api_logistic(x32, data.y)); }, theta32, {}, {}};
  Variant c32v{[&] { return baseline(x32, data.y); }, theta32, {}, {}};
  measure({&a64v, &b64v, &c64v, &b32v, &c32v}, options.timing);
  const Measured& a64 = a64v.measured;
  const Measured& b64 = b64v.measured;
  const Measured& c64 = c64v.measured;
  const Measured& b32 = b32v.measured;
  const Measured& c32 = c32v.measured;
  Measured a32;
  a32.why_not = "the model language binds real data as float64 (engine/model/data_binding.cpp); "
                "there is no float32 mode for compiled models yet";

  std::optional<StanResult> stan;
  std::string stan_failure;
  if (options.stan) {
    StanOptions stan_options;
    stan_options.warmup = options.nuts_warmup;
    stan_options.draws = options.nuts_draws;
    stan_options.max_tree_depth = options.max_tree_depth;
    stan_options.seed = options.seed;
    stan_options.gradient = options.timing;
    stan_options.cache_dir = options.stan_cache;
    if (!stan_available()) {
      stan_failure = "Rscript -e 'library(rstan)' failed: install r-cran-rstan";
    } else {
      try {
        stan = run_stan(data, theta, stan_options);
      } catch (const std::exception& e) {
        stan_failure = e.what();
      }
    }
  }
  const double stan_ms = stan ? stan->gradient_ms : kNotAvailable;

  std::printf("ms per gradient (log density + gradient)%*s%11s%11s\n", 13, "", "float64", "float32");
  row("(a) compiled .vmod model", {number(a64.ms), number(a32.ms)});
  row("(b) C++ random-variable API", {number(b64.ms), number(b32.ms)});
  row("(c) hand-written LibTorch + autograd (baseline)", {number(c64.ms), number(c32.ms)});
  row("(a)/(c)", {ratio(a64.ms, c64.ms), ratio(a32.ms, c32.ms)});
  row("(b)/(c)", {ratio(b64.ms, c64.ms), ratio(b32.ms, c32.ms)});
  if (options.stan) {
    row("Stan 2.21 bernoulli_logit_glm (rstan, 1 thread)", {number(stan_ms), "-"});
    row("(a)/Stan", {ratio(a64.ms, stan_ms), ratio(a32.ms, stan_ms)});
    row("(b)/Stan", {ratio(b64.ms, stan_ms), ratio(b32.ms, stan_ms)});
    row("(c)/Stan", {ratio(c64.ms, stan_ms), ratio(c32.ms, stan_ms)});
  }

  std::printf("\nsame gradient? max|g - g(c, float64)| / max|g(c, float64)|\n");
  row("(a) float64 / (b) float64 / (b) float32 / (c) float32", {}, 0);
  row("", {scientific(gradient_error(a64.gradient, c64.gradient)),
           scientific(gradient_error(b64.gradient, c64.gradient)),
           scientific(gradient_error(b32.gradient, c64.gradient)),
           scientific(gradient_error(c32.gradient, c64.gradient))}, 0, 10);
  if (stan) {
    const at::Tensor g = at::tensor(stan->gradient, at::kDouble);
    row("Stan (its log density drops constants; the gradient does not)",
        {scientific(gradient_error(g.numel() == c64.gradient.numel() ? g : at::Tensor(), c64.gradient))}, 62);
  }
  std::printf("  log density at beta_true: (a) %.10g, (b) %.10g, (c) %.10g\n", a64.log_density,
              b64.log_density, c64.log_density);

  std::printf("\none-time costs: .vmod compile + data binding %.2f s", compile_s);
  if (stan) std::printf("; Stan model %s %.1f s", stan->compiled_fresh ? "compile" : "load from cache", stan->compile_s);
  std::printf("\n");

  if (options.nuts_draws > 0) {
    std::printf("\nNUTS, 1 chain, %d warmup + %d draws, max tree depth %d, seed %llu, diagonal metric; "
                "figures from the sampling iterations\n",
                options.nuts_warmup, options.nuts_draws, options.max_tree_depth,
                static_cast<unsigned long long>(options.seed));
    row("", {"ms/leapfrog", "leapfrogs", "sampling s", "warmup s", "step size", "divergent"}, 36, 12);
    std::fflush(stdout);
    const NutsFigures v = run_nuts(vmod_target, options);
    row("Variate, compiled .vmod, float64",
        {number(v.ms_per_leapfrog), std::to_string(v.leapfrog), number(v.sampling_s, 1),
         number(v.warmup_s, 1), number(v.step_size, 4), std::to_string(v.divergent)}, 36, 12);
    if (stan) {
      const double stan_leapfrog_ms = stan->nuts_leapfrog > 0
          ? 1000.0 * stan->nuts_sampling_s / static_cast<double>(stan->nuts_leapfrog) : kNotAvailable;
      row("Stan 2.21 (rstan, 1 thread)",
          {number(stan_leapfrog_ms), std::to_string(stan->nuts_leapfrog),
           number(stan->nuts_sampling_s, 1), number(stan->nuts_warmup_s, 1),
           number(stan->nuts_step_size, 4), std::to_string(stan->nuts_divergent)}, 36, 12);
      row("Variate/Stan", {ratio(v.ms_per_leapfrog, stan_leapfrog_ms)}, 36, 12);
    }
    std::printf("  NUTS overhead per leapfrog beyond one (a) gradient: %s ms\n",
                number(v.ms_per_leapfrog - a64.ms).c_str());
    std::printf("  Variate's chain ran with %d intra-op threads (sample_nuts sets cores / chain threads "
                "itself)%s\n", v.intra_op_threads,
                v.intra_op_threads != threads ? ": not the gradient rows' count, so the overhead above "
                                                "mixes in the thread difference" : "");
  }

  std::vector<std::pair<std::string, std::string>> notes;
  if (!a32.why_not.empty()) notes.push_back({"(a) float32", a32.why_not});
  if (!b32.why_not.empty()) notes.push_back({"(b) float32", first_line(b32.why_not)});
  for (const auto& [what, m] : std::vector<std::pair<std::string, const Measured*>>{
           {"(a) float64", &a64}, {"(b) float64", &b64}, {"(c) float64", &c64}, {"(c) float32", &c32}}) {
    if (!m->why_not.empty()) notes.push_back({what + " failed", first_line(m->why_not)});
  }
  if (!stan_failure.empty()) notes.push_back({"Stan", stan_failure});
  if (!notes.empty()) std::printf("\nnotes\n");
  for (const auto& [what, why] : notes) std::printf("  %s: %s\n", what.c_str(), why.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  CLI::App app{"Times a covertype-sized Bayesian logistic regression: the compiled .vmod model, "
               "the C++ API, hand-written LibTorch and (with --stan) Stan, side by side.",
               "variate-bench-logistic"};
  app.add_option("--rows", options.rows, "rows N of the synthetic data set")->check(CLI::PositiveNumber);
  app.add_option("--columns", options.columns, "columns D, the intercept included")->check(CLI::PositiveNumber);
  app.add_option("--seed", options.seed, "seed of the data and of NUTS");
  app.add_option("--threads", options.threads, "LibTorch intra-op threads (0: one per core)")
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
  app.add_flag("--stan", options.stan, "also time Stan 2.21 through Rscript and rstan");
  app.add_option("--stan-cache", options.stan_cache,
                 "folder for the compiled Stan model (default ~/.cache/variate-bench)");
  CLI11_PARSE(app, argc, argv);
  try {
    return run(options);
  } catch (const c10::Error& e) {
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
