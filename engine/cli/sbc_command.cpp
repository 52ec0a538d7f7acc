#include "engine/cli/sbc_command.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "engine/cli/approximation_report.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/setting_options.h"
#include "engine/cli/summary_file.h"
#include "engine/core/argument_error.h"
#include "engine/io/stan_csv_format.h"
#include "engine/services/sbc.h"
#include "engine/services/sbc_ranks_csv.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"

namespace variate::cli {
namespace {

namespace setting = services::setting;

// What `variate sbc` takes beside the settings.
struct SbcOptions {
  CommandRun run;
  std::vector<std::string> workers;
  std::optional<int64_t> resume;  // a run of --project to continue
};

std::string method_text(const services::SbcSpec& spec) {
  const services::Settings& s = spec.run.settings;
  if (s.get(setting::fit) == "advi") return "ADVI";
  if (s.get(setting::fit) == "pathfinder") return "Pathfinder";
  return "NUTS, " + std::to_string(s.get(setting::chains)) + " chains of " + std::to_string(s.get(setting::draws)) +
         " draws after " + std::to_string(s.get(setting::warmup)) + " warmup";
}

std::string ecdf_text(const services::SbcQuantityTest& test) {
  if (test.ecdf.uniform) return "inside";
  return "outside at rank " + std::to_string(test.ecdf.first_outside - 1);
}

void print_problems(std::ostream& out, const services::SbcResult& r);

void print_summary(std::ostream& out, const services::SbcSpec& spec, const services::SbcResult& r) {
  int ran = 0;  // fitted (not failed, not left by a stop)
  for (const auto& replication : r.replications) ran += replication.ranks.empty() ? 0 : 1;
  out << "Simulation-based calibration of " << spec.run.model->name() << ": " << ran << " of " << r.replications.size()
      << " replications fitted by " << method_text(spec) << ", thinned by " << spec.run.settings.get(setting::thin)
      << " (ranks 0 to " << r.max_rank << "); seed " << r.seed << "\n";
  if (r.processes > 1) out << "The replications shared by " << r.processes << " processes\n";
  if (const auto generator = spec.run.settings.get(setting::generator))
    out << "Data simulated from " << *generator << "\n";
  if (r.tests.empty()) {
    out << "\nNo replication was fitted: no ranks to test.\n";
    return;
  }
  const auto& first = r.tests.front();
  const int percent = static_cast<int>(std::lround(spec.prob * 100));
  out << "Each quantity's ranks against uniform: the ECDF's simultaneous " << percent
      << "% band, and the chi-square of " << first.chi_square.counts.size() << " bins\n\n";
  size_t width = 8;
  for (const auto& test : r.tests) width = std::max(width, test.name.size());
  char line[256];
  std::snprintf(line, sizeof line, "%-*s  %-22s  %10s  %8s  %s\n", static_cast<int>(width), "Quantity", "ECDF",
                "Chi-square", "p", "Verdict");
  out << line;
  int rejected = 0;
  for (const auto& test : r.tests) {
    const bool uniform = test.uniform();
    rejected += uniform ? 0 : 1;
    std::snprintf(line, sizeof line, "%-*s  %-22s  %10s  %8s  %s\n", static_cast<int>(width), test.name.c_str(),
                  ecdf_text(test).c_str(), number("%.1f", test.chi_square.statistic).c_str(),
                  number("%.3f", test.chi_square.p_value).c_str(), uniform ? "uniform" : "NOT uniform");
    out << line;
  }
  out << "\n";
  if (rejected == 0) {
    out << "No quantity's ranks depart from uniform at " << 100 - percent << "%: no sign of miscalibration.\n";
  } else {
    out << rejected << " of " << r.tests.size() << " quantities' ranks depart from uniform at " << 100 - percent
        << "%: the fits are miscalibrated (or the data are simulated from another model).\n";
  }
  print_problems(out, r);
}

// The replications whose fits had problems, counted by kind; the first ten named.
void print_problems(std::ostream& out, const services::SbcResult& r) {
  int failed = 0, divergent = 0, unconverged = 0, count = 0;
  std::string first;
  for (const auto& replication : r.replications) {
    if (!replication.problem()) continue;
    failed += replication.failure.empty() ? 0 : 1;
    divergent += replication.divergences > 0 ? 1 : 0;
    unconverged += replication.max_rhat > diagnostics::kMaxRhat ? 1 : 0;
    if (count++ < 10) first += (count > 1 ? ", " : "") + std::to_string(replication.index + 1);
  }
  if (count > 0) {
    out << count << " replication" << (count == 1 ? "" : "s") << " had problems: " << failed << " failed, " << divergent
        << " with divergent transitions, " << unconverged << " with R-hat above 1.01 (ranks of those that ran are "
        << "included); " << (count > 10 ? "the first 10: " : "") << first << "\n";
  }
}

void write_ranks(const std::string& folder, const services::SbcResult& r) {
  std::filesystem::create_directories(folder);
  std::ofstream csv((std::filesystem::path(folder) / "ranks.csv").string());
  std::vector<store::SbcReplicationRecord> ended;
  for (const auto& replication : r.replications) {
    if (replication.ended) ended.push_back(replication.record(r.max_rank));
  }
  services::write_sbc_ranks_csv(csv, r.quantities, ended);
}

int run_sbc(const SbcOptions& options, const ModelArgument& model, const Program& program) {
  try {
    services::SbcSpec spec;
    spec.run = run_spec(options.run, model, program);
    spec.run.method = services::Method::sbc;
    if (options.resume && !options.run.project) throw ArgumentError("--resume needs the --project that holds the run");
    spec.run.record.continues = options.resume;
    spec.workers = options.workers;
    services::RunControl control;
    InterruptStops interrupt(control, false);
    const int total = spec.run.settings.get(setting::replications);
    const bool quiet = options.run.quiet;
    services::RunObservers observers = terminal_observers(std::cerr, &control);
    observers.started = [&](const services::RunStarted& started) {
      if (started.run_id >= 0 && !options.resume && !quiet) {
        std::cerr << "run " << started.run_id << " in " << *options.run.project << "\n";
      }
    };
    const services::SbcResult result =
        services::run_sbc(spec, observers, [quiet, total](const services::SbcReplication& r, int64_t, int done) {
          if (!r.failure.empty()) std::cerr << "Replication " << r.index + 1 << " failed: " << r.failure << "\n";
          if (quiet) return;
          if (done == total || done % std::max(1, total / 10) == 0) {
            std::cerr << "Replications: " << done << " / " << total << "\n" << std::flush;
          }
        });
    if (!result.root) return 0;  // rank 0 reports
    print_summary(std::cout, spec, result);
    if (options.run.output) write_ranks(*options.run.output, result);
    if (options.run.summary_json) write_summary_file(*options.run.summary_json, result.document);
    return interrupt.interrupted() || result.stopped ? 130 : 0;
  } catch (const std::exception& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_sbc_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program) {
  auto options = std::make_shared<SbcOptions>();
  options->run.method = services::Method::nuts;
  CLI::App* command = app.add_subcommand(
      "sbc",
      "Simulation-based calibration: fit data simulated from the prior, test each quantity's ranks for uniformity");
  model->add_to(*command);
  command->add_option("--data", options->run.data,
                      "Data file: its sizes and covariates are kept, its observations simulated");
  // SBC's settings, then the fit's as `variate sample` takes them (one process per fit).
  add_setting_options(*command, services::Method::sbc, options->run.settings);
  std::set<std::string> left_out;
  for (const services::SettingDescriptor* setting : services::settings_of(services::Method::nuts)) {
    if (!services::sbc_fit_takes(*setting)) left_out.insert(setting->name);
  }
  add_setting_options(*command, services::Method::nuts, options->run.settings, left_out);
  command->add_option("--worker", options->workers,
                      "HOST:PORT of a `variate worker` that fits replications too, one at a time (repeatable; with "
                      "--token-file)");
  // Several processes share the replications, on this host (--nproc) or across hosts.
  command->add_option("--rendezvous", options->run.rendezvous,
                      "Across hosts: HOST:PORT where rank 0 serves the rendezvous (port 0: one the system picks, "
                      "printed), or file:PATH on a shared file system");
  command->add_option("--world-size", options->run.world_size, "Across hosts: the number of processes")
      ->check(CLI::PositiveNumber);
  command->add_option("--rank", options->run.rank, "Across hosts: this process's rank, 0 to world size - 1")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--output", options->run.output, "Write ranks.csv (one row per replication) into this folder");
  command->add_option("--summary-json", options->run.summary_json, "Write the tests and verdicts as JSON");
  command->add_option("--project", options->run.project,
                      "Record the run into this project file (*.variate; created if absent): each replication as it "
                      "ends");
  command->add_option("--run-name", options->run.run_name, "Name of the run in the project (default: run N)");
  command->add_option("--resume", options->resume,
                      "Continue this SBC run of --project: fit the replications it lacks (after a stop or a crash)");
  command->add_flag("--quiet", options->run.quiet, "No progress lines");
  command->callback([options, model, program, &exit_code] { exit_code = run_sbc(*options, *model, program); });
}

}  // namespace variate::cli
