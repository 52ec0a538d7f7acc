#include "app/variate/worker_command.h"

#include <signal.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

#include <google/protobuf/stubs/logging.h>
#include <grpcpp/grpcpp.h>

#include "engine/core/threading.h"
#include "engine/io/data_file.h"

#include "engine/remote/auth.h"
#include "engine/remote/tls_files.h"
#include "engine/remote/limits.h"
#include "engine/remote/worker_service.h"

namespace variate::app {

using namespace variate::remote;

namespace {

struct WorkerOptions {
  std::string listen = "127.0.0.1:0";
  std::string token_file;
  std::optional<std::string> tls_cert;
  std::optional<std::string> tls_key;
  std::optional<std::string> jobs_dir;
  int max_jobs = 1;
  int max_ranks = 0;
  int64_t max_data_bytes = kDefaultMaxDataBytes;
  double heartbeat_seconds = kDefaultHeartbeatSeconds;
};

bool is_loopback(const std::string& address) {
  const std::string host = address.substr(0, address.rfind(':'));
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

std::filesystem::path default_jobs_dir() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return std::filesystem::path(state) / "variate" / "jobs";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home ? home : ".") / ".local" / "state" / "variate" / "jobs";
}

// The server's credentials: TLS with the given pair, or none on a loopback address only.
// @throws std::runtime_error saying what to give.
std::shared_ptr<grpc::ServerCredentials> credentials_of(const WorkerOptions& options) {
  if (options.tls_cert.has_value() != options.tls_key.has_value()) {
    throw std::runtime_error("TLS needs both --tls-cert and --tls-key");
  }
  if (options.tls_cert) {
    grpc::SslServerCredentialsOptions ssl;
    const std::string certificate = read_certificate_file(*options.tls_cert, "--tls-cert");
    ssl.pem_key_cert_pairs.push_back({read_private_key_file(*options.tls_key, certificate, *options.tls_cert), certificate});
    return grpc::SslServerCredentials(ssl);
  }
  if (!is_loopback(options.listen)) {
    throw std::runtime_error("--listen " + options.listen + " is reachable from other hosts: give --tls-cert and --tls-key (the token would cross the network in the clear), or listen on 127.0.0.1 and reach it through an SSH tunnel");
  }
  return grpc::InsecureServerCredentials();
}

WorkerSettings worker_settings(const WorkerOptions& options) {
  WorkerSettings settings;
  settings.token = read_token_file(options.token_file);
  settings.jobs_dir = options.jobs_dir ? std::filesystem::path(*options.jobs_dir) : default_jobs_dir();
  settings.max_jobs = options.max_jobs;
  settings.max_ranks = options.max_ranks > 0 ? options.max_ranks : hardware_threads();
  settings.max_data_bytes = options.max_data_bytes;
  settings.heartbeat_seconds = options.heartbeat_seconds;
  return settings;
}

// The server of `service` on the options' address; `port` the one it got.
std::unique_ptr<grpc::Server> start_server(const WorkerOptions& options, WorkerService& service,
                                           std::shared_ptr<grpc::ServerCredentials> credentials, int& port) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.listen, credentials, &port);
  builder.RegisterService(&service);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveMs);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kKeepaliveTimeoutMs);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 5000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  return builder.BuildAndStart();
}

int run_worker(const WorkerOptions& options) {
  std::shared_ptr<grpc::ServerCredentials> credentials;
  WorkerSettings settings;
  try {
    settings = worker_settings(options);
    credentials = credentials_of(options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  // SIGINT and SIGTERM end the worker; a thread waits for them (blocked before gRPC starts
  // its threads, so they all inherit the mask).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  // A malformed request is answered with an error status; protobuf would also log each
  // one, which lets any client fill the worker's log.
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});

  std::unique_ptr<WorkerService> service;
  try {
    service = std::make_unique<WorkerService>(settings);
  } catch (const std::exception& e) {
    std::cerr << "error: cannot use the jobs folder '" << settings.jobs_dir.string() << "': " << e.what() << "\n";
    return 1;
  }
  int port = 0;
  std::unique_ptr<grpc::Server> server = start_server(options, *service, credentials, port);
  if (!server || port == 0) {
    std::cerr << "error: cannot listen on " << options.listen << "\n";
    return 1;
  }
  const std::string host = options.listen.substr(0, options.listen.rfind(':'));
  std::cout << "listening on " << host << ":" << port << (options.tls_cert ? " (TLS)" : "") << "; jobs in "
            << settings.jobs_dir.string() << std::endl;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    std::cerr << "stopping: the running jobs end interrupted\n";
    service->interrupt_all();
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  });
  server->Wait();
  waiter.join();
  service.reset();  // waits for the jobs' threads
  return 0;
}

}  // namespace

void add_worker_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<WorkerOptions>();
  CLI::App* command = app.add_subcommand("worker", "Serve runs to clients over the network (gRPC): `sample|fit --worker`, the studio's workers");
  command->footer(
      "Security: every call must carry the token of --token-file (a file only its owner may read; "
      "compared in constant time). Without TLS the worker listens on loopback only (127.0.0.1, ::1): "
      "reach it from elsewhere through an SSH tunnel, or give --tls-cert and --tls-key (PEM) and let "
      "clients check it with --tls-ca. TLS protects the token and the data in transit; the token "
      "grants every client that holds it the same rights: submit, follow, pause and cancel any job, "
      "and read its model and data. Jobs run as the worker's user.\n"
      "Limits: messages of at most 4 MiB, data uploaded in 1 MiB chunks up to --max-data-bytes, a "
      "model text of at most 1 MiB, at most 256 run options; a request over them is refused and the "
      "worker goes on serving.\n"
      "Jobs: each keeps its model, events and (NUTS) a project file with every draw in "
      "JOBS-DIR/<job>; a job goes on when its clients leave, and a restarted worker serves the jobs "
      "it finds there (those that were running end interrupted).");
  command->add_option("--listen", o->listen, "HOST:PORT to listen on (port 0: one the system picks, printed)")->capture_default_str();
  command->add_option("--token-file", o->token_file, "The file holding the token clients must present (mode 600)")->required();
  command->add_option("--tls-cert", o->tls_cert, "TLS certificate (PEM); with --tls-key, the worker speaks TLS only");
  command->add_option("--tls-key", o->tls_key, "TLS private key (PEM)");
  command->add_option("--jobs-dir", o->jobs_dir, "Where jobs keep their files (default: $XDG_STATE_HOME/variate/jobs, else ~/.local/state/variate/jobs)");
  command->add_option("--max-jobs", o->max_jobs, "Jobs that run at once; more wait in order")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--max-ranks", o->max_ranks, "Processes one job may run (--nproc; default: this host's cores)")->check(CLI::PositiveNumber);
  command->add_option("--max-data-bytes", o->max_data_bytes, "The largest data set a client may upload")->capture_default_str()->check(CLI::PositiveNumber);
  command->add_option("--heartbeat-seconds", o->heartbeat_seconds, "Seconds between heartbeats on a quiet event stream")->capture_default_str()->check(CLI::PositiveNumber);
  command->callback([o, &exit_code] { exit_code = run_worker(*o); });
}

}  // namespace variate::app
