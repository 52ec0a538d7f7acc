#pragma once
/// variate-bench-models' tables: the summary (one row per model, then the medians), the
/// sampling runs behind its ESS/s columns, and where Variate's time per leapfrog goes.

#include <vector>

#include "model_figures.h"

namespace variate::bench {

void print_summary_table(const std::vector<ModelFigures>& models, const ModelBenchOptions& options);
void print_sampling_table(const std::vector<ModelFigures>& models,
                          const ModelBenchOptions& options);
/// `variate sample` against the sampler alone: the share of its chain time outside NUTS.
void print_cli_table(const std::vector<ModelFigures>& models);
void print_leapfrog_table(const std::vector<ModelFigures>& models);
/// What could not run, model by model; nothing when everything ran.
void print_notes(const std::vector<ModelFigures>& models);

}  // namespace variate::bench
