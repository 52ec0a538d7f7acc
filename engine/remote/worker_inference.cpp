#include "engine/remote/worker_inference.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <map>

#include "engine/remote/event_codec.h"
#include "engine/remote/remote_client.h"

namespace variate::remote {
namespace {

std::atomic<bool> interrupted{false};

// Ctrl-C while following a job detaches from it instead of killing the client mid-write.
class DetachOnInterrupt {
 public:
  DetachOnInterrupt() {
    interrupted = false;
    struct sigaction action {};
    action.sa_handler = [](int) { interrupted = true; };
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_);
  }
  ~DetachOnInterrupt() { sigaction(SIGINT, &previous_, nullptr); }

 private:
  struct sigaction previous_ {};
};

std::string reattach_hint(const cli::RemoteOptions& options, const std::string& job) {
  std::string hint = "variate attach " + job + " --worker " + *options.worker + " --token-file " + *options.token_file;
  if (options.tls_ca) hint += " --tls-ca " + *options.tls_ca;
  return hint;
}

RemoteClient client_for(const cli::RemoteOptions& options) {
  return RemoteClient(WorkerEndpoint::from_files(*options.worker, *options.token_file, options.tls_ca));
}

cli::RunFacts facts_of(const v1::RunStarted& started) {
  return cli::RunFacts{started.backend(), started.ranks(), started.seed(), started.device()};
}

// Follows `job` to its end, handing each event to `apply`; messages go to `log`.
// @throws RemoteError when it cannot, on detach, and when the job failed.
void follow_job(const RemoteClient& client, const cli::RemoteOptions& options, const std::string& job,
                std::ostream& log, const std::function<void(const v1::RunEvent&)>& apply) {
  DetachOnInterrupt detach_on_interrupt;
  FollowOptions follow;
  follow.heartbeat_timeout = options.heartbeat_timeout;
  follow.detach = &interrupted;
  follow.link = [&log](LinkState state) {
    if (state == LinkState::reconnecting) log << "connection to the worker lost; reconnecting\n" << std::flush;
  };
  v1::RunFinished finished;
  const bool ended = client.follow(
      job, 0,
      [&](const v1::RunEvent& event) {
        if (event.has_log()) log << event.log().text() << "\n" << std::flush;
        if (event.has_finished()) finished = event.finished();
        apply(event);
      },
      follow);
  if (!ended) throw RemoteError("detached from job " + job + "; it goes on: " + reattach_hint(options, job));
  if (finished.state() == v1::FAILED) throw RemoteError("job " + job + " failed on the worker");
  if (finished.state() == v1::INTERRUPTED) {
    throw RemoteError("job " + job + " was interrupted: the worker stopped while it ran");
  }
}

}  // namespace

std::string WorkerInference::submit(const cli::RemoteOptions& options, const cli::RemoteSubmission& submission,
                                    std::ostream& log) {
  const RemoteClient client = client_for(options);
  client.hello();
  v1::SubmitRequest request;
  request.set_command(submission.command);
  request.set_model_text(submission.model_text);
  request.set_model_name(submission.model_name);
  if (submission.data_path) {
    *request.mutable_data() = client.put_data(*submission.data_path);
    request.set_data_name(*submission.data_path);
  }
  for (const std::string& argument : submission.arguments) request.add_arguments(argument);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  request.set_client_label(std::string(getenv("USER") ? getenv("USER") : "someone") + "@" + host);
  const std::string job = client.submit(request);
  log << "job " << job << " on " << *options.worker << " (reattach: " << reattach_hint(options, job) << ")\n"
      << std::flush;
  return job;
}

void WorkerInference::cancel(const cli::RemoteOptions& options) noexcept {
  try {
    if (options.job) client_for(options).cancel(*options.job);
  } catch (const std::exception&) {
    // the job ends on its own (it fails as the local binding did)
  }
}

std::vector<ChainResult> WorkerInference::sample(const cli::RemoteOptions& options, std::ostream& log,
                                                 const std::function<SampleObserver&(const cli::RunFacts&)>& started) {
  const RemoteClient client = client_for(options);
  const std::string job = *options.job;
  SampleObserver* observer = nullptr;
  std::map<int, ChainResult> chains;
  follow_job(client, options, job, log, [&](const v1::RunEvent& event) {
    if (event.has_started()) observer = &started(facts_of(event.started()));
    if (!observer) return;  // a failure before the run began
    if (event.has_draws()) {
      const DrawBatch batch = decode_draws(event.draws());
      observer->on_draws(batch);
      ChainResult& chain = chains[batch.chain];
      chain.stats.insert(chain.stats.end(), batch.stats.begin(), batch.stats.end());
    } else if (event.has_adapted()) {
      const v1::Adapted& a = event.adapted();
      observer->on_adapted(a.chain(), a.step_size(), {a.inverse_metric().begin(), a.inverse_metric().end()});
    } else if (event.has_chain_finished()) {
      ChainResult end = decode_chain_end(event.chain_finished());
      end.stats = std::move(chains[end.chain].stats);
      observer->on_chain_finished(end);
      chains[end.chain] = std::move(end);
    }
  });
  std::vector<ChainResult> results;
  for (auto& [chain, result] : chains) results.push_back(std::move(result));
  return results;
}

AdviFit WorkerInference::fit(const cli::RemoteOptions& options, std::ostream& log, const UnconstrainedTarget& target,
                             AdviObserver* observer, cli::RunFacts& facts) {
  const RemoteClient client = client_for(options);
  const std::string job = *options.job;
  std::optional<AdviFit> fit;
  follow_job(client, options, job, log, [&](const v1::RunEvent& event) {
    if (event.has_started()) facts = facts_of(event.started());
    if (event.has_fit_finished()) {
      try {
        fit = decode_fit(event.fit_finished(), target.layout());
      } catch (const std::runtime_error& e) {
        throw RemoteError(std::string("the worker's fit does not fit this model: ") + e.what());
      }
    }
    if (!observer) return;
    if (event.has_eta_trial()) observer->on_eta_trial({event.eta_trial().eta(), event.eta_trial().elbo()});
    if (event.has_eta_chosen()) observer->on_eta_chosen(event.eta_chosen().eta(), event.eta_chosen().adapted());
    if (event.has_elbo_iterations()) {
      const v1::ElboIterations& m = event.elbo_iterations();
      observer->on_iterations({m.first_iteration(), {m.elbo().begin(), m.elbo().end()}});
    }
    if (event.has_elbo_evaluation()) observer->on_evaluation(decode_evaluation(event.elbo_evaluation()));
  });
  if (!fit) throw RemoteError("job " + job + " ended without a fit");
  return *fit;
}

}  // namespace variate::remote
