// The one file that includes c10d: RunGroup and the Gloo communicator. It compiles
// against LibTorch 1.13 (ProcessGroupGloo is a ProcessGroup) and 2.x (it is a Backend
// with the same collective signatures; see GroupHandle).

#include "engine/distributed/run_group.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>

#include "engine/distributed/distributed_error.h"

#ifndef USE_C10D_GLOO
#error "Variate's distributed runs need LibTorch's c10d with Gloo (USE_C10D_GLOO)"
#endif

namespace variate::distributed {
namespace {

#if TORCH_VERSION_MAJOR >= 2
using GroupHandle = c10::intrusive_ptr<c10d::Backend>;
#else
using GroupHandle = c10::intrusive_ptr<c10d::ProcessGroup>;
#endif

using Clock = std::chrono::steady_clock;

std::string message_of(const std::exception& e) {
  if (const auto* error = dynamic_cast<const c10::Error*>(&e)) return error->what_without_backtrace();
  return e.what();
}

std::string seconds_text(std::chrono::milliseconds t) {
  std::ostringstream text;
  text << static_cast<double>(t.count()) / 1000 << " s";
  return text.str();
}

std::string rank_list(const std::vector<int>& ranks, int world) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += i + 1 == ranks.size() ? " and " : ", ";
    text += std::to_string(ranks[i]);
  }
  return text + " of " + std::to_string(world);
}

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

// The network device Gloo talks over: loopback for a run on one host; across hosts the
// interface GLOO_SOCKET_IFNAME names (as PyTorch reads it), else the host name's address.
std::shared_ptr<::gloo::transport::Device> gloo_device(const RendezvousSpec& spec) {
  if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"); interface && *interface) {
    return c10d::ProcessGroupGloo::createDeviceForInterface(interface);
  }
  if (spec.kind == RendezvousSpec::Kind::tcp && is_loopback(spec.host)) {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

std::string fault_key(int rank) { return "fault/" + std::to_string(rank); }

// Waits for a collective by yielding rather than sleeping: a process that blocks lets its
// core go idle, and on a virtual machine waking an idle core again for the reply costs
// milliseconds, which per gradient would outweigh the collective itself (measured: 2.5
// ms against 0.3). Yielding keeps the core awake and hands it to Gloo's own threads. The
// ranks of a host are at most its cores, so nothing else waits for this one. Gloo's
// timeout completes the work with an error, which wait() then throws.
void wait_yielding(const c10::intrusive_ptr<c10d::Work>& work) {
  while (!work->isCompleted()) std::this_thread::yield();
  work->wait();
}

}  // namespace

struct RunGroup::State {
  RendezvousSpec spec;
  c10::intrusive_ptr<c10d::Store> store;
  uint16_t port = 0;

  // After a collective failed: which ranks did not report the failure through the
  // store within a grace period (the dead or hung ones), then an error naming them.
  [[noreturn]] void fail(const std::string& what, const std::string& scope) {
    std::vector<int> silent;
    try {
      store->set(scope + fault_key(spec.rank), std::vector<uint8_t>{1});
      // Survivors see a failure within ~0.2 s of each other (a reset connection, or the
      // same timeout).
      const auto grace = std::min<std::chrono::milliseconds>(spec.timeout, std::chrono::seconds(1));
      const auto deadline = Clock::now() + grace;
      do {
        silent.clear();
        for (int r = 0; r < spec.world_size; ++r) {
          if (!store->check({scope + fault_key(r)})) silent.push_back(r);
        }
        if (silent.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      } while (Clock::now() < deadline);
    } catch (const std::exception&) {
      silent = {0};  // its store is gone with it
    }
    std::string message = "rank " + std::to_string(spec.rank) + " of " + std::to_string(spec.world_size);
    if (silent.empty()) {
      message += ": a collective failed: " + what;
    } else {
      message += ": " + rank_list(silent, spec.world_size) + " stopped responding (exited, killed or hung): " + what;
    }
    throw DistributedError(message);
  }
};

namespace {

class GlooCommunicator final : public Communicator {
 public:
  GlooCommunicator(std::shared_ptr<RunGroup::State> state, std::string scope, GroupHandle group)
      : state_(std::move(state)), scope_(std::move(scope)), group_(std::move(group)) {}

  ~GlooCommunicator() override {
    // After a failure the transport is in an unknown state (Gloo's docs/errors.md), and
    // tearing the group down can block until Gloo's timeout: the process is exiting, so
    // the group is left to it.
    if (failed_) (void)group_.release();
  }

  int rank() const override { return state_->spec.rank; }
  int size() const override { return state_->spec.world_size; }

  void allgather(const at::Tensor& local, at::Tensor& gathered) override {
    std::vector<std::vector<at::Tensor>> outputs(1);
    for (int r = 0; r < size(); ++r) outputs[0].push_back(gathered.select(0, r));
    std::vector<at::Tensor> inputs{local};
    run([&] { wait_yielding(group_->allgather(outputs, inputs)); });
  }

  void allreduce_sum(at::Tensor& buffer) override {
    std::vector<at::Tensor> buffers{buffer};
    run([&] { wait_yielding(group_->allreduce(buffers)); });
  }

  void barrier() override {
    run([&] { group_->barrier()->wait(); });
  }

 private:
  template <class F>
  void run(F&& collective) {
    try {
      collective();
    } catch (const std::exception& e) {
      failed_ = true;
      state_->fail(message_of(e), scope_);
    }
  }

  std::shared_ptr<RunGroup::State> state_;
  std::string scope_;
  GroupHandle group_;
  bool failed_ = false;
};

}  // namespace

RunGroup::RunGroup(RendezvousSpec spec) : state_(std::make_shared<State>()) {
  check_ranks(spec);
  state_->spec = std::move(spec);
  const RendezvousSpec& s = state_->spec;
  try {
    if (s.kind == RendezvousSpec::Kind::file) {
      state_->store = c10::make_intrusive<c10d::FileStore>(s.path, s.world_size);
    } else {
      c10d::TCPStoreOptions options;
      options.port = s.port;
      options.isServer = s.rank == 0 && s.rank0_serves;
      options.numWorkers = static_cast<size_t>(s.world_size);
      options.waitWorkers = false;  // join() checks, and names who is missing
      options.timeout = s.timeout;
      auto store = c10::make_intrusive<c10d::TCPStore>(s.host, options);
      state_->port = store->getPort();
      state_->spec.port = state_->port;  // messages name the port served
      state_->store = store;
    }
    state_->store->setTimeout(s.timeout);
  } catch (const std::exception& e) {
    throw DistributedError("rank " + std::to_string(s.rank) + " of " + std::to_string(s.world_size) +
                           (s.rank == 0 && s.kind == RendezvousSpec::Kind::tcp ? " could not serve " : " could not reach ") +
                           "the rendezvous at " + s.address() + ": " + message_of(e));
  }
}

RunGroup::~RunGroup() = default;

const RendezvousSpec& RunGroup::spec() const { return state_->spec; }
int RunGroup::rank() const { return state_->spec.rank; }
int RunGroup::size() const { return state_->spec.world_size; }
uint16_t RunGroup::port() const { return state_->port; }

int64_t RunGroup::add(const std::string& key, int64_t amount) {
  static std::mutex one_at_a_time;  // the store's client is one connection
  std::lock_guard<std::mutex> lock(one_at_a_time);
  try {
    return state_->store->add("count/" + key, amount);
  } catch (const std::exception& e) {
    throw DistributedError("the counter '" + key + "' of " + state_->spec.address() +
                           " could not be reached: " + message_of(e));
  }
}

void RunGroup::join(const std::function<void()>& while_waiting) {
  const RendezvousSpec& s = state_->spec;
  c10d::Store& store = *state_->store;
  std::vector<int> missing;
  try {
    if (store.add("claims/" + std::to_string(s.rank), 1) > 1) {
      throw DistributedError("two processes claim rank " + std::to_string(s.rank) + " of " +
                             std::to_string(s.world_size) + " at " + s.address());
    }
    std::ostringstream who;
    who << s.host << " pid " << ::getpid();
    const std::string text = who.str();
    store.set("rank/" + std::to_string(s.rank), std::vector<uint8_t>(text.begin(), text.end()));
    store.add("joined", 1);
    const auto deadline = Clock::now() + s.timeout;
    while (store.add("joined", 0) < s.world_size) {
      if (Clock::now() >= deadline) {
        for (int r = 0; r < s.world_size; ++r) {
          if (!store.check({"rank/" + std::to_string(r)})) missing.push_back(r);
        }
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (while_waiting) while_waiting();
    }
  } catch (const DistributedError&) {
    throw;
  } catch (const std::exception& e) {
    throw DistributedError("rank " + std::to_string(s.rank) + " of " + std::to_string(s.world_size) +
                           " lost the rendezvous at " + s.address() + " while joining: " + message_of(e));
  }
  if (!missing.empty()) {
    throw DistributedError(rank_list(missing, s.world_size) + " did not join within " +
                           seconds_text(s.timeout) + " (rendezvous " + s.address() + ")");
  }
}

std::shared_ptr<Communicator> RunGroup::communicator(const std::string& name) {
  const RendezvousSpec& s = state_->spec;
  const std::string scope = "group/" + name + "/";
  try {
    auto store = c10::make_intrusive<c10d::PrefixStore>(scope, state_->store);
    auto options = c10d::ProcessGroupGloo::Options::create(s.timeout);
    options->devices.push_back(gloo_device(s));
    options->threads = 1;  // collectives in the order they are issued
    GroupHandle group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, s.rank, s.world_size, options);
    return std::make_shared<GlooCommunicator>(state_, scope, std::move(group));
  } catch (const std::exception& e) {
    throw DistributedError("rank " + std::to_string(s.rank) + " of " + std::to_string(s.world_size) +
                           " could not form the process group '" + name + "': " + message_of(e));
  }
}

bool RunGroup::has_nccl() {
#if defined(USE_C10D_NCCL)
  return true;
#else
  return false;
#endif
}

}  // namespace variate::distributed
