#include "engine/cli/loo_command.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "engine/core/argument_error.h"
#include "engine/diagnostics/loo.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/workflow/loo_document.h"

#include "engine/cli/approximation_report.h"
#include "engine/cli/compare_inputs.h"
#include "engine/cli/path_checks.h"
#include "engine/cli/print_error.h"
#include "engine/cli/summary_file.h"

namespace variate::cli {
namespace {

struct LooInput {
  std::vector<diagnostics::Draws> log_lik;  // [observation][chain][draw]
  size_t draws = 0;
};

// The log_lik.N columns of every chain, N = 1, 2, ... until one is missing.
LooInput read_log_lik(const std::vector<std::string>& files) {
  std::vector<io::StanCsv> chains;
  for (const auto& file : files) chains.push_back(io::read_stan_csv(file));
  const auto observations = [](const io::StanCsv& chain) {
    size_t n = 0;
    while (chain.column_index("log_lik." + std::to_string(n + 1))) ++n;
    return n;
  };
  const size_t n = observations(chains[0]);
  if (n == 0) {
    throw ArgumentError(files[0] + " has no log_lik columns (log_lik.1, log_lik.2, ...): the model must compute each "
                        "observation's log likelihood as a quantity named log_lik");
  }
  LooInput input;
  for (const auto& chain : chains) {
    if (observations(chain) != n) {
      throw ArgumentError(chain.file + " has " + std::to_string(observations(chain)) + " log_lik columns, " + files[0] +
                          " has " + std::to_string(n) + ": the files must be chains of one run");
    }
    if (chain.draws.size() != chains[0].draws.size()) {
      throw ArgumentError(chain.file + " has " + std::to_string(chain.draws.size()) + " draws, " + files[0] + " has " +
                          std::to_string(chains[0].draws.size()) + ": the chains must be of one length");
    }
    input.draws += chain.draws.size();
  }
  for (size_t i = 1; i <= n; ++i) {
    diagnostics::Draws observation;
    for (const auto& chain : chains) observation.push_back(chain.column("log_lik." + std::to_string(i)));
    input.log_lik.push_back(std::move(observation));
  }
  return input;
}

std::string row(const char* name, double estimate, double se) {
  return std::string(name) + std::string(10 - std::string(name).size(), ' ') + number("%10.1f", estimate) +
         number("%8.1f", se) + "\n";
}

void print_loo(std::ostream& out, const diagnostics::LooResult& loo, size_t draws) {
  out << "Computed from " << draws << " by " << loo.pareto_k.size() << " log-likelihood matrix\n\n"
      << "          Estimate      SE\n"
      << row("elpd_loo", loo.elpd_loo, loo.se_elpd_loo) << row("p_loo", loo.p_loo, loo.se_p_loo)
      << row("looic", loo.looic, loo.se_looic) << "------\nPareto k diagnostic values:\n";
  const char* labels[] = {"(-Inf, 0.5]   (good)     ", " (0.5, 0.7]   (ok)       ", "   (0.7, 1]   (bad)      ",
                          "   (1, Inf)   (very bad) "};
  int counts[4] = {0, 0, 0, 0};
  for (const double k : loo.pareto_k) ++counts[k <= 0.5 ? 0 : k <= 0.7 ? 1 : k <= 1 ? 2 : 3];
  for (int b = 0; b < 4; ++b) {
    const std::string count = std::to_string(counts[b]);
    out << labels[b] << std::string(count.size() < 5 ? 5 - count.size() : 0, ' ') << count
        << number("%7.1f%%", 100.0 * counts[b] / static_cast<double>(loo.pareto_k.size())) << "\n";
  }
  if (counts[2] + counts[3] == 0) {
    out << (counts[1] == 0 ? "All Pareto k estimates are good (k < 0.5).\n" : "All Pareto k estimates are ok (k < 0.7).\n");
  } else {
    out << "Warning: " << counts[2] + counts[3] << " observation(s) with a Pareto k above 0.7: their leave-one-out "
        << "estimates are unreliable (too influential for importance sampling). Refit without them (exact LOO) or use "
           "K-fold cross-validation.\n";
  }
}

nlohmann::ordered_json loo_json(const diagnostics::LooResult& loo, size_t draws) {
  return nlohmann::ordered_json::parse(workflow::loo_document(loo, draws));
}

struct LooOptions {
  std::vector<std::string> files;
  std::optional<std::string> project;
  std::optional<std::string> run;
  std::optional<std::string> summary_json;
};

struct CompareOptions {
  std::vector<std::string> models;  // NAME=FILE[,FILE...], or with a project its runs
  std::optional<std::string> project;
  std::optional<std::string> summary_json;
};

// Without the project's functions a program reads files only.
void check_reads_projects(const ProjectLoo& project) {
  if (!project.run_loo || !project.compared_runs) throw ArgumentError("this program does not read projects");
}

// A project's errors (store::ProjectError) reach run_command_line, which prints them.
int run_loo(const LooOptions& o, const ProjectLoo& project) {
  try {
    if (o.files.empty() == !o.project || o.project.has_value() != o.run.has_value()) {
      std::cerr << "error: loo takes Stan CSV files, or --project P --run R\n";
      return 1;
    }
    diagnostics::LooResult loo;
    size_t draws = 0;
    if (o.project) {
      check_reads_projects(project);
      std::tie(loo, draws) = project.run_loo(*o.project, *o.run);
    } else {
      const LooInput input = read_log_lik(o.files);
      loo = diagnostics::psis_loo(input.log_lik);
      draws = input.draws;
    }
    print_loo(std::cout, loo, draws);
    if (o.project) std::cout << "Stored with run '" << *o.run << "' in " << *o.project << "\n";
    if (o.summary_json) write_summary_file(*o.summary_json, loo_json(loo, draws));
    return 0;
  } catch (const ArgumentError& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

// loo_compare's table with simplify = FALSE: every estimate beside the differences.
void print_comparison(std::ostream& out, const std::vector<diagnostics::LooComparison>& table) {
  size_t width = 0;
  for (const auto& r : table) width = std::max(width, r.name.size());
  out << std::string(width, ' ')
      << "  elpd_diff  se_diff  elpd_loo  se_elpd_loo   p_loo  se_p_loo    looic  se_looic\n";
  for (const auto& r : table) {
    out << r.name << std::string(width - r.name.size(), ' ') << number("  %9.1f", r.elpd_diff)
        << number("  %7.1f", r.se_diff) << number("  %8.1f", r.elpd_loo) << number("  %11.1f", r.se_elpd_loo)
        << number("  %6.1f", r.p_loo) << number("  %8.1f", r.se_p_loo) << number("  %7.1f", r.looic)
        << number("  %8.1f", r.se_looic) << "\n";
  }
}

int run_compare(const CompareOptions& o, const ProjectLoo& project) {
  try {
    std::vector<std::string> names;
    std::vector<diagnostics::LooResult> fits;
    if (o.project) {
      check_reads_projects(project);
      for (auto& [name, loo] : project.compared_runs(*o.project, o.models)) {
        names.push_back(std::move(name));
        fits.push_back(std::move(loo));
      }
    } else {
      for (const auto& model : compared_chains(o.models)) {
        names.push_back(model.name);
        fits.push_back(diagnostics::psis_loo(read_log_lik(model.files).log_lik));
      }
    }
    if (names.size() < 2) throw ArgumentError("compare needs at least two models; the arguments name " +
                                              std::to_string(names.size()));
    const std::vector<diagnostics::LooComparison> table = diagnostics::compare_loo(names, fits);
    print_comparison(std::cout, table);
    nlohmann::ordered_json models = nlohmann::ordered_json::array();
    for (const auto& r : table) {
      models.push_back({{"name", r.name}, {"elpd_diff", r.elpd_diff}, {"se_diff", r.se_diff}, {"elpd_loo", r.elpd_loo},
                        {"se_elpd_loo", r.se_elpd_loo}, {"p_loo", r.p_loo}, {"se_p_loo", r.se_p_loo},
                        {"looic", r.looic}, {"se_looic", r.se_looic}});
    }
    if (o.summary_json) write_summary_file(*o.summary_json, {{"models", models}});
    return 0;
  } catch (const ArgumentError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_loo_commands(CLI::App& app, int& exit_code, ProjectLoo project) {
  auto loo = std::make_shared<LooOptions>();
  CLI::App* command = app.add_subcommand(
      "loo", "PSIS-LOO (elpd_loo, p_loo, looic, Pareto k) from the log_lik columns of Stan CSV files, one per chain");
  command->add_option("files", loo->files, "Stan CSV files of one run")->check(CLI::ExistingFile);
  command->add_option("--project", loo->project,
                      "Instead of files: a project (*.variate) whose run's LOO is computed from its draws, model and "
                      "data, and stored with the run")
      ->check(CLI::ExistingFile);
  command->add_option("--run", loo->run, "The run in the project: its name or id");
  command->add_option("--summary-json", loo->summary_json, "Write the estimates and every Pareto k as JSON")
      ->check(writable_file_check());
  command->callback([loo, project, &exit_code] { exit_code = run_loo(*loo, project); });

  auto compare = std::make_shared<CompareOptions>();
  CLI::App* compare_command =
      app.add_subcommand("compare", "Rank models by elpd_loo as loo::loo_compare: elpd_diff, se_diff and each model's estimates");
  compare_command->add_option("models", compare->models,
                              "NAME=FILE.csv[,FILE.csv...] for each model (a path may be a quoted glob or a folder of "
                              "chain_N.csv; a folder alone is named by its name), or with --project the runs' names, "
                              "ids or quoted globs of names ('radon*')")
      ->required()
      ->expected(1, 1000);
  compare_command->add_option("--project", compare->project,
                              "Compare runs of this project (*.variate), by their stored LOO (computed and stored "
                              "when a run has none)")
      ->check(CLI::ExistingFile);
  compare_command->add_option("--summary-json", compare->summary_json, "Write the table as JSON")
      ->check(writable_file_check());
  compare_command->callback([compare, project, &exit_code] { exit_code = run_compare(*compare, project); });
}

}  // namespace variate::cli
