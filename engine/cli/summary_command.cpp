#include "engine/cli/summary_command.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include "engine/cli/summary_variables.h"
#include "engine/core/checks.h"
#include "engine/io/chains_summary.h"
#include "engine/mcmc/sampler_columns.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/io/stan_csv_sampler_stats.h"
#include "engine/io/summary_report.h"
#include "engine/io/summary_warnings.h"

namespace variate::cli {
namespace {

struct SummaryOptions {
  std::vector<std::string> files;
  std::optional<std::string> summary_json;
  std::optional<std::string> summary_variables;
};

int run_summary(const SummaryOptions& options) {
  try {
    std::vector<io::StanCsv> chains;
    for (const auto& file : options.files) chains.push_back(io::read_stan_csv(file));
    const auto& columns = chains.front().columns;
    for (const auto& chain : chains) {
      if (chain.columns != columns) {
        throw ArgumentError(chain.file + ": its columns differ from " + chains.front().file + "'s");
      }
    }
    io::ChainRows draws;
    for (const auto& chain : chains) draws.push_back(chain.draws);
    const io::ChainsSummary summary = io::summarize_chains(draws, columns);
    std::cout << chosen_summary_table(summary.parameters, summary.sampler_rows, options.summary_variables);
    std::optional<io::SamplerTotals> totals;
    const std::string& divergent = sampler_column_name(SamplerColumn::divergent);
    if (std::find(columns.begin(), columns.end(), divergent) != columns.end()) {  // NUTS output
      totals = io::sampler_totals(chains);
      for (const auto& line : io::summary_warnings(io::sampler_checks(chains), summary.parameters)) {
        std::cout << line << "\n";
      }
    }
    if (options.summary_json) io::write_summary_json(*options.summary_json, summary.parameters, totals);
    return 0;
  } catch (const ArgumentError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_summary_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<SummaryOptions>();
  CLI::App* command = app.add_subcommand("summary", "Summarize Stan CSV files (one per chain)");
  command->add_option("files", o->files, "Stan CSV files")->required()->check(CLI::ExistingFile);
  command->add_option("--summary-json", o->summary_json, "Write the summary as JSON");
  add_summary_variables_option(*command, o->summary_variables);
  command->callback([o, &exit_code] { exit_code = run_summary(*o); });
}

}  // namespace variate::cli
