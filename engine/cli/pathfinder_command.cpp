#include "engine/cli/pathfinder_command.h"

#include <filesystem>
#include <iostream>

#include "engine/cli/approximation_report.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/summary_file.h"
#include "engine/io/method_csv_writer.h"
#include "engine/services/pathfinder.h"
#include "engine/services/setting_table.h"

namespace variate::cli {
namespace {

namespace setting = services::setting;

std::vector<std::string> method_lines(const services::Settings& s) {
  const auto line = [&s](const auto& key, const std::string& name) {
    const std::string text = key.descriptor().format(*s.value_of(key.descriptor()));
    return io::config_line(4, name, text, !s.given(key.descriptor()));
  };
  return {io::config_line(0, "method", "pathfinder", false),
          "  pathfinder",
          line(setting::history_size, "history_size"),
          line(setting::psis_draws, "num_psis_draws"),
          line(setting::num_paths, "num_paths"),
          io::config_line(4, "psis_resample", s.get(setting::psis_resample) ? "1" : "0", s.get(setting::psis_resample)),
          line(setting::path_iter, "max_lbfgs_iters"),
          line(setting::path_draws, "num_draws"),
          line(setting::elbo_draws, "num_elbo_draws")};
}

void write_csv(const std::string& folder, const services::RunSpec& spec, const services::PathfinderRunResult& r) {
  std::filesystem::create_directories(folder);
  io::MethodCsvWriter csv((std::filesystem::path(folder) / "pathfinder.csv").string(), csv_run_info(spec, r.facts.seed),
                          method_lines(spec.settings), {"lp_approx__", "lp__"}, r.names);
  for (size_t i = 0; i < r.rows.size(); ++i) csv.write_row({r.log_q[i], r.log_p[i]}, r.rows[i]);
  csv.comment("");
  csv.comment("Elapsed Time: " + number("%.3f", r.fit.seconds_paths) + " seconds (Pathfinders)");
  csv.comment("              " + number("%.3f", r.fit.seconds_psis) + " seconds (PSIS)");
  csv.comment("              " + number("%.3f", r.fit.seconds_paths + r.fit.seconds_psis) + " seconds (Total)");
  csv.finish();
}

void print_paths(std::ostream& err, const services::PathfinderRunResult& r) {
  for (const PathResult& path : r.fit.paths) {
    err << "Path [" << path.path + 1 << "] :";
    if (!path.failure.empty()) {
      err << "failed: " << path.failure << "\n";
      continue;
    }
    err << "Best Iter: [" << path.best_iteration << "] ELBO (" << number("%.6g", path.best_elbo)
        << ") evaluations: (" << path.gradient_evaluations << "); L-BFGS: " << describe(path.lbfgs_status)
        << " after " << path.iterations << " iterations\n";
  }
}

void print_summary(std::ostream& out, const services::RunSpec& spec, const services::PathfinderRunResult& r,
                   const std::optional<std::string>& variables) {
  out << "Inference for " << spec.model->name() << ": Pathfinder, " << r.fit.paths.size() << " path"
      << (r.fit.paths.size() == 1 ? "" : "s") << ", " << r.rows.size() << " draws"
      << (r.resampled ? " resampled by Pareto smoothed importance weights" : "") << "; seed " << r.facts.seed << "\n"
      << r.fit.gradient_evaluations << " evaluations of the log density, " << number("%.3g", r.fit.seconds_paths)
      << " s\n\n"
      << format_table(r.summary, variables)
      << "\nDraws are approximate draws (independent given the paths): R-hat and ESS do not apply.\n";
  print_k_hat(out, r.fit.pareto_k,
              "Use the draws as starting points (`variate sample --init pathfinder`) rather than as the posterior, or "
              "sample with NUTS.");
}

int run_pathfinder(const CommandRun& run, const ModelArgument& model, const Program& program) {
  try {
    const services::RunSpec spec = run_spec(run, model, program);
    services::RunControl control;
    InterruptStops interrupt(control, false);
    const services::PathfinderRunResult result =
        services::run_pathfinder(spec, terminal_observers(std::cerr, &control));
    if (result.stopped_before_draws) {
      std::cerr << "Stopped before any path found an approximation\n";
      return 130;
    }
    if (!run.quiet) print_paths(std::cerr, result);
    print_summary(std::cout, spec, result, run.summary_variables);
    if (run.output) write_csv(*run.output, spec, result);
    if (run.summary_json) write_summary_file(*run.summary_json, result.document);
    return interrupt.interrupted() ? 130 : 0;
  } catch (const std::exception& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_pathfinder_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model,
                            const Program& program) {
  auto run = std::make_shared<CommandRun>();
  run->method = services::Method::pathfinder;
  CLI::App* command = app.add_subcommand(
      "pathfinder", "Approximate draws by Pathfinder (quasi-Newton paths, Pareto smoothed importance resampling)");
  add_run_options(*command, *run, *model,
                  {"Write pathfinder.csv (CmdStan's layout) into this folder", true, false, "No per-path lines"});
  command->callback([run, model, program, &exit_code] { exit_code = run_pathfinder(*run, *model, program); });
}

}  // namespace variate::cli
