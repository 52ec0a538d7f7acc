#pragma once
/// The models variate-bench-models runs: every folder of tests/data/reference/ (a
/// posteriordb posterior: model.vmod + data.json) and of projects/ (<name>.vmod +
/// data.json), each with its Stan program for Stan 2.21 from bench/stan/.

#include <string>
#include <vector>

#include "engine/model/compiled_model.h"

namespace variate::bench {

struct BenchModel {
  std::string name;  // the folder's name: "arK-arK", "radon"
  std::string vmod_path;
  std::string data_path;
  /// bench/stan/<name>.stan (eight schools: bench/eight_schools_noncentered.stan); empty
  /// when there is none.
  std::string stan_path;
};

/// The reference posteriors first, then the projects, each in name order.
/// @throws std::runtime_error if a folder has no data.json or not exactly one .vmod file.
std::vector<BenchModel> find_bench_models();

/// The model compiled with its data bound (float64, default options).
/// @throws std::runtime_error with the compiler's report if it does not compile.
model::CompiledModel compile_bench_model(const BenchModel& model);

/// The unconstrained coordinates' names: "mu", "beta[2]".
std::vector<std::string> coordinate_names(const ParameterLayout& layout);

/// The parameters whose transform is not element-wise monotone (simplex, ordered, ...):
/// for those, the bulk-ESS of the unconstrained coordinates differs from that of the
/// constrained values. Empty for every model shipped today.
std::vector<std::string> not_rank_preserving(const ParameterLayout& layout);

}  // namespace variate::bench
