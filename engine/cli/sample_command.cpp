#include "engine/cli/sample_command.h"

#include <cstdio>
#include <iostream>

#include "engine/cli/chain_output.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/summary_file.h"
#include "engine/io/summary_report.h"
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

ChainOutputOptions output_options(const CommandRun& run, const services::RunSpec& spec, std::ostream& err) {
  const services::Settings& s = spec.settings;
  ChainOutputOptions output;
  output.directory = run.output;
  output.progress = !run.quiet;
  output.progress_stream = &err;
  output.info.run = csv_run_info(spec, 0);  // the seed once the run has one
  output.info.num_samples = s.get(setting::draws);
  output.info.num_warmup = s.get(setting::warmup);
  output.info.save_warmup = s.get(setting::save_warmup);
  output.info.adapt_delta = s.get(setting::adapt_delta);
  output.info.step_size = s.get(setting::stepsize);
  output.info.max_depth = s.get(setting::max_depth);
  output.info.metric = s.get(setting::metric) == "dense" ? "dense_e" : "diag_e";
  output.info.num_chains = s.get(setting::chains);
  return output;
}

// The summary as CmdStan's stansummary prints it, with the sampler's totals and warnings.
void print_summary(std::ostream& out, const std::string& model, const services::SampleResult& r) {
  out << "Inference for " << model << ": " << r.chains.size() << " chains, each with " << r.warmup << " warmup and "
      << r.draws << " draws; seed " << r.facts.seed << "\n";
  if (r.auto_stop) {
    out << (r.auto_stop->converged ? "Auto-stop: every quantity has R-hat < "
                                   : "Auto-stop: the cap ended the run before R-hat < ")
        << number("%g", r.rule->convergence.max_rhat) << " and bulk and tail ESS >= "
        << number("%g", r.rule->convergence.min_ess_per_chain) << " per chain, after " << r.auto_stop->checks.size()
        << " round(s)\n";
  }
  out << "\n" << io::format_summary_table(r.summary.parameters, r.summary.sampler_rows);
  out << "\nWarmup took " << r.totals.seconds_warmup << " s and sampling " << r.totals.seconds_sampling
      << " s (the slowest chain); " << r.totals.leapfrog_steps << " leapfrog steps.\n";
  for (const auto& line : r.warnings) out << line << "\n";
}

}  // namespace

int sample_and_report(const services::RunSpec& spec, const CommandRun& run) {
  try {
    services::RunControl control;
    InterruptStops interrupt(control, spec.settings.get(setting::worker).has_value());
    ChainOutput output(spec.settings.get(setting::chains), output_options(run, spec, std::cerr));
    services::RunObservers observers = terminal_observers(std::cerr, &control);
    observers.draws = &output;
    observers.started = [&output](const services::RunStarted& started) {
      output.start(started.columns, started.facts.seed);
    };
    observers.round = [&output](int more) { output.extend(more); };
    const services::SampleResult result = services::run_sample(spec, observers);
    if (!result.root) return 0;
    print_summary(std::cout, spec.model->name(), result);
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
                  {"Write chain_1.csv, ... (Stan CSV) into this folder", true, true, "No progress lines"});
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
