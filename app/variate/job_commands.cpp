#include "app/variate/job_commands.h"

#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "engine/cli/fit_command.h"
#include "engine/cli/path_checks.h"
#include "engine/cli/sample_command.h"
#include "engine/remote/remote_client.h"
#include "engine/services/setting_table.h"
#include "engine/services/vmod_source.h"

namespace variate::app {

using remote::RemoteClient;
using remote::WorkerEndpoint;
namespace v1 = remote::v1;
namespace {

struct Access {
  std::string worker;
  std::string token_file;
  std::optional<std::string> tls_ca;
};

void add_access(CLI::App& command, Access& access) {
  namespace setting = services::setting;
  command.add_option("--worker", access.worker, setting::worker.descriptor().help)->required();
  command.add_option("--token-file", access.token_file, setting::token_file.descriptor().help)->required();
  command.add_option("--tls-ca", access.tls_ca, setting::tls_ca.descriptor().help);
}

RemoteClient client_for(const Access& access) {
  return RemoteClient(WorkerEndpoint::from_files(access.worker, access.token_file, access.tls_ca));
}

std::string when(int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm local {};
  localtime_r(&seconds, &local);
  std::ostringstream text;
  text << std::put_time(&local, "%Y-%m-%d %H:%M:%S");
  return text.str();
}

int list_jobs(const Access& access) {
  const std::vector<v1::JobInfo> jobs = client_for(access).jobs();
  std::cout << std::left << std::setw(18) << "job" << std::setw(13) << "state" << std::setw(8) << "command"
            << std::setw(21) << "submitted" << std::setw(9) << "events" << "model\n";
  for (const v1::JobInfo& job : jobs) {
    std::cout << std::setw(18) << job.job_id() << std::setw(13) << remote::state_name(job.state()) << std::setw(8)
              << job.command() << std::setw(21) << when(job.submitted_unix_ms()) << std::setw(9) << job.events()
              << job.model_name() << (job.message().empty() ? "" : " (" + job.message() + ")") << "\n";
  }
  if (jobs.empty()) std::cout << "(no jobs)\n";
  return 0;
}

struct AttachOptions {
  std::string job;
  Access access;
  std::optional<double> heartbeat_timeout;
  cli::CommandRun run;  // the outputs: --output, --summary-json, --project, --run-name, --quiet
};

// The job's run followed here from its first event, with its model and data as fetched:
// its outputs are what the submitting client writes.
int attach(const AttachOptions& options, services::RemoteRunner& remote) {
  const RemoteClient client = client_for(options.access);
  const v1::JobInfo job = client.job(options.job);
  services::RunSpec spec;
  spec.method = job.command() == "sample" ? services::Method::nuts : services::Method::advi;
  spec.model = std::make_shared<services::VmodSource>(job.model_text(), job.model_name());
  if (job.has_data()) {
    const std::filesystem::path folder = std::filesystem::temp_directory_path() / ("variate-attach-" + job.job_id());
    std::filesystem::create_directories(folder);
    const std::filesystem::path data = folder / (job.data().format() == "csv" ? "data.csv" : "data.json");
    if (!std::filesystem::exists(data)) client.download_data(job.data(), data.string());
    spec.data = {data.string(), std::nullopt, job.data_name()};
  }
  const std::vector<std::string> arguments(job.arguments().begin(), job.arguments().end());
  if (const std::string problem = spec.settings.read_arguments(spec.method, services::kAcceptedByWorker, arguments);
      !problem.empty()) {
    std::cerr << "error: job " << job.job_id() << " has options this program does not take: " << problem << "\n";
    return 1;
  }
  spec.settings.set(services::setting::worker, std::optional(options.access.worker));
  spec.settings.set(services::setting::token_file, std::optional(options.access.token_file));
  spec.settings.set(services::setting::tls_ca, options.access.tls_ca);
  if (options.heartbeat_timeout) spec.settings.set(services::setting::heartbeat_timeout, *options.heartbeat_timeout);
  for (const v1::ChainStart& start : job.resume()) {
    spec.resume.push_back({std::vector<double>(start.position().begin(), start.position().end()), start.step_size(),
                           std::vector<double>(start.inverse_metric().begin(), start.inverse_metric().end())});
  }
  spec.record.project = options.run.project;
  spec.record.run_name = options.run.run_name.value_or("");
  spec.remote = &remote;
  spec.job = services::JobRef{job.job_id(), {}};
  return spec.method == services::Method::nuts ? cli::sample_and_report(spec, options.run)
                                               : cli::fit_and_report(spec, options.run);
}

// Runs `body`, reporting a remote failure as an error.
template <class F>
int reporting(F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    cli::print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_job_commands(CLI::App& app, int& exit_code, std::shared_ptr<services::RemoteRunner> remote) {
  {
    auto access = std::make_shared<Access>();
    CLI::App* command = app.add_subcommand("jobs", "List a worker's jobs");
    add_access(*command, *access);
    command->callback([access, &exit_code] { exit_code = reporting([&] { return list_jobs(*access); }); });
  }
  {
    auto o = std::make_shared<AttachOptions>();
    CLI::App* command = app.add_subcommand("attach", "Follow a worker's job from its first event, writing what `sample|fit --worker` writes (Ctrl-C detaches; the job goes on)");
    command->add_option("job", o->job, "The job's id (printed when it was submitted; `variate jobs`)")->required();
    add_access(*command, o->access);
    command->add_option("--heartbeat-timeout", o->heartbeat_timeout,
                        services::setting::heartbeat_timeout.descriptor().full_help());
    command->add_option("--output", o->run.output, "Write the job's CSV files into this folder")
        ->check(cli::output_folder_check());
    command->add_option("--summary-json", o->run.summary_json, "Write the summary as JSON")
        ->check(cli::writable_file_check());
    command->add_option("--project", o->run.project, "Record the run into this project file");
    command->add_option("--run-name", o->run.run_name, "Name of the run in the project");
    command->add_flag("--quiet", o->run.quiet, "No progress lines");
    command->callback([o, remote, &exit_code] { exit_code = reporting([&] { return attach(*o, *remote); }); });
  }
  {
    auto access = std::make_shared<Access>();
    auto job = std::make_shared<std::string>();
    CLI::App* command = app.add_subcommand("cancel", "Stop a worker's job (the draws it made are kept there)");
    command->add_option("job", *job, "The job's id")->required();
    add_access(*command, *access);
    command->callback([access, job, &exit_code] {
      exit_code = reporting([&] {
        const RemoteClient client = client_for(*access);
        const v1::JobState state = client.cancel(*job);
        const v1::JobInfo info = client.job(*job);
        std::cout << "job " << *job << ": " << remote::state_name(state)
                  << (info.message().empty() ? "" : " (" + info.message() + ")") << "\n";
        return 0;
      });
    });
  }
}

}  // namespace variate::app
