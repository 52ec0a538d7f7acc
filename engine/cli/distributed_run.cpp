#include "engine/cli/distributed_run.h"

#include <ATen/ATen.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "engine/core/argument_error.h"
#include "engine/core/threading.h"
#include "engine/distributed/distributed_error.h"

namespace variate::cli {

void add_distributed_options(CLI::App& command, DistributedOptions& o) {
  command.add_option("--nproc", o.nproc, "Processes on this host that split the likelihood's rows (data-parallel); rank 0 starts the others. --nproc 1 evaluates the density in the same blocks, so it draws what any number of processes draws")
      ->check(CLI::PositiveNumber);
  command.add_option("--rendezvous", o.rendezvous, "Across hosts: HOST:PORT where rank 0 serves the rendezvous (port 0: one the system picks, printed), or file:PATH on a shared file system (PATH must not exist yet)");
  command.add_option("--world-size", o.world_size, "Across hosts: the number of processes")->check(CLI::PositiveNumber);
  command.add_option("--rank", o.rank, "Across hosts: this process's rank, 0 to world size - 1")->check(CLI::NonNegativeNumber);
  command.add_option("--dist-timeout", o.timeout_seconds, "Seconds a process waits for the others to join or answer before the run fails")
      ->capture_default_str()->check(CLI::PositiveNumber);
  command.add_option("--shard", o.shard, "rows: each process evaluates its blocks of the likelihood's rows; none: every process evaluates the whole model")
      ->capture_default_str()->check(CLI::IsMember({"rows", "none"}));
  command.add_option("--row-blocks", o.row_blocks, "Blocks the rows are cut into, whatever the number of processes (at most this many processes; the same blocks give the same draws on any number)")
      ->capture_default_str()->check(CLI::PositiveNumber);
}

bool start_distributed(const DistributedOptions& options, std::unique_ptr<DistributedRun>& run,
                       std::ostream& errors) {
  try {
    run = DistributedRun::start(options, errors);
    return true;
  } catch (const std::exception& e) {
    errors << "error: " << e.what() << "\n";
    return false;
  }
}

std::unique_ptr<DistributedRun> DistributedRun::start(const DistributedOptions& options, std::ostream& log) {
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(options.timeout_seconds * 1000));
  std::optional<distributed::RendezvousSpec> spec = distributed::rendezvous_from_environment();
  const bool from_environment = spec.has_value();
  const bool launched = spec.has_value() && std::getenv("VARIATE_PARENT_PID");
  if (launched) distributed::follow_parent_rank();
  int local_ranks = 1;
  if (spec) {
    if (launched) local_ranks = spec->world_size;
    if (const char* local = std::getenv("LOCAL_WORLD_SIZE")) local_ranks = std::max(1, std::atoi(local));
  } else if (options.rendezvous) {
    if (options.nproc > 1) throw ArgumentError("--nproc starts processes on this host; --rendezvous joins a run across hosts: give one of them");
    if (!options.world_size || !options.rank) throw ArgumentError("--rendezvous needs --world-size and --rank");
    spec = distributed::parse_rendezvous(*options.rendezvous);
    spec->world_size = *options.world_size;
    spec->rank = *options.rank;
    distributed::check_ranks(*spec);
  } else if (options.world_size || options.rank) {
    throw ArgumentError("--world-size and --rank go with --rendezvous");
  } else if (options.nproc > 1) {
    spec = distributed::RendezvousSpec{};
    spec->world_size = options.nproc;  // rank 0 on 127.0.0.1, at a port the system picks
    local_ranks = options.nproc;
  } else if (options.nproc == 1) {
    std::unique_ptr<DistributedRun> run(new DistributedRun);
    run->options_ = options;
    run->address_ = "none";
    run->communicator_ = std::make_shared<distributed::LocalCommunicator>();
    run->lockstep_ = std::make_unique<distributed::CommunicatorLockstep>(run->communicator_);
    return run;
  } else {
    return nullptr;
  }
  spec->timeout = timeout;
  std::unique_ptr<DistributedRun> run(new DistributedRun);
  run->options_ = options;
  run->local_ranks_ = local_ranks;
  run->group_ = std::make_unique<distributed::RunGroup>(*spec);
  distributed::RendezvousSpec served = *spec;
  if (served.kind == distributed::RendezvousSpec::Kind::tcp) served.port = run->group_->port();
  run->address_ = served.address();
  if (run->root() && options.rendezvous) {
    log << "rendezvous: rank 0 of " << spec->world_size << " serves " << run->address_ << "\n" << std::flush;
  }
  if (run->root() && !from_environment && !options.rendezvous && options.nproc > 1) {
    run->children_ = std::make_unique<distributed::ChildRanks>(options.nproc, run->address_, "", options.rank_arguments);
  }
  distributed::ChildRanks* children = run->children_.get();
  run->group_->join([children] {
    if (!children) return;
    if (const std::string failure = children->poll_failure(); !failure.empty()) {
      throw distributed::DistributedError(failure + " before it joined the run");
    }
  });
  run->communicator_ = run->group_->communicator("run");
  run->lockstep_ = std::make_unique<distributed::CommunicatorLockstep>(run->communicator_);
  return run;
}

DistributedRun::~DistributedRun() {
  if (children_) children_->stop();
}

int DistributedRun::threads(int requested) const {
  if (requested > 0) return requested;
  return std::max(1, hardware_threads() / local_ranks_);
}

uint64_t DistributedRun::agree_on_seed(std::optional<uint64_t> seed) {
  return distributed::agree_on_seed(*communicator_, seed);
}

std::string DistributedRun::describe() const {
  std::string text = size() == 1 ? std::string("1 process (") : std::to_string(size()) + " processes (rendezvous " + address_ + ", ";
  text += split_rows() ? "rows split in " + std::to_string(options_.row_blocks) + " blocks)"
                       : "the whole model on each)";
  return text;
}

std::string DistributedRun::finish() {
  if (!children_) return "";
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(options_.timeout_seconds * 1000));
  std::string failure = children_->wait(timeout);
  if (!failure.empty()) children_->stop();
  return failure;
}

std::string DistributedRun::failure(const std::exception& error, DistributedRun* run) {
  std::string message = error.what();
  if (const std::string children = run ? run->abort() : ""; !children.empty()) message += " (" + children + ")";
  return message;
}

std::string DistributedRun::abort() {
  if (!children_) return "";
  std::string failure = children_->poll_failure();
  // A rank seen gone may still be tearing down its threads, not yet waitable: give its
  // exit a moment to be told.
  for (int i = 0; failure.empty() && i < 30; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    failure = children_->poll_failure();
  }
  children_->stop();
  return failure;
}

}  // namespace variate::cli
