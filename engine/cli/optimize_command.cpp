#include "engine/cli/optimize_command.h"

#include <cmath>
#include <filesystem>
#include <iostream>

#include "engine/cli/approximation_report.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/summary_file.h"
#include "engine/io/method_csv_writer.h"
#include "engine/services/optimize.h"
#include "engine/services/setting_table.h"

namespace variate::cli {
namespace {

namespace setting = services::setting;

std::vector<std::string> method_lines(const services::Settings& s, bool jacobian) {
  const auto line = [&s](int indent, const auto& key, const std::string& name) {
    const std::string text = key.descriptor().format(*s.value_of(key.descriptor()));
    return io::config_line(indent, name, text, !s.given(key.descriptor()));
  };
  return {io::config_line(0, "method", "optimize", false),
          "  optimize",
          io::config_line(4, "algorithm", "lbfgs", true),
          "      lbfgs",
          line(8, setting::init_alpha, "init_alpha"),
          line(8, setting::tol_obj, "tol_obj"),
          line(8, setting::lbfgs_tol_rel_obj, "tol_rel_obj"),
          line(8, setting::tol_grad, "tol_grad"),
          line(8, setting::tol_rel_grad, "tol_rel_grad"),
          line(8, setting::tol_param, "tol_param"),
          line(8, setting::history_size, "history_size"),
          io::config_line(4, "jacobian", jacobian ? "1" : "0", !jacobian),
          line(4, setting::lbfgs_iter, "iter"),
          io::config_line(4, "save_iterations", "0", true),
          io::config_line(4, "mle", s.get(setting::mle) ? "1" : "0", !s.get(setting::mle)),
          line(4, setting::laplace_draws, "laplace_draws")};
}

void write_csv(const std::string& folder, const services::RunSpec& spec, const services::OptimizeResult& r) {
  std::filesystem::create_directories(folder);
  const io::CsvRunInfo run = csv_run_info(spec, r.facts.seed);
  io::MethodCsvWriter csv((std::filesystem::path(folder) / "optimize.csv").string(), run,
                          method_lines(spec.settings, r.jacobian), {"lp__"}, r.names);
  csv.write_row({r.mode.log_density}, r.mode_row);
  csv.finish();
  if (!r.draw_rows) return;
  const int draws = spec.settings.get(setting::laplace_draws);
  const std::vector<std::string> lines = {io::config_line(0, "method", "laplace", false), "  laplace",
                                          io::config_line(4, "jacobian", r.jacobian ? "1" : "0", r.jacobian),
                                          io::config_line(4, "draws", std::to_string(draws), draws == 1000)};
  io::MethodCsvWriter laplace((std::filesystem::path(folder) / "laplace.csv").string(), run, lines,
                              {"log_p__", "log_g__"}, r.names);
  for (size_t i = 0; i < r.draw_rows->size(); ++i) laplace.write_row({r.log_p[i], r.log_g[i]}, (*r.draw_rows)[i]);
  laplace.finish();
}

void print_mode(std::ostream& out, const services::RunSpec& spec, const services::OptimizeResult& r,
                const std::optional<std::string>& variables) {
  const bool mle = spec.settings.get(setting::mle);
  const LbfgsResult& lbfgs = r.mode.lbfgs;
  out << "Inference for " << spec.model->name() << ": " << (mle ? "maximum likelihood" : "posterior mode")
      << " by L-BFGS" << (r.jacobian ? " (with the Jacobian: the mode of the unconstrained density)" : "")
      << "; seed " << r.facts.seed << "\n"
      << describe(lbfgs.status) << " after " << lbfgs.iterations << " iterations"
      << (r.mode.newton_steps > 0 ? ", then " + std::to_string(r.mode.newton_steps) +
                                        (r.mode.newton_steps == 1 ? " Newton step" : " Newton steps") + " with the exact Hessian (L-BFGS's curvature estimate had "
                                        "stopped short of the mode)"
                                  : std::string())
      << " (" << lbfgs.evaluations << " evaluations); " << (mle ? "log likelihood " : "log density ")
      << number("%.6g", r.mode.log_density) << "\n\n";
  size_t width = 0;
  for (const auto& name : r.bracketed) width = std::max(width, name.size());
  for (size_t k = 0; k < r.bracketed.size(); ++k) {
    out << r.bracketed[k] << std::string(width + 2 - r.bracketed[k].size(), ' ') << number("%.6g", r.mode_row[k])
        << "\n";
  }
  if (!r.draw_rows) return;
  out << "\nLaplace approximation at the mode (Hessian by " << r.hessian_method << "), " << r.draw_rows->size()
      << " draws:\n\n"
      << format_table(r.summary, variables);
  if (r.jacobian) {
    print_k_hat(out, r.k_hat,
                "The posterior is far from Gaussian on the unconstrained scale: try `variate pathfinder`, "
                "`variate fit --method fullrank`, or sample with NUTS.");
  } else {
    out << "Note: without the Jacobian these draws approximate the density of the constrained parameters read on "
           "the unconstrained scale, not the posterior; k-hat does not apply.\n";
  }
}

// L-BFGS's trace on stderr, as CmdStan prints it: every tenth iteration.
std::function<void(const LbfgsIterate&)> trace(std::ostream& err) {
  auto previous = std::make_shared<std::vector<double>>();
  return [&err, previous](const LbfgsIterate& i) {
    if (i.iteration == 0) {
      err << "    Iter      log prob        ||dx||      ||grad||   #evals\n"
          << "Initial log joint probability = " << number("%.6g", -i.value) << "\n";
    } else if (i.iteration % 10 == 0) {
      double dx = 0, g = 0;
      for (size_t k = 0; k < i.x.size(); ++k) {
        dx += previous->empty() ? 0 : (i.x[k] - (*previous)[k]) * (i.x[k] - (*previous)[k]);
        g += i.gradient[k] * i.gradient[k];
      }
      err << number("%8.0f", i.iteration) << number("  %12.6g", -i.value) << number("  %12.4g", std::sqrt(dx))
          << number("  %12.4g", std::sqrt(g)) << number("  %7.0f", i.evaluations) << "\n";
    }
    *previous = i.x;
  };
}

int run_optimize(const CommandRun& run, const ModelArgument& model, const Program& program) {
  try {
    const services::RunSpec spec = run_spec(run, model, program);
    services::RunControl control;
    InterruptStops interrupt(control, false);
    services::RunObservers observers = terminal_observers(std::cerr, &control);
    if (!run.quiet) observers.lbfgs = trace(std::cerr);
    const services::OptimizeResult result = services::run_optimize(spec, observers);
    std::cerr << (result.converged ? "" : "Error: ") << describe(result.mode.lbfgs.status) << "\n";
    if (!result.failure.empty()) std::cerr << "error: " << result.failure << "\n";
    print_mode(std::cout, spec, result, run.summary_variables);
    if (run.output) write_csv(*run.output, spec, result);
    if (run.summary_json) write_summary_file(*run.summary_json, result.document);
    if (interrupt.interrupted()) return 130;
    return result.converged ? 0 : 1;
  } catch (const std::exception& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_optimize_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program) {
  auto run = std::make_shared<CommandRun>();
  run->method = services::Method::optimize;
  CLI::App* command = app.add_subcommand(
      "optimize", "The posterior mode or maximum likelihood estimate by L-BFGS, with optional Laplace draws");
  add_run_options(*command, *run, *model,
                  {"Write optimize.csv (and laplace.csv) in CmdStan's layout into this folder", true, false,
                   "No iteration trace"});
  command->callback([run, model, program, &exit_code] { exit_code = run_optimize(*run, *model, program); });
}

}  // namespace variate::cli
