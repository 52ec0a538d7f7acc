#include "engine/cli/remote_inference.h"

#include <set>

#include "engine/io/data_file.h"

namespace variate::cli {

void add_remote_options(CLI::App& command, RemoteOptions& o) {
  command.add_option("--worker", o.worker, "Run on this worker (HOST:PORT, `variate worker`): the outputs are written here as a local run writes them");
  command.add_option("--token-file", o.token_file, "With --worker: the file holding the worker's token (readable by its owner only)");
  command.add_option("--tls-ca", o.tls_ca, "With --worker: the worker's CA certificate (PEM); the connection then uses TLS");
  command.add_option("--heartbeat-timeout", o.heartbeat_timeout, "With --worker: seconds without a word from the worker before it counts as gone")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command.add_option("--job", o.job, "Attach to this job instead of submitting one")->group("");
}

namespace {

// Whether a run can go to a worker as asked; prints why not to `errors`.
bool check_remote(const RemoteOptions& options, const DistributedOptions& distributed,
                  const RemoteInference* remote, std::ostream& errors) {
  if (!remote) {
    errors << "error: this program cannot run on a worker (it was built without gRPC)\n";
    return false;
  }
  if (!options.token_file) {
    errors << "error: --worker needs --token-file (the file holding the worker's token)\n";
    return false;
  }
  if (distributed.rendezvous || distributed.world_size || distributed.rank) {
    errors << "error: a worker runs its processes on its own host: give --nproc N, not --rendezvous, --world-size or --rank\n";
    return false;
  }
  return true;
}

}  // namespace

bool start_run(const RemoteOptions& options, const DistributedOptions& distributed, const RemoteInference* remote,
               const RunHooks& hooks, std::unique_ptr<DistributedRun>& run) {
  if (options.worker) return check_remote(options, distributed, remote, *hooks.err);
  DistributedOptions here = distributed;
  here.rank_arguments = hooks.rank_arguments;
  return start_distributed(here, run, *hooks.err);
}

RemoteSubmission make_submission(const std::string& command, const ModelSource& source,
                                 const std::optional<std::string>& data, std::vector<std::string> arguments,
                                 uint64_t seed) {
  arguments.insert(arguments.end(), {"--seed", std::to_string(seed)});
  return {command, source.name(), io::read_text_file(*source.model_file()), data, std::move(arguments)};
}

std::vector<std::string> forwarded_arguments(const CLI::App& command) {
  // What names files or hosts on this side, or only shapes what this side prints.
  static const std::set<std::string> local = {
      "--data", "--output", "--summary-json", "--project", "--run-name", "--quiet", "--help",
      "--worker", "--token-file", "--tls-ca", "--heartbeat-timeout", "--seed", "--job", "--model-name",
      "--data-name", "--resume-from"};
  std::vector<std::string> arguments;
  for (const CLI::Option* option : command.get_options()) {
    if (option->get_lnames().empty() || option->count() == 0) continue;  // the model file; not given
    const std::string name = "--" + option->get_lnames().front();
    if (local.count(name)) continue;
    if (option->get_type_size() == 0) {  // a flag
      arguments.push_back(name);
      continue;
    }
    for (const std::string& value : option->results()) {
      arguments.push_back(name);
      arguments.push_back(value);
    }
  }
  return arguments;
}

}  // namespace variate::cli
