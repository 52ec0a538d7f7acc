#include "engine/cli/pathfinder_command.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "engine/diagnostics/psis.h"
#include "engine/io/method_csv_writer.h"
#include "engine/pathfinder/pathfinder.h"

#include "engine/cli/independent_draws.h"
#include "engine/cli/summary_file.h"
#include "engine/core/version.h"

namespace variate::cli {
namespace {

struct PathfinderCommandOptions {
  std::optional<std::string> data;
  std::optional<uint64_t> seed;
  int num_paths = 4;
  int draws = 1000;
  int psis_draws = 1000;
  bool psis_resample = true;
  int elbo_draws = 25;
  int iter = 1000;
  int history_size = 5;
  std::optional<std::string> output;
  std::optional<std::string> summary_json;
  bool quiet = false;
};

std::vector<std::string> method_lines(const PathfinderCommandOptions& o) {
  return {io::config_line(0, "method", "pathfinder", false),
          "  pathfinder",
          io::config_line(4, "history_size", std::to_string(o.history_size), o.history_size == 5),
          io::config_line(4, "num_psis_draws", std::to_string(o.psis_draws), o.psis_draws == 1000),
          io::config_line(4, "num_paths", std::to_string(o.num_paths), o.num_paths == 4),
          io::config_line(4, "psis_resample", o.psis_resample ? "1" : "0", o.psis_resample),
          io::config_line(4, "max_lbfgs_iters", std::to_string(o.iter), o.iter == 1000),
          io::config_line(4, "num_draws", std::to_string(o.draws), o.draws == 1000),
          io::config_line(4, "num_elbo_draws", std::to_string(o.elbo_draws), o.elbo_draws == 25)};
}

int run_pathfinder(const PathfinderCommandOptions& o, const ModelSource& source, std::ostream& out,
                   std::ostream& err) {
  const std::optional<BoundModel> model = source.bind(o.data, err);
  if (!model) return 1;
  const uint64_t seed = o.seed ? *o.seed : std::random_device{}();
  PathfinderOptions options = PathfinderOptions()
                                  .seed(seed)
                                  .num_paths(o.num_paths)
                                  .num_draws(o.draws)
                                  .num_psis_draws(o.psis_draws)
                                  .psis_resample(o.psis_resample)
                                  .num_elbo_draws(o.elbo_draws);
  options.lbfgs().max_iterations(o.iter).history_size(o.history_size);
  try {
    const PathfinderResult fit = pathfinder(model->target, options);
    for (const PathResult& path : fit.paths) {
      if (o.quiet) break;
      err << "Path [" << path.path + 1 << "] :";
      if (!path.failure.empty()) {
        err << "failed: " << path.failure << "\n";
        continue;
      }
      err << "Best Iter: [" << path.best_iteration << "] ELBO (" << number("%.6g", path.best_elbo)
          << ") evaluations: (" << path.gradient_evaluations << "); L-BFGS: " << describe(path.lbfgs_status)
          << " after " << path.iterations << " iterations\n";
    }
    const auto rows = model->columns.rows(tensor_rows(fit.draws));
    const auto names = model->columns.names(NameStyle::Bracketed);
    const auto summary = summarize_draws(rows, names);
    const int64_t kept = fit.draws.size(0);
    out << "Inference for " << source.name() << ": Pathfinder, " << fit.paths.size() << " path"
        << (fit.paths.size() == 1 ? "" : "s") << ", " << kept << " draws"
        << (o.num_paths > 1 && o.psis_resample ? " resampled by Pareto smoothed importance weights" : "")
        << "; seed " << seed << "\n"
        << fit.gradient_evaluations << " evaluations of the log density, " << number("%.3g", fit.seconds_paths)
        << " s\n\n"
        << format_table(summary)
        << "\nDraws are approximate draws (independent given the paths): R-hat and ESS do not apply.\n";
    print_k_hat(out, fit.pareto_k,
                "Use the draws as starting points (`variate sample --init pathfinder`) rather than as the posterior, "
                "or sample with NUTS.");

    if (o.output) {
      std::filesystem::create_directories(*o.output);
      io::CsvRunInfo run;
      run.model = source.name();
      run.data_file = o.data.value_or("");
      run.seed = seed;
      run.variate_version = variate::version();
      io::MethodCsvWriter csv((std::filesystem::path(*o.output) / "pathfinder.csv").string(), run, method_lines(o),
                              {"lp_approx__", "lp__"}, model->columns.names(NameStyle::StanCsv));
      for (size_t i = 0; i < rows.size(); ++i) {
        csv.write_row({fit.log_q[i].item<double>(), fit.log_p[i].item<double>()}, rows[i]);
      }
      csv.comment("");
      csv.comment("Elapsed Time: " + number("%.3f", fit.seconds_paths) + " seconds (Pathfinders)");
      csv.comment("              " + number("%.3f", fit.seconds_psis) + " seconds (PSIS)");
      csv.comment("              " + number("%.3f", fit.seconds_paths + fit.seconds_psis) + " seconds (Total)");
      csv.finish();
    }
    if (o.summary_json) {
      auto document =
          io::summary_document(summary, std::nullopt, model->target.backend());
      nlohmann::ordered_json paths = nlohmann::ordered_json::array();
      for (const PathResult& path : fit.paths) {
        paths.push_back({{"path", path.path + 1},
                         {"failure", path.failure},
                         {"lbfgs", describe(path.lbfgs_status)},
                         {"iterations", path.iterations},
                         {"best_iteration", path.best_iteration},
                         {"best_elbo", std::isfinite(path.best_elbo) ? nlohmann::ordered_json(path.best_elbo)
                                                                     : nlohmann::ordered_json(nullptr)},
                         {"gradient_evaluations", path.gradient_evaluations}});
      }
      document["pathfinder"] = {{"paths", paths},
                                {"draws", kept},
                                {"psis_resample", o.num_paths > 1 && o.psis_resample},
                                {"pareto_k", nlohmann::ordered_json::parse(k_hat_json(fit.pareto_k))},
                                {"pareto_k_ok", fit.pareto_k <= diagnostics::kPsisKHatThreshold},
                                {"gradient_evaluations", fit.gradient_evaluations},
                                {"seconds", fit.seconds_paths + fit.seconds_psis}};
      write_summary_file(*o.summary_json, document);
    }
    return 0;
  } catch (const ArgumentError& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_pathfinder_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source) {
  auto o = std::make_shared<PathfinderCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "pathfinder", "Approximate draws by Pathfinder (quasi-Newton paths, Pareto smoothed importance resampling)");
  source->add_arguments(*command, ModelCommand::fit);
  command->add_option("--data", o->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--seed", o->seed, "Random seed (default: drawn at random and printed)");
  command->add_option("--num-paths", o->num_paths, "Single paths from independent random starts")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--draws", o->draws, "Draws per path from its best approximation")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--psis-draws", o->psis_draws, "Draws kept by importance resampling of the pooled draws")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_flag("!--no-psis-resample", o->psis_resample, "Keep every path's draws instead of resampling them");
  command->add_option("--elbo-draws", o->elbo_draws, "Monte Carlo draws per ELBO estimate along a path")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--iter", o->iter, "Maximum L-BFGS iterations per path")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--history-size", o->history_size, "Curvature pairs of the inverse Hessian estimate")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--output", o->output, "Write pathfinder.csv (CmdStan's layout) into this folder");
  command->add_option("--summary-json", o->summary_json, "Write the summary as JSON");
  command->add_flag("--quiet", o->quiet, "No per-path lines");
  command->callback([o, source, &exit_code] { exit_code = run_pathfinder(*o, *source, std::cout, std::cerr); });
}

}  // namespace variate::cli
