#include "stan_models.h"

#include <numeric>

#include "r_script.h"

namespace variate::bench {

double StanModelRun::seconds() const {
  return std::accumulate(warmup_s.begin(), warmup_s.end(), 0.0) +
         std::accumulate(sampling_s.begin(), sampling_s.end(), 0.0);
}

StanModelRun run_stan_model(const std::string& stan_file, const std::string& data_json,
                            const StanModelOptions& options) {
  TemporaryFolder folder;
  const RScript r(
      "stan_models.R",
      {folder.path().string(), stan_file, data_json, cache_dir_or_default(options.cache_dir),
       std::to_string(options.chains), std::to_string(options.cores),
       std::to_string(options.warmup), std::to_string(options.draws), std::to_string(options.seed)},
      folder.path());
  StanModelRun run;
  run.compiled_fresh = r.compiled_fresh();
  run.compile_s = r.number("compile_s");
  run.warmup_s = r.numbers("warmup_s");
  run.sampling_s = r.numbers("sampling_s");
  run.leapfrog = static_cast<int64_t>(r.number("leapfrog"));
  run.divergent = static_cast<int64_t>(r.number("divergent"));
  run.names = r.words("names");
  const auto parameters = static_cast<size_t>(r.number("parameters"));
  run.draws = read_draws(folder.path() / "draws.bin", options.chains, options.draws, parameters);
  return run;
}

}  // namespace variate::bench
