#include "engine/remote/worker_inference.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <thread>

#include "engine/io/data_file.h"
#include "engine/remote/event_codec.h"
#include "engine/remote/idx_references.h"
#include "engine/remote/remote_client.h"

namespace variate::remote {
namespace {

RemoteClient client_for(const services::WorkerAddress& worker) {
  return RemoteClient(WorkerEndpoint::from_files(worker.address, worker.token_file, worker.tls_ca));
}

services::RunFacts facts_of(const v1::RunStarted& started) {
  return services::RunFacts{started.backend(), started.ranks(), started.seed(), started.device(),
                            started.backend_note()};
}

const char* link_name(LinkState state) {
  switch (state) {
    case LinkState::connected: return "connected";
    case LinkState::reconnecting: return "reconnecting";
    case LinkState::gone: return "worker gone";
  }
  return "";
}

// One job's events handed to the run's observers, each in turn on the stream's thread.
class EventReplay {
 public:
  EventReplay(const services::JobEvents& events, const services::RunObservers& observers)
      : events_(events), observers_(observers) {}

  void apply(const v1::RunEvent& event) {
    if (event.has_log()) observers_.tell(event.log().text());
    if (event.has_finished()) finished_ = event.finished();
    if (event.has_started()) {
      if (events_.started) events_.started(facts_of(event.started()));
      began_ = true;
    }
    if (!began_) return;  // a failure before the run began
    if (event.has_fit_finished() && events_.layout) {
      try {
        fit_ = decode_fit(event.fit_finished(), *events_.layout);
      } catch (const std::runtime_error& e) {
        throw RemoteError(std::string("the worker's fit does not fit this model: ") + e.what());
      }
    }
    if (SampleObserver* draws = events_.draws) apply_draws(event, *draws);
    if (AdviObserver* elbo = events_.elbo) apply_elbo(event, *elbo);
  }

  services::JobEnd end(bool followed_to_end) {
    services::JobEnd end;
    end.fit = std::move(fit_);
    end.message = finished_.message();
    switch (finished_.state()) {
      case v1::FINISHED: end.state = services::JobEnd::State::finished; break;
      case v1::STOPPED: end.state = services::JobEnd::State::stopped; break;
      case v1::INTERRUPTED: end.state = services::JobEnd::State::interrupted; break;
      default: end.state = services::JobEnd::State::failed; break;
    }
    if (!followed_to_end) end.state = services::JobEnd::State::detached;
    return end;
  }

 private:
  static void apply_draws(const v1::RunEvent& event, SampleObserver& draws) {
    if (event.has_draws()) draws.on_draws(decode_draws(event.draws()));
    if (event.has_adapted()) {
      const v1::Adapted& a = event.adapted();
      draws.on_adapted(a.chain(), a.step_size(), {a.inverse_metric().begin(), a.inverse_metric().end()});
    }
    if (event.has_chain_finished()) draws.on_chain_finished(decode_chain_end(event.chain_finished()));
  }
  static void apply_elbo(const v1::RunEvent& event, AdviObserver& elbo) {
    if (event.has_eta_trial()) elbo.on_eta_trial({event.eta_trial().eta(), event.eta_trial().elbo()});
    if (event.has_eta_chosen()) elbo.on_eta_chosen(event.eta_chosen().eta(), event.eta_chosen().adapted());
    if (event.has_elbo_iterations()) {
      const v1::ElboIterations& m = event.elbo_iterations();
      elbo.on_iterations({m.first_iteration(), {m.elbo().begin(), m.elbo().end()}});
    }
    if (event.has_elbo_evaluation()) elbo.on_evaluation(decode_evaluation(event.elbo_evaluation()));
  }

  const services::JobEvents& events_;
  const services::RunObservers& observers_;
  bool began_ = false;
  v1::RunFinished finished_;
  std::optional<AdviFit> fit_;
};

// The run's control as calls to the worker, made on this thread while the stream is read
// on another: a detach ends following, a stop cancels the job, a pause holds it there.
void relay_control(const RemoteClient& client, const std::string& job, const services::RunControl& control,
                   std::atomic<bool>& detach, const std::atomic<bool>& done, bool paused,
                   const services::RunObservers& observers) {
  bool cancelled = false;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      // A detach is asked before the stop that comes with it: read the stop first, so a
      // stop seen here that belongs to a detach sees the detach too.
      const bool stop = control.stop_requested();
      if (control.detach_requested()) {
        detach = true;
      } else if (stop && !cancelled) {
        cancelled = true;
        client.cancel(job);
      } else if (!stop && control.paused() != paused) {
        paused = !paused;
        if (paused) client.pause(job); else client.resume(job);
      }
    } catch (const RemoteError& e) {
      observers.tell(std::string("the worker did not take it: ") + e.what());
    }
  }
}

// The data set and every IDX file it names, uploaded (a path would name a file on this
// host); the data set as the worker holds it, naming the IDX files as uploaded.
v1::DataRef upload_data_set(const RemoteClient& client, const services::DataInput& data) {
  if (data.path && std::filesystem::path(*data.path).extension() == ".csv") return client.put_data(*data.path);
  std::string text;
  try {
    text = data.path ? io::read_text_file(*data.path) : *data.json;
  } catch (const std::exception& e) {
    throw RemoteError(e.what());
  }
  const std::string folder = data.path ? std::filesystem::path(*data.path).parent_path().string() : "";
  const std::string sent = with_uploaded_idx_files(text, folder, [&](const std::string& path) {
    return uploaded_idx_name(client.put_file(path, "idx").sha256());
  });
  if (data.path && sent == text) return client.put_data(*data.path);
  char name[] = "/tmp/variate-data-XXXXXX";  // put_data uploads a file
  const int fd = mkstemp(name);
  if (fd < 0) throw RemoteError("cannot write the data set for the worker");
  const bool written = ::write(fd, sent.data(), sent.size()) == static_cast<ssize_t>(sent.size());
  ::close(fd);
  try {
    if (!written) throw RemoteError("cannot write the data set for the worker");
    const v1::DataRef ref = client.put_file(name, "json");
    std::remove(name);
    return ref;
  } catch (...) {
    std::remove(name);
    throw;
  }
}

}  // namespace

std::string WorkerInference::submit(const services::WorkerAddress& worker, const services::JobSubmission& job) {
  const RemoteClient client = client_for(worker);
  client.hello();
  v1::SubmitRequest request;
  request.set_command(services::method_command(job.method));
  request.set_model_text(job.model_text);
  request.set_model_name(job.model_name);
  if (job.data.given()) {
    *request.mutable_data() = upload_data_set(client, job.data);
    request.set_data_name(job.data.name);
  }
  for (const std::string& argument : job.arguments) request.add_arguments(argument);
  for (const ChainStart& chain : job.resume) {
    v1::ChainStart* start = request.add_resume();
    *start->mutable_position() = {chain.position.begin(), chain.position.end()};
    start->set_step_size(chain.step_size);
    *start->mutable_inverse_metric() = {chain.inverse_metric.begin(), chain.inverse_metric.end()};
  }
  request.set_client_label(client_label());
  return client.submit(request);
}

std::string WorkerInference::reattach_hint(const services::WorkerAddress& worker, const std::string& job) const {
  std::string hint = "variate attach " + job + " --worker " + worker.address + " --token-file " + worker.token_file;
  if (worker.tls_ca) hint += " --tls-ca " + *worker.tls_ca;
  return hint;
}

void WorkerInference::cancel(const services::WorkerAddress& worker, const std::string& job) noexcept {
  try {
    client_for(worker).cancel(job);
  } catch (const std::exception&) {
    // the job ends on its own (it fails as the local binding did)
  }
}

bool WorkerInference::paused(const services::WorkerAddress& worker, const std::string& job) {
  return client_for(worker).job(job).state() == v1::PAUSED;
}

services::JobEnd WorkerInference::follow(const services::WorkerAddress& worker, const std::string& job,
                                         const services::JobEvents& events, const services::RunObservers& observers) {
  const RemoteClient client = client_for(worker);
  EventReplay replay(events, observers);
  std::atomic<bool> detach{false}, done{false};
  FollowOptions options;
  options.heartbeat_timeout = worker.heartbeat_timeout;
  options.detach = &detach;
  options.link = [&observers](LinkState state) {
    if (observers.link) observers.link(link_name(state));
    if (state == LinkState::reconnecting) observers.tell("connection to the worker lost; reconnecting");
  };
  if (observers.link) observers.link("connected");
  std::exception_ptr failure;
  bool ended = false;
  std::thread reader([&] {
    try {
      ended = client.follow(job, 0, [&replay](const v1::RunEvent& event) { replay.apply(event); }, options);
    } catch (...) {
      failure = std::current_exception();
    }
    done = true;
  });
  if (observers.control) {
    const bool paused = observers.control->paused();
    relay_control(client, job, *observers.control, detach, done, paused, observers);
  }
  reader.join();
  if (failure) {
    if (observers.link) {
      try {
        std::rethrow_exception(failure);
      } catch (const RemoteError&) {
        observers.link("worker gone");
      } catch (...) {
      }
    }
    std::rethrow_exception(failure);
  }
  return replay.end(ended);
}

}  // namespace variate::remote
