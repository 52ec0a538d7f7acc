#include "eight_schools.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <ATen/ATen.h>

#include "engine/model/compile.h"

#include "bulk_ess.h"
#include "nuts_runs.h"

namespace variate::bench {

model::CompiledModel compile_eight_schools(at::ScalarType dtype) {
  const std::string path = std::string(VARIATE_BENCH_DIR) + "/eight_schools_noncentered.vmod";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  Data data;
  data.set("J", int64_t{8});
  data.set("y", at::tensor(std::vector<double>{28, 8, -3, 7, -1, 1, 18, 12}, at::kDouble));
  data.set("sigma", at::tensor(std::vector<double>{15, 10, 16, 11, 9, 11, 10, 18}, at::kDouble));
  model::CompileOptions options;
  options.dtype = dtype;
  model::CompileResult result = model::compile_model(model::Source(path, text.str()), &data, options);
  if (!result.ok() || !result.model) throw std::runtime_error(path + " does not compile:\n" + result.report());
  return *result.model;
}

std::vector<std::string> eight_schools_parameter_names() {
  std::vector<std::string> names = {"mu", "tau"};
  for (int j = 1; j <= 8; ++j) names.push_back("theta_trans[" + std::to_string(j) + "]");
  return names;
}

void set_min_bulk_ess(EssFigures& figures, const std::vector<diagnostics::Draws>& draws,
                      const std::vector<std::string>& names) {
  const MinBulkEss min = min_bulk_ess(draws, names);
  figures.min_bulk_ess = min.ess;
  figures.worst = min.parameter;
}

EssFigures eight_schools_variate(const model::CompiledModel& model, const NutsOptions& options) {
  const NutsFigures run = run_nuts(model.target(), options);
  EssFigures f;
  f.wall_s = run.wall_s;
  f.leapfrog = run.leapfrog;
  f.divergent = run.divergent;
  f.chain_threads = run.chain_threads;
  f.intra_op_threads = run.intra_op_threads;
  // Unconstrained coordinates, sampling iterations only.
  const std::vector<diagnostics::Draws> draws = sampling_draws(run.chains);
  set_min_bulk_ess(f, draws, eight_schools_parameter_names());
  return f;
}

}  // namespace variate::bench
