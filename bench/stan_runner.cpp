#include "stan_runner.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <ATen/ATen.h>

#include "r_script.h"

namespace variate::bench {
namespace {

namespace fs = std::filesystem;

void write_bytes(const fs::path& path, const at::Tensor& contiguous) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(contiguous.data_ptr()),
            static_cast<std::streamsize>(contiguous.numel() * contiguous.element_size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

StanResult run_stan(const LogisticData& data, const at::Tensor& theta, const StanOptions& options) {
  TemporaryFolder folder;
  {
    std::ofstream dims(folder.path() / "dims.txt");
    dims << data.rows() << ' ' << data.columns() << '\n';
  }
  // x_columns is [D, N] row-major: exactly R's column-major N x D matrix.
  write_bytes(folder.path() / "X.bin", data.x_columns.to(at::kDouble).contiguous());
  write_bytes(folder.path() / "y.bin", data.y.to(at::kInt).contiguous());
  write_bytes(folder.path() / "theta.bin", theta.to(at::kDouble).contiguous());
  const std::string bench_dir = VARIATE_BENCH_DIR;
  const RScript r("stan_logistic.R",
                  {folder.path().string(), bench_dir + "/logistic_regression.stan",
                   cache_dir_or_default(options.cache_dir), std::to_string(options.warmup),
                   std::to_string(options.draws), std::to_string(options.gradient.warmup),
                   std::to_string(options.gradient.repeats), std::to_string(options.seed),
                   std::to_string(options.max_tree_depth)},
                  folder.path());
  StanResult result;
  result.compiled_fresh = r.compiled_fresh();
  result.compile_s = r.number("compile_s");
  result.gradient_ms = r.number("grad_ms");
  result.log_prob = r.number("log_prob");
  for (const auto& value : r.words("gradient")) result.gradient.push_back(std::stod(value));
  if (options.draws == 0) return result;
  result.nuts_warmup_s = r.number("nuts_warmup_s");
  result.nuts_sampling_s = r.number("nuts_sampling_s");
  result.nuts_leapfrog = static_cast<int64_t>(r.number("nuts_leapfrog"));
  result.nuts_leapfrog_all = static_cast<int64_t>(r.number("nuts_leapfrog_all"));
  result.nuts_step_size = r.number("nuts_step_size");
  result.nuts_divergent = static_cast<int64_t>(r.number("nuts_divergent"));
  return result;
}

StanEightSchools run_stan_eight_schools(int chains, int cores, int warmup, int draws, uint64_t seed,
                                        const std::string& cache_dir) {
  TemporaryFolder folder;
  const std::string bench_dir = VARIATE_BENCH_DIR;
  const RScript r("stan_eight_schools.R",
                  {folder.path().string(), bench_dir + "/eight_schools_noncentered.stan",
                   cache_dir_or_default(cache_dir), std::to_string(chains), std::to_string(cores),
                   std::to_string(warmup), std::to_string(draws), std::to_string(seed)},
                  folder.path());
  StanEightSchools result;
  result.compiled_fresh = r.compiled_fresh();
  result.compile_s = r.number("compile_s");
  result.wall_s = r.number("wall_s");
  result.leapfrog = static_cast<int64_t>(r.number("leapfrog"));
  result.divergent = static_cast<int64_t>(r.number("divergent"));
  const auto parameters = static_cast<size_t>(r.number("parameters"));
  result.draws = read_draws(folder.path() / "draws.bin", chains, draws, parameters);
  return result;
}

}  // namespace variate::bench
