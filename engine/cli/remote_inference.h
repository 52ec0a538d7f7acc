#pragma once
/// `sample` and `fit` on a worker (`--worker HOST:PORT --token-file F`): the command binds
/// the model here for its outputs' columns, the worker runs the inference, and its events
/// are replayed into the same observers a local run feeds, so the outputs (CSV files,
/// summary, project) are what a local run writes. The gRPC client that does it lives in
/// engine/remote (the command-line library does not depend on gRPC); `variate` hands it in.

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "engine/mcmc/sample.h"
#include "engine/target/unconstrained_target.h"
#include "engine/vi/advi.h"
#include "engine/vi/advi_observer.h"

#include "engine/cli/distributed_run.h"
#include "engine/cli/model_source.h"
#include "engine/cli/run_hooks.h"

namespace variate::cli {

struct RemoteOptions {
  std::optional<std::string> worker;      // HOST:PORT
  std::optional<std::string> token_file;
  std::optional<std::string> tls_ca;      // the worker's CA certificate: TLS
  std::optional<std::string> job;         // attach to this job instead of submitting one
  double heartbeat_timeout = 15;          // seconds without a word before the worker counts as gone
};

/// Declares --worker, --token-file, --tls-ca and --heartbeat-timeout on `command`.
void add_remote_options(CLI::App& command, RemoteOptions& options);

/// A run for a worker: the model's text and name, the data file, and the options the
/// worker parses as `variate sample|fit` does.
struct RemoteSubmission {
  std::string command;  // "sample" or "fit"
  std::string model_name;
  std::string model_text;
  std::optional<std::string> data_path;
  std::vector<std::string> arguments;
};

class RemoteInference;

/// Where `sample` or `fit` runs: on a worker (given a token file, and no --rendezvous), or here, with the
/// processes of this host that `distributed` asks for (`run` set when there are several).
/// Returns false, having printed why to hooks.err, when it cannot start.
bool start_run(const RemoteOptions& options, const DistributedOptions& distributed, const RemoteInference* remote,
               const RunHooks& hooks, std::unique_ptr<DistributedRun>& run);

/// The run for a worker: the model's text, the data file, the options given and the seed
/// (drawn here when not given, so that attaching writes the same headers).
RemoteSubmission make_submission(const std::string& command, const ModelSource& source,
                                 const std::optional<std::string>& data, std::vector<std::string> arguments,
                                 uint64_t seed);

/// The options given to `command`, as arguments, leaving out the ones that stay on this
/// side: the model and data files, outputs, the worker's address and credentials, --quiet.
std::vector<std::string> forwarded_arguments(const CLI::App& command);

/// A failure of the remote run itself (unreachable, refused, gone, failed on the worker).
class RemoteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RemoteInference {
 public:
  virtual ~RemoteInference() = default;

  /// Starts `submission` on options.worker (uploading its data unless the worker holds
  /// it); prints the job's id and how to reattach to `log`; returns the id.
  /// @throws RemoteError
  virtual std::string submit(const RemoteOptions& options, const RemoteSubmission& submission, std::ostream& log) = 0;
  /// Stops options.job, if it can (a job the client will not follow); never throws.
  virtual void cancel(const RemoteOptions& options) noexcept = 0;

  /// Follows options.job, replaying its events: its messages to `log`, and, after
  /// `started` (called once with the worker's facts, returning the observer to feed), every
  /// draw, adaptation and chain end in order. Returns the chains as sample_nuts() does.
  /// Ctrl-C detaches (the job goes on) and throws.
  /// @throws RemoteError
  virtual std::vector<ChainResult> sample(const RemoteOptions& options, std::ostream& log,
                                          const std::function<SampleObserver&(const RunFacts&)>& started) = 0;

  /// As sample() for ADVI: the ELBO trace goes to `observer` (may be null), and the fit
  /// comes back with its family rebuilt on `target`'s layout.
  /// @throws RemoteError
  virtual AdviFit fit(const RemoteOptions& options, std::ostream& log, const UnconstrainedTarget& target,
                      AdviObserver* observer, RunFacts& facts) = 0;
};

}  // namespace variate::cli
