#include "cli/summary_command.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include <variate/core/checks.h>
#include <variate/diagnostics/ebfmi.h>
#include <variate/target/parameter_names.h>
#include <variate/io/stan_csv_reader.h>
#include <variate/io/stan_csv_sampler_stats.h>
#include <variate/io/summary_report.h>
#include <variate/io/summary_warnings.h>

#include "cli/run_summary.h"

namespace variate::cli {
namespace {

struct SummaryOptions {
  std::vector<std::string> files;
  std::optional<std::string> summary_json;
};

bool is_sampler_column(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, "__") == 0;
}

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
    std::vector<std::vector<std::vector<double>>> draws;
    for (const auto& chain : chains) draws.push_back(chain.draws);
    std::vector<io::SummaryRow> parameters;
    std::vector<io::SummaryRow> sampler;
    for (size_t k = 0; k < columns.size(); ++k) {
      if (columns[k] == "lp__") {
        const auto row = summarize_columns(draws, k, {"lp__"});
        sampler.insert(sampler.end(), row.begin(), row.end());
      } else if (!is_sampler_column(columns[k])) {
        const auto row = summarize_columns(draws, k, {to_style(columns[k], NameStyle::Bracketed)});
        parameters.insert(parameters.end(), row.begin(), row.end());
      }
    }
    std::cout << io::format_summary_table(parameters, sampler);
    const bool sampled = std::find(columns.begin(), columns.end(), "divergent__") != columns.end();
    std::optional<io::SamplerTotals> totals;
    if (sampled) {
      totals = io::sampler_totals(chains);
      io::SamplerChecks checks = io::sampler_checks(chains);
      for (const auto& chain : chains) {
        if (chain.draws.size() >= 2) checks.ebfmi.push_back(diagnostics::ebfmi(chain.column("energy__")));
      }
      for (const auto& line : io::summary_warnings(checks, parameters)) std::cout << line << "\n";
    }
    if (options.summary_json) io::write_summary_json(*options.summary_json, parameters, totals);
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
  command->callback([o, &exit_code] { exit_code = run_summary(*o); });
}

}  // namespace variate::cli
