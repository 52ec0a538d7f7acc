#include "engine/services/distributed_run.h"

#include <chrono>
#include <cstdlib>
#include <thread>

#include "engine/core/argument_error.h"
#include "engine/core/threading.h"
#include "engine/distributed/distributed_error.h"

namespace variate::services {

std::unique_ptr<DistributedRun> DistributedRun::start(const RankPlan& plan,
                                                     const std::function<void(const std::string&)>& tell) {
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(plan.timeout_seconds * 1000));
  std::optional<distributed::RendezvousSpec> spec = distributed::rendezvous_from_environment();
  const bool from_environment = spec.has_value();
  const bool launched = spec.has_value() && std::getenv("VARIATE_PARENT_PID");
  if (launched) distributed::follow_parent_rank();
  const int nproc = plan.nproc.value_or(0);
  int local_ranks = 1;
  if (spec) {
    if (launched) local_ranks = spec->world_size;
    if (const char* local = std::getenv("LOCAL_WORLD_SIZE")) local_ranks = std::max(1, std::atoi(local));
  } else if (plan.rendezvous) {
    if (nproc > 1) {
      throw ArgumentError("--nproc starts processes on this host; --rendezvous joins a run across hosts: give one of them");
    }
    if (!plan.world_size || !plan.rank) throw ArgumentError("--rendezvous needs --world-size and --rank");
    spec = distributed::parse_rendezvous(*plan.rendezvous);
    spec->world_size = *plan.world_size;
    spec->rank = *plan.rank;
    distributed::check_ranks(*spec);
  } else if (plan.world_size || plan.rank) {
    throw ArgumentError("--world-size and --rank go with --rendezvous");
  } else if (nproc > 1) {
    spec = distributed::RendezvousSpec{};
    spec->world_size = nproc;  // rank 0 on 127.0.0.1, at a port the system picks
    local_ranks = nproc;
  } else if (nproc == 1) {
    std::unique_ptr<DistributedRun> run(new DistributedRun);
    run->plan_ = plan;
    run->address_ = "none";
    run->communicator_ = std::make_shared<distributed::LocalCommunicator>();
    run->lockstep_ = std::make_unique<distributed::CommunicatorLockstep>(run->communicator_);
    return run;
  } else {
    return nullptr;
  }
  spec->timeout = timeout;
  std::unique_ptr<DistributedRun> run(new DistributedRun);
  run->plan_ = plan;
  run->local_ranks_ = local_ranks;
  run->group_ = std::make_unique<distributed::RunGroup>(*spec);
  distributed::RendezvousSpec served = *spec;
  if (served.kind == distributed::RendezvousSpec::Kind::tcp) served.port = run->group_->port();
  run->address_ = served.address();
  if (run->root() && plan.rendezvous && tell) {
    tell("rendezvous: rank 0 of " + std::to_string(spec->world_size) + " serves " + run->address_);
  }
  if (run->root() && !from_environment && !plan.rendezvous && nproc > 1) {
    run->children_ = std::make_unique<distributed::ChildRanks>(nproc, run->address_, plan.rank_program, plan.rank_command);
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

int64_t DistributedRun::next_ticket(const std::string& counter) { return group_->add(counter, 1) - 1; }

std::string DistributedRun::describe() const {
  std::string text = size() == 1 ? std::string("1 process (")
                                 : std::to_string(size()) + " processes (rendezvous " + address_ + ", ";
  text += split_rows() ? "rows split in " + std::to_string(plan_.row_blocks) + " blocks)" : "the whole model on each)";
  return text;
}

void DistributedRun::finish() {
  if (!children_) return;
  const auto timeout = std::chrono::milliseconds(static_cast<int64_t>(plan_.timeout_seconds * 1000));
  const std::string failure = children_->wait(timeout);
  if (failure.empty()) return;
  children_->stop();
  throw distributed::DistributedError(failure + " after the run");
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

}  // namespace variate::services
