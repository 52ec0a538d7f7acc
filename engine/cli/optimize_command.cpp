#include "engine/cli/optimize_command.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "engine/diagnostics/psis.h"
#include "engine/io/method_csv_writer.h"
#include "engine/optimize/find_mode.h"
#include "engine/optimize/hessian.h"
#include "engine/optimize/laplace.h"
#include "engine/optimize/maximum_likelihood.h"

#include "engine/cli/independent_draws.h"
#include "engine/cli/summary_file.h"
#include "engine/core/version.h"

namespace variate::cli {
namespace {

struct OptimizeOptions {
  std::optional<std::string> data;
  std::optional<uint64_t> seed;
  bool jacobian = false, no_jacobian = false;
  bool mle = false;
  bool newton = true;
  int laplace_draws = 0;
  std::optional<std::string> output;
  std::optional<std::string> summary_json;
  int iter = 2000;
  int history_size = 5;
  double init_alpha = 1e-3;
  double tol_obj = 1e-12, tol_rel_obj = 1e4, tol_grad = 1e-8, tol_rel_grad = 1e7, tol_param = 1e-8;
  bool quiet = false;
};

// Whether the density includes the Jacobian: as asked; by default off (Stan's optimize),
// except for Laplace draws, which approximate the unconstrained posterior (Stan's laplace).
bool uses_jacobian(const OptimizeOptions& o) {
  if (o.jacobian || o.no_jacobian) return o.jacobian;
  return o.laplace_draws > 0 && !o.mle;
}

LbfgsOptions lbfgs_options(const OptimizeOptions& o) {
  return LbfgsOptions()
      .max_iterations(o.iter)
      .history_size(o.history_size)
      .init_alpha(o.init_alpha)
      .tol_obj(o.tol_obj)
      .tol_rel_obj(o.tol_rel_obj)
      .tol_grad(o.tol_grad)
      .tol_rel_grad(o.tol_rel_grad)
      .tol_param(o.tol_param);
}

std::vector<std::string> method_lines(const OptimizeOptions& o, bool jacobian) {
  const auto n = [](double x) { return io::format_number(x, -1); };
  return {io::config_line(0, "method", "optimize", false),
          "  optimize",
          io::config_line(4, "algorithm", "lbfgs", true),
          "      lbfgs",
          io::config_line(8, "init_alpha", n(o.init_alpha), o.init_alpha == 1e-3),
          io::config_line(8, "tol_obj", n(o.tol_obj), o.tol_obj == 1e-12),
          io::config_line(8, "tol_rel_obj", n(o.tol_rel_obj), o.tol_rel_obj == 1e4),
          io::config_line(8, "tol_grad", n(o.tol_grad), o.tol_grad == 1e-8),
          io::config_line(8, "tol_rel_grad", n(o.tol_rel_grad), o.tol_rel_grad == 1e7),
          io::config_line(8, "tol_param", n(o.tol_param), o.tol_param == 1e-8),
          io::config_line(8, "history_size", std::to_string(o.history_size), o.history_size == 5),
          io::config_line(4, "jacobian", jacobian ? "1" : "0", !jacobian),
          io::config_line(4, "iter", std::to_string(o.iter), o.iter == 2000),
          io::config_line(4, "save_iterations", "0", true),
          io::config_line(4, "mle", o.mle ? "1" : "0", !o.mle),
          io::config_line(4, "laplace_draws", std::to_string(o.laplace_draws), o.laplace_draws == 0)};
}

int run_optimize(const OptimizeOptions& o, const ModelSource& source, std::ostream& out, std::ostream& err) {
  const std::optional<BoundModel> model = source.bind(o.data, err);
  if (!model) return 1;
  const bool jacobian = uses_jacobian(o);
  if (o.jacobian && o.no_jacobian) {
    err << "error: --jacobian and --no-jacobian exclude each other\n";
    return 1;
  }
  if (o.mle && jacobian) {
    err << "error: --mle maximizes the likelihood of the constrained parameters: it takes no --jacobian\n";
    return 1;
  }
  const uint64_t seed = o.seed ? *o.seed : std::random_device{}();
  const UnconstrainedTarget target = o.mle ? likelihood_only(model->target) : model->target;
  try {
    ModeOptions mode_options;
    mode_options.jacobian = jacobian;
    mode_options.lbfgs = lbfgs_options(o);
    mode_options.seed = seed;
    mode_options.newton_polish = o.newton;
    if (!o.quiet) err << "    Iter      log prob        ||dx||      ||grad||   #evals\n";
    const std::vector<double>* previous = nullptr;
    std::vector<double> last;
    const ModeResult mode = find_mode(target, mode_options, nullptr, [&](const LbfgsIterate& i) {
      if (o.quiet) return true;
      if (i.iteration == 0) {
        err << "Initial log joint probability = " << number("%.6g", -i.value) << "\n";
      } else if (i.iteration % 10 == 0) {
        double dx = 0, g = 0;
        for (size_t k = 0; k < i.x.size(); ++k) {
          dx += previous ? (i.x[k] - (*previous)[k]) * (i.x[k] - (*previous)[k]) : 0;
          g += i.gradient[k] * i.gradient[k];
        }
        err << number("%8d", i.iteration) << number("  %12.6g", -i.value) << number("  %12.4g", std::sqrt(dx))
            << number("  %12.4g", std::sqrt(g)) << number("  %7d", i.evaluations) << "\n";
      }
      last = i.x;
      previous = &last;
      return true;
    });
    const LbfgsResult& lbfgs = mode.lbfgs;
    const bool ok = converged(lbfgs.status);
    err << (ok ? "" : "Error: ") << describe(lbfgs.status) << "\n";
    const std::vector<double> mode_row = model->columns.rows({lbfgs.x}).front();
    const auto names = model->columns.names(NameStyle::Bracketed);

    out << "Inference for " << source.name() << ": " << (o.mle ? "maximum likelihood" : "posterior mode")
        << " by L-BFGS" << (jacobian ? " (with the Jacobian: the mode of the unconstrained density)" : "")
        << "; seed " << seed << "\n"
        << describe(lbfgs.status) << " after " << lbfgs.iterations << " iterations"
        << (mode.newton_steps > 0 ? ", then " + std::to_string(mode.newton_steps) +
                                        " Newton steps with the exact Hessian (L-BFGS's curvature estimate had "
                                        "stopped short of the mode)"
                                  : std::string())
        << " (" << lbfgs.evaluations << " evaluations); " << (o.mle ? "log likelihood " : "log density ")
        << number("%.6g", mode.log_density) << "\n\n";
    size_t width = 0;
    for (const auto& name : names) width = std::max(width, name.size());
    for (size_t k = 0; k < names.size(); ++k) {
      out << names[k] << std::string(width + 2 - names[k].size(), ' ') << number("%.6g", mode_row[k]) << "\n";
    }

    std::optional<LaplaceApproximation::Draws> draws;
    std::vector<io::SummaryRow> summary;
    double k_hat = NAN;
    std::string hessian_method;
    if (o.laplace_draws > 0 && ok) {
      const HessianResult hessian = log_density_hessian(target, lbfgs.x, jacobian);
      hessian_method = hessian.method;
      const LaplaceApproximation laplace(lbfgs.x, hessian.hessian);
      draws = laplace.draw(target, o.laplace_draws, jacobian, seed);
      summary = summarize_draws(model->columns.rows(tensor_rows(draws->unconstrained)), names);
      out << "\nLaplace approximation at the mode (Hessian by " << hessian.method << "), " << o.laplace_draws
          << " draws:\n\n"
          << format_table(summary);
      k_hat = importance_k_hat(draws->log_p, draws->log_g);
      if (jacobian) {
        print_k_hat(out, k_hat,
                    "The posterior is far from Gaussian on the unconstrained scale: try `variate pathfinder`, "
                    "`variate fit --method fullrank`, or sample with NUTS.");
      } else {
        out << "Note: without the Jacobian these draws approximate the density of the constrained parameters "
               "read on the unconstrained scale, not the posterior; k-hat does not apply.\n";
      }
    } else if (o.laplace_draws > 0) {
      err << "error: no Laplace draws: L-BFGS did not converge to a mode\n";
    }

    if (o.output) {
      std::filesystem::create_directories(*o.output);
      io::CsvRunInfo run;
      run.model = source.name();
      run.data_file = o.data.value_or("");
      run.seed = seed;
      run.variate_version = variate::version();
      const auto csv_names = model->columns.names(NameStyle::StanCsv);
      io::MethodCsvWriter csv((std::filesystem::path(*o.output) / "optimize.csv").string(), run,
                              method_lines(o, jacobian), {"lp__"}, csv_names);
      csv.write_row({mode.log_density}, mode_row);
      csv.finish();
      if (draws) {
        std::vector<std::string> lines = {io::config_line(0, "method", "laplace", false), "  laplace",
                                          io::config_line(4, "jacobian", jacobian ? "1" : "0", jacobian),
                                          io::config_line(4, "draws", std::to_string(o.laplace_draws),
                                                          o.laplace_draws == 1000)};
        io::MethodCsvWriter laplace_csv((std::filesystem::path(*o.output) / "laplace.csv").string(), run, lines,
                                        {"log_p__", "log_g__"}, csv_names);
        const auto rows = model->columns.rows(tensor_rows(draws->unconstrained));
        for (size_t i = 0; i < rows.size(); ++i) {
          laplace_csv.write_row({draws->log_p[i].item<double>(), draws->log_g[i].item<double>()}, rows[i]);
        }
        laplace_csv.finish();
      }
    }
    if (o.summary_json) {
      nlohmann::ordered_json document =
          summary.empty() ? nlohmann::ordered_json::object()
                          : io::summary_document(summary, std::nullopt, target.backend());
      nlohmann::ordered_json values = nlohmann::ordered_json::object();
      for (size_t k = 0; k < names.size(); ++k) values[names[k]] = mode_row[k];
      document["optimize"] = {{"status", ok ? "converged" : "not_converged"},
                              {"message", describe(lbfgs.status)},
                              {"mle", o.mle},
                              {"jacobian", jacobian},
                              {"iterations", lbfgs.iterations},
                              {"evaluations", lbfgs.evaluations},
                              {"log_density", mode.log_density},
                              {"newton_steps", mode.newton_steps},
                              {"newton_decrement", std::isfinite(mode.newton_decrement)
                                                       ? nlohmann::ordered_json(mode.newton_decrement)
                                                       : nlohmann::ordered_json(nullptr)},
                              {"seconds", mode.seconds},
                              {"mode", values},
                              {"unconstrained_mode", lbfgs.x}};
      if (draws) {
        document["laplace"] = {{"draws", o.laplace_draws},
                               {"hessian", hessian_method},
                               {"pareto_k", nlohmann::ordered_json::parse(k_hat_json(k_hat))},
                               {"pareto_k_ok", jacobian && k_hat <= diagnostics::kPsisKHatThreshold}};
      }
      write_summary_file(*o.summary_json, document);
    }
    return ok && (o.laplace_draws == 0 || draws) ? 0 : 1;
  } catch (const ArgumentError& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_optimize_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelSource> source) {
  auto o = std::make_shared<OptimizeOptions>();
  CLI::App* command = app.add_subcommand(
      "optimize", "The posterior mode or maximum likelihood estimate by L-BFGS, with optional Laplace draws");
  source->add_arguments(*command, ModelCommand::fit);
  command->add_option("--data", o->data, "Data file (CmdStan JSON or CSV)");
  command->add_option("--seed", o->seed, "Random seed of the start and the draws (default: drawn at random and printed)");
  command->add_flag("--no-jacobian", o->no_jacobian, "Leave the Jacobian out, also for Laplace draws");
  command->add_flag("--jacobian", o->jacobian,
                    "Include the Jacobian of the constraining transforms: the mode of the unconstrained density "
                    "(default: off, the mode of the constrained parameters, as Stan's optimize; on with "
                    "--laplace-draws, as Stan's laplace)");
  command->add_flag("--mle", o->mle, "Maximize the likelihood alone (the priors of the parameters left out)");
  command->add_flag("!--no-newton", o->newton,
                    "Stop where L-BFGS's tests stop (by default Newton steps with the exact Hessian finish the "
                    "job, since those tests stop short of the mode on ridges)");
  command->add_option("--laplace-draws", o->laplace_draws,
                      "Draws from the Laplace approximation at the mode (Gaussian, the inverse Hessian its covariance)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--output", o->output, "Write optimize.csv (and laplace.csv) in CmdStan's layout into this folder");
  command->add_option("--summary-json", o->summary_json, "Write the mode (and the draws' summary) as JSON");
  command->add_option("--iter", o->iter, "Maximum number of iterations")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--history-size", o->history_size, "Curvature pairs L-BFGS keeps")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--init-alpha", o->init_alpha, "First trial step length")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--tol-obj", o->tol_obj, "Converged when the objective changes by less")->capture_default_str();
  command->add_option("--tol-rel-obj", o->tol_rel_obj, "... or its relative change is below this many epsilons")->capture_default_str();
  command->add_option("--tol-grad", o->tol_grad, "... or the gradient's norm is below this")->capture_default_str();
  command->add_option("--tol-rel-grad", o->tol_rel_grad, "... or the relative gradient is below this many epsilons")->capture_default_str();
  command->add_option("--tol-param", o->tol_param, "... or the step's norm is below this")->capture_default_str();
  command->add_flag("--quiet", o->quiet, "No iteration trace");
  command->callback([o, source, &exit_code] { exit_code = run_optimize(*o, *source, std::cout, std::cerr); });
}

}  // namespace variate::cli
