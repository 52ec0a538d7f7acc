#include "engine/cli/sample_command.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "engine/cli/chain_output.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/summary_file.h"
#include "engine/cli/summary_variables.h"
#include "engine/io/summary_report.h"
#include "engine/mcmc/warmup.h"
#include "engine/services/sample.h"
#include "engine/services/setting_table.h"

namespace variate::cli {
namespace {

namespace setting = services::setting;

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Where the draws go without --output (or --project): a new folder per run under ./output,
// named by the model and the time. CmdStan writes output.csv in the working folder; a folder per run
// never overwrites an earlier run's draws.
std::string default_output_folder(const std::string& model_name) {
  const std::string stem = std::filesystem::path(model_name).stem().string();
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = (std::filesystem::path("output") / (stem + "-" + stamp)).string();
  std::string folder = base;
  for (int k = 2; std::filesystem::exists(folder); ++k) folder = base + "-" + std::to_string(k);
  std::filesystem::create_directories(folder);
  return folder;
}

// "Draws: out/chain_1.csv to chain_4.csv", and what was kept when Ctrl-C stopped the run.
void print_kept(std::ostream& out, const std::optional<std::string>& folder, const services::SampleResult& r,
                bool interrupted) {
  if (folder) {
    const std::string last = "chain_" + std::to_string(r.chains.size()) + ".csv";
    out << "Draws: " << (std::filesystem::path(*folder) / "chain_1.csv").string()
        << (r.chains.size() > 1 ? " to " + last : std::string()) << "\n";
  }
  if (!interrupted) return;
  out << "Stopped by Ctrl-C: kept";
  for (const auto& chain : r.chains) {
    const int draws = static_cast<int>(chain.stats.size()) - chain.warmup_iterations;
    out << (chain.chain == 0 ? " " : ", ") << std::max(draws, 0);
  }
  out << " draws (chain 1 on); the summary above is of them";
  if (r.run_id >= 0) out << ", and the project keeps them as run " << r.run_id;
  out << ".\n";
}

ChainOutputOptions output_options(const CommandRun& run, const services::RunSpec& spec, std::ostream& err) {
  const services::Settings s = services::sampled_settings(spec.settings);
  ChainOutputOptions output;
  output.directory = run.output;
  output.progress = !run.quiet;
  output.progress_stream = &err;
  output.info.run = csv_run_info(spec, 0);  // the seed once the run has one
  output.info.num_samples = s.get(setting::draws);
  output.info.num_warmup = s.get(setting::warmup);
  output.info.save_warmup = s.get(setting::save_warmup);
  output.info.adapt_delta = s.get(setting::adapt_delta);
  output.info.adaptation = adaptation_used(services::nuts_options(s, 0, 0)) == Adaptation::fisher ? "fisher" : "stan";
  output.info.step_size = s.get(setting::stepsize);
  output.info.max_depth = s.get(setting::max_depth);
  output.info.metric = metric_name(services::metric_kind(s));
  output.info.num_chains = s.get(setting::chains);
  return output;
}

// "1000 warmup", or where the adaptation ended warmup sooner, "352 to 410 warmup (...)".
std::string warmup_text(const services::SampleResult& r) {
  const int pilot = r.pilot ? r.pilot->iterations : 0;  // warmup's first part
  int fewest = r.warmup, most = 0;
  for (const ChainResult& chain : r.chains) {
    fewest = std::min(fewest, pilot + chain.warmup_iterations);
    most = std::max(most, pilot + chain.warmup_iterations);
  }
  if (r.chains.empty() || (fewest == r.warmup && most == r.warmup)) return std::to_string(r.warmup) + " warmup";
  const std::string range =
      fewest == most ? std::to_string(most) : std::to_string(fewest) + " to " + std::to_string(most);
  return range + " warmup (ended once adapted; at most " + std::to_string(r.warmup) + ")";
}

// "Reparameterized: theta 0, a 0 to 1 (centering: 0 non-centered, 1 as written); decided by
// the first 150 warmup iterations (5210 gradient evaluations)"
std::string reparameterized_text(const services::SampleResult& r) {
  std::string text = "Reparameterized:";
  bool first = true;
  for (const auto& [name, centering] : r.centering) {
    const auto [low, high] = std::minmax_element(centering.begin(), centering.end());
    text += std::string(first ? " " : ", ") + name + " " +
            (*low == *high ? number("%g", *low) : number("%g", *low) + " to " + number("%g", *high));
    first = false;
  }
  text += " (centering: 0 non-centered, 1 as written)";
  if (r.pilot) {
    text += "; decided by the first " + std::to_string(r.pilot->iterations) + " warmup iterations (" +
            std::to_string(r.pilot->gradient_evaluations) + " gradient evaluations)";
  }
  return text + "\n";
}

// The summary as CmdStan's stansummary prints it, with the sampler's totals and warnings.
void print_summary(std::ostream& out, const std::string& model, const services::SampleResult& r,
                   const std::optional<std::string>& variables) {
  const bool prior = r.document.contains("prior");
  if (prior) {
    out << "Draws from the prior of " << model << ": " << r.chains.size() << " chains of " << r.draws
        << " independent draws (simulated, no MCMC), each with its prior predictive NAME_rep; seed " << r.facts.seed
        << "\n";
  } else {
    out << "Inference for " << model << ": " << r.chains.size() << " chains, each with " << warmup_text(r) << " and "
        << r.draws << " draws; seed " << r.facts.seed << "\n";
  }
  if (!r.centering.empty()) out << reparameterized_text(r);
  if (r.auto_stop) {
    out << (r.auto_stop->converged ? "Auto-stop: every quantity has R-hat < "
                                   : "Auto-stop: the cap ended the run before R-hat < ")
        << number("%g", r.rule->convergence.max_rhat) << " and bulk and tail ESS >= "
        << number("%g", r.rule->convergence.min_ess_per_chain) << " per chain, after " << r.auto_stop->checks.size()
        << " round(s)\n";
  }
  out << "\n" << chosen_summary_table(r.summary.parameters, r.summary.sampler_rows, variables);
  if (!prior) {
    out << "\nWarmup took " << number("%.3g", r.totals.seconds_warmup) << " s and sampling "
        << number("%.3g", r.totals.seconds_sampling) << " s (the slowest chain); " << r.totals.leapfrog_steps
        << " leapfrog steps.\n";
  }
  for (const auto& line : r.warnings) out << line << "\n";
}

}  // namespace

int sample_and_report(const services::RunSpec& spec, const CommandRun& run) {
  try {
    services::RunControl control;
    InterruptStops interrupt(control, spec.settings.get(setting::worker).has_value());
    ChainOutputOptions options = output_options(run, spec, std::cerr);
    // A project keeps the draws itself; otherwise they always go to files, as CmdStan's.
    if (!options.directory && !run.project) options.directory = default_output_folder(spec.model->name());
    const std::optional<std::string> folder = options.directory;
    ChainOutput output(spec.settings.get(setting::chains), options);
    services::RunObservers observers = terminal_observers(std::cerr, &control);
    observers.draws = &output;
    observers.started = [&output](const services::RunStarted& started) {
      output.start(started.columns, started.facts.seed, started.reparam);
    };
    observers.round = [&output](int more) { output.extend(more); };
    const services::SampleResult result = services::run_sample(spec, observers);
    if (!result.root) return 0;
    print_summary(std::cout, spec.model->name(), result, run.summary_variables);
    print_kept(std::cout, folder, result, interrupt.interrupted());
    if (run.summary_json) write_summary_file(*run.summary_json, result.document, 2);
    return interrupt.interrupted() ? 130 : 0;
  } catch (const std::exception& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

void add_sample_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program) {
  auto run = std::make_shared<CommandRun>();
  run->method = services::Method::nuts;
  CLI::App* command = app.add_subcommand("sample", "Sample the posterior with NUTS (Stan's warmup)");
  add_run_options(*command, *run, *model,
                  {"Write chain_1.csv, ... (Stan CSV) into this folder (default without --project: a new "
                   "folder per run, output/MODEL-YYYYMMDD-HHMMSS)",
                   true, true, "No progress lines"});
  command->callback([run, model, program, &exit_code] {
    try {
      exit_code = sample_and_report(run_spec(*run, *model, program), *run);
    } catch (const std::exception& e) {
      print_error(std::cerr, e);
      exit_code = 1;
    }
  });
}

}  // namespace variate::cli
