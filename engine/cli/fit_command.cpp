#include "engine/cli/fit_command.h"

#include <filesystem>
#include <iostream>

#include <torch/serialize/output-archive.h>

#include "engine/cli/approximation_report.h"
#include "engine/cli/interrupt.h"
#include "engine/cli/setting_options.h"
#include "engine/cli/summary_file.h"
#include "engine/deep/amortized_model.h"
#include "engine/io/variational_csv_writer.h"
#include "engine/services/fit.h"
#include "engine/services/setting_table.h"
#include "engine/services/train.h"

namespace variate::cli {
namespace {

namespace setting = services::setting;
constexpr const char* kDeepGroup = "Deep models (networks and guides)";

// The ELBO trace on stderr, laid out as CmdStan prints it.
class TracePrinter : public AdviObserver {
 public:
  explicit TracePrinter(std::ostream& out) : out_(out) {}
  void on_eta_trial(const EtaTrial& trial) override {
    if (first_trial_) out_ << "Begin eta adaptation.\n";
    first_trial_ = false;
    out_ << "  eta = " << trial.eta << ": ELBO " << number("%.6g", trial.elbo) << "\n";
  }
  void on_eta_chosen(double eta, bool adapted) override {
    if (adapted) out_ << "Success! Found best value [eta = " << eta << "].\n";
    out_ << "\nBegin stochastic gradient ascent.\n"
         << "  iter             ELBO   delta_ELBO_mean   delta_ELBO_med   notes \n";
  }
  void on_evaluation(const ElboEvaluation& e) override {
    out_ << std::string(std::max(0, 6 - static_cast<int>(std::to_string(e.iteration).size())), ' ') << e.iteration
         << number("  %15.3f", e.elbo) << number("  %16.3f", e.mean_relative_change)
         << number("  %15.3f", e.median_relative_change)
         << (e.step_reduced       ? "   eta / 10 = " + number("%g", e.eta / 10)
             : e.mean_converged   ? std::string("   MEAN ELBO CONVERGED")
             : e.median_converged ? std::string("   MEDIAN ELBO CONVERGED")
                                  : std::string())
         << "\n";
  }

 private:
  std::ostream& out_;
  bool first_trial_ = true;
};

// A training's epochs as they end, on stderr.
class EpochPrinter : public deep::AmortizedFitObserver {
 public:
  explicit EpochPrinter(std::ostream& out) : out_(out) {}
  void set_epochs(int epochs) { epochs_ = epochs; }
  void on_epoch(const deep::EpochReport& r) override {
    out_ << "epoch " << r.epoch << "/" << epochs_ << ": step " << r.step << ", training ELBO " << number("%.2f", r.train_elbo);
    if (r.heldout_elbo) out_ << ", held-out ELBO " << number("%.2f", *r.heldout_elbo);
    out_ << " per row; " << number("%.2f", r.seconds) << " s (" << number("%.0f", r.rows_per_second) << " rows/s)\n";
  }

 private:
  std::ostream& out_;
  int epochs_ = 0;  // in all, once the training started
};

struct FitCommand {
  CommandRun run;
  std::optional<int64_t> resume;  // a training's run to continue
  std::optional<std::string> save_weights;
};

void write_csv(const std::string& folder, const services::RunSpec& spec, const services::FitResult& r) {
  const services::Settings& s = spec.settings;
  std::filesystem::create_directories(folder);
  io::VariationalCsvInfo info;
  info.run = csv_run_info(spec, r.facts.seed);
  info.algorithm = s.get(setting::family);
  info.iter = s.get(setting::advi_iter);
  info.grad_samples = s.get(setting::grad_samples);
  info.elbo_samples = s.get(setting::elbo_samples);
  info.eta = s.get(setting::eta).value_or(1.0);
  info.adapt_engaged = !s.get(setting::eta);
  info.adapt_iter = s.get(setting::adapt_iter);
  info.tol_rel_obj = s.get(setting::advi_tol_rel_obj);
  info.eval_elbo = s.get(setting::eval_elbo);
  info.output_samples = s.get(setting::output_draws);
  io::VariationalCsvWriter writer((std::filesystem::path(folder) / "variational.csv").string(), info, r.names);
  if (r.fit.result.eta_adapted) writer.write_eta(r.fit.result.eta);
  writer.write_mean(r.mean_row);
  for (size_t i = 0; i < r.rows.size(); ++i) writer.write_draw(r.log_p[i], r.log_q[i], r.rows[i]);
  writer.finish();
}

void print_fit(std::ostream& out, const services::RunSpec& spec, const services::FitResult& r,
               const std::optional<std::string>& variables) {
  const AdviResult& fit = r.fit.result;
  out << "Inference for " << spec.model->name() << ": ADVI (" << spec.settings.get(setting::family) << "), "
      << r.rows.size() << " draws from the approximation; seed " << r.facts.seed << "\n"
      << "eta = " << fit.eta << (fit.eta_adapted ? " (adapted)" : "") << "; " << to_string(fit.status) << " after "
      << fit.iterations << " iterations; ELBO " << number("%.6g", fit.elbo) << "\n"
      << services::start_note(r.fit.start) << "\n\n"
      << format_table(r.summary, variables) << "\nDraws are independent draws from the approximation: R-hat and ESS do not apply.\n";
  print_k_hat(out, r.k_hat, "A converged ELBO does not vouch for them. Try --method fullrank, or sample with NUTS.");
  if (r.trend.still_improving) {
    out << "Warning: the ELBO was still rising when the run stopped: by " << number("%.3g", r.trend.rise)
        << " over its last " << r.trend.evaluations << " evaluations, "
        << number("%.1f", r.trend.rise / r.trend.standard_error)
        << " times the noise of that rise. The fit may be short of its optimum: give it more iterations (--iter) or "
           "a smaller --tol-rel-obj.\n";
  }
  if (fit.status == AdviStatus::max_iterations) {
    out << "Warning: the maximum number of iterations (" << spec.settings.get(setting::advi_iter)
        << ") was reached before the ELBO converged.\n";
  }
}

int run_training(const FitCommand& c, const ModelArgument& model, const Program& program);

}  // namespace

int fit_and_report(const services::RunSpec& spec, const CommandRun& run) {
  services::RunControl control;
  InterruptStops interrupt(control, spec.settings.get(setting::worker).has_value());
  TracePrinter printer(std::cerr);
  services::RunObservers observers = terminal_observers(std::cerr, &control);
  if (!run.quiet) observers.elbo = &printer;
  const services::FitResult result = services::run_fit(spec, observers);
  if (!result.root) return 0;
  if (run.output) write_csv(*run.output, spec, result);
  print_fit(std::cout, spec, result, run.summary_variables);
  if (run.summary_json) write_summary_file(*run.summary_json, result.document);
  return interrupt.interrupted() ? 130 : 0;
}

namespace {

int run_training(const FitCommand& c, const ModelArgument& model, const Program& program) {
  services::RunSpec spec = run_spec(c.run, model, program);
  spec.method = services::Method::amortized;
  if (const auto test = spec.settings.get(setting::test_data)) spec.heldout = services::DataInput::file(*test);
  if (c.resume && !c.run.project) throw ArgumentError("--resume needs the --project that holds the run");
  spec.record.continues = c.resume;
  services::RunControl control;
  InterruptStops interrupt(control, false);
  EpochPrinter printer(std::cerr);
  services::RunObservers observers = terminal_observers(std::cerr, &control);
  if (!c.run.quiet) observers.training = &printer;
  observers.started = [&c, &printer](const services::RunStarted& started) {
    printer.set_epochs(started.epochs);
    if (started.run_id >= 0 && !c.resume) std::cerr << "run " << started.run_id << " in " << *c.run.project << "\n";
  };
  const services::TrainResult r = services::run_training(spec, observers);
  if (!r.root) return 0;
  if (c.save_weights) {
    torch::serialize::OutputArchive archive;
    r.model->networks().save(archive);
    archive.save_to(*c.save_weights);
  }
  std::cout << "Amortized variational inference of " << spec.model->name() << ": " << deep::to_string(r.result.status)
            << " after " << r.result.steps << " steps (" << r.result.epochs << " epochs); training ELBO "
            << number("%.2f", r.result.train_elbo) << " per row";
  if (r.result.heldout_elbo) std::cout << ", held-out ELBO " << number("%.2f", *r.result.heldout_elbo) << " per row";
  std::cout << "; " << number("%.1f", r.result.seconds) << " s\n";
  if (c.run.summary_json) write_summary_file(*c.run.summary_json, r.document);
  return interrupt.interrupted() ? 130 : 0;
}

// The options a deep model's training alone takes, given for a model without networks.
std::string deep_option_given(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_group() == kDeepGroup && option->count() > 0) return option->get_name();
  }
  return "";
}

}  // namespace

void add_fit_command(CLI::App& app, int& exit_code, std::shared_ptr<ModelArgument> model, const Program& program) {
  auto c = std::make_shared<FitCommand>();
  c->run.method = services::Method::advi;
  CLI::App* command = app.add_subcommand(
      "fit", "Fit a variational approximation with ADVI, or train a model with networks and guides (a VAE)");
  add_run_options(*command, c->run, *model,
                  {"Write variational.csv (CmdStan's layout) into this folder", true, true, "No ELBO trace"});
  if (model->has_text()) {  // a C++ model has no networks
    const size_t before = command->get_options().size();
    add_setting_options(*command, services::Method::amortized, c->run.settings);
    command->add_option("--resume", c->resume, "Continue this training run of --project from its last checkpoint");
    command->add_option("--save-weights", c->save_weights, "Write the trained weights (a torch::serialize archive)");
    const auto options = command->get_options();
    for (size_t i = before; i < options.size(); ++i) const_cast<CLI::Option*>(options[i])->group(kDeepGroup);
  }
  command->callback([c, model, program, command, &exit_code] {
    try {
      const bool deep = model->has_text() && services::is_deep_model(*model->source());
      if (!deep) {
        if (const std::string given = deep_option_given(*command); !given.empty()) {
          throw ArgumentError(given + " and the other options of deep models apply to models with networks (mlp) "
                              "and guides");
        }
      }
      exit_code = deep ? run_training(*c, *model, program) : fit_and_report(run_spec(c->run, *model, program), c->run);
    } catch (const std::exception& e) {
      print_error(std::cerr, e);
      exit_code = 1;
    }
  });
}

}  // namespace variate::cli
