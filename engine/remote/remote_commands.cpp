#include "engine/remote/remote_commands.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "engine/cli/in_process_run.h"

#include "engine/remote/job.h"
#include "engine/remote/remote_client.h"

namespace variate::remote {
namespace {

struct Access {
  std::string worker;
  std::string token_file;
  std::optional<std::string> tls_ca;
};

void add_access(CLI::App& command, Access& access) {
  command.add_option("--worker", access.worker, "The worker (HOST:PORT)")->required();
  command.add_option("--token-file", access.token_file, "The file holding the worker's token")->required();
  command.add_option("--tls-ca", access.tls_ca, "The worker's CA certificate (PEM): TLS");
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
    std::cout << std::setw(18) << job.job_id() << std::setw(13) << state_name(job.state()) << std::setw(8)
              << job.command() << std::setw(21) << when(job.submitted_unix_ms()) << std::setw(9) << job.events()
              << job.model_name() << (job.message().empty() ? "" : " (" + job.message() + ")") << "\n";
  }
  if (jobs.empty()) std::cout << "(no jobs)\n";
  return 0;
}

struct AttachOptions {
  std::string job;
  Access access;
  double heartbeat_timeout = 15;
  std::optional<std::string> output, summary_json, project, run_name;
  bool quiet = false;
};

// Runs the job's command here with its model and data as fetched, attached to the job
// instead of submitting it, so its outputs are what the submitting client writes.
int attach(const AttachOptions& options, const std::shared_ptr<cli::RemoteInference>& remote) {
  const RemoteClient client = client_for(options.access);
  const v1::JobInfo job = client.job(options.job);
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / ("variate-attach-" + job.job_id());
  std::filesystem::create_directories(folder);
  const auto base = [](const std::string& name, const char* otherwise) {
    const std::string file = std::filesystem::path(name).filename().string();
    return file.empty() ? std::string(otherwise) : file;
  };
  const std::filesystem::path model = folder / base(job.model_name(), "model.vmod");
  std::ofstream(model) << job.model_text();
  std::vector<std::string> arguments = {"variate", job.command(), model.string(), "--model-name", job.model_name()};
  if (job.has_data()) {
    const std::filesystem::path data = folder / base(job.data_name(), job.data().format() == "csv" ? "data.csv" : "data.json");
    if (!std::filesystem::exists(data)) client.download_data(job.data(), data.string());
    arguments.insert(arguments.end(), {"--data", data.string(), "--data-name", job.data_name()});
  }
  arguments.insert(arguments.end(), job.arguments().begin(), job.arguments().end());
  if (job.resume_size() > 0) {
    const std::filesystem::path starts = folder / "resume.json";
    std::ofstream(starts) << chain_starts_json(job.resume());
    arguments.insert(arguments.end(), {"--resume-from", starts.string()});
  }
  arguments.insert(arguments.end(), {"--worker", options.access.worker, "--token-file", options.access.token_file,
                                     "--job", job.job_id(), "--heartbeat-timeout",
                                     std::to_string(options.heartbeat_timeout)});
  if (options.access.tls_ca) arguments.insert(arguments.end(), {"--tls-ca", *options.access.tls_ca});
  for (const auto& [name, value] : {std::pair{"--output", options.output}, {"--summary-json", options.summary_json},
                                    {"--project", options.project}, {"--run-name", options.run_name}}) {
    if (value) arguments.insert(arguments.end(), {name, *value});
  }
  if (options.quiet) arguments.push_back("--quiet");

  try {
    return cli::run_in_process(arguments, remote);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: job " << job.job_id() << " has options this program does not take: " << e.what() << "\n";
    return 1;
  }
}

// Runs `body`, reporting a remote failure as an error.
template <class F>
int reporting(F&& body) {
  try {
    return body();
  } catch (const RemoteError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

void add_job_commands(CLI::App& app, int& exit_code, std::shared_ptr<cli::RemoteInference> remote) {
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
    command->add_option("--heartbeat-timeout", o->heartbeat_timeout, "Seconds without a word from the worker before it counts as gone")->capture_default_str();
    command->add_option("--output", o->output, "Write the job's CSV files into this folder");
    command->add_option("--summary-json", o->summary_json, "Write the summary as JSON");
    command->add_option("--project", o->project, "Record the run into this project file (NUTS)");
    command->add_option("--run-name", o->run_name, "Name of the run in the project");
    command->add_flag("--quiet", o->quiet, "No progress lines");
    command->callback([o, remote, &exit_code] { exit_code = reporting([&] { return attach(*o, remote); }); });
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
        client.cancel(*job);
        std::cout << "job " << *job << ": " << state_name(client.job(*job).state()) << "\n";
        return 0;
      });
    });
  }
}

}  // namespace variate::remote
