#include "engine/deep/shared_training_memory.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ATen/ATen.h>

#include "engine/distributed/distributed_error.h"

namespace variate::deep {
namespace {

constexpr int kMaxRanks = 256;
constexpr size_t kAlignment = 4096;

size_t aligned(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

std::string segment_name(int64_t pid, int64_t token) {
  return "/variate-fit-" + std::to_string(pid) + "-" + std::to_string(token);
}

// Whether `pid` runs (a killed rank stays a zombie until its parent reaps it, and its
// parent may be the rank that waits for it).
bool running(int64_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  const size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return false;
  const char state = text[close + 2];
  return state != 'Z' && state != 'X';
}

[[noreturn]] void fail(const std::string& what) {
  throw distributed::DistributedError("shared memory of the ranks: " + what + ": " + std::strerror(errno));
}

}  // namespace

// At the start of the segment: each rank's process and how many barriers it has passed.
struct SharedTrainingMemory::Control {
  std::atomic<int64_t> pid[kMaxRanks];
  std::atomic<uint64_t> arrived[kMaxRanks];
};

SharedTrainingMemory::SharedTrainingMemory(distributed::Communicator& communicator, int64_t weights,
                                           int64_t slot_size, at::ScalarType dtype, std::chrono::milliseconds timeout)
    : rank_(communicator.rank()), size_(communicator.size()), weights_(weights), slot_size_(slot_size),
      dtype_(dtype), timeout_(timeout) {
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "the barrier's counters are shared between processes");
  if (size_ > kMaxRanks) {
    throw distributed::DistributedError("shared memory of the ranks: at most " + std::to_string(kMaxRanks) +
                                        " ranks on one host");
  }
  const size_t element = c10::elementSize(dtype);
  bytes_ = aligned(sizeof(Control)) + 3 * aligned(weights * element) + size_ * aligned(slot_size * element);
  // Rank 0 names the segment; the others learn the name in one collective.
  at::Tensor name = at::zeros({2}, at::kLong);
  int descriptor = -1;
  if (rank_ == 0) {
    name[0] = static_cast<int64_t>(::getpid());
    name[1] = static_cast<int64_t>(std::random_device{}() & 0x7fffffff);
    descriptor = ::shm_open(segment_name(name[0].item<int64_t>(), name[1].item<int64_t>()).c_str(),
                            O_CREAT | O_EXCL | O_RDWR, 0600);
    if (descriptor < 0) fail("cannot create the segment");
    if (::ftruncate(descriptor, static_cast<off_t>(bytes_)) != 0) fail("cannot size the segment");
  }
  at::Tensor names = at::zeros({size_, 2}, at::kLong);
  communicator.allgather(name, names);
  const std::string path = segment_name(names[0][0].item<int64_t>(), names[0][1].item<int64_t>());
  if (rank_ != 0) {
    descriptor = ::shm_open(path.c_str(), O_RDWR, 0600);
    if (descriptor < 0) fail("cannot open the segment " + path);
  }
  mapping_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
  ::close(descriptor);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    fail("cannot map the segment");
  }
  control_ = static_cast<Control*>(mapping_);  // zero-filled by ftruncate: no barrier passed yet
  control_->pid[rank_].store(static_cast<int64_t>(::getpid()));
  data_ = static_cast<char*>(mapping_) + aligned(sizeof(Control));
  communicator.barrier();  // everyone has mapped it
  if (rank_ == 0) ::shm_unlink(path.c_str());
}

SharedTrainingMemory::~SharedTrainingMemory() {
  if (mapping_) ::munmap(mapping_, bytes_);
}

at::Tensor SharedTrainingMemory::weights() const {
  return at::from_blob(data_, {weights_}, at::TensorOptions(dtype_));
}

at::Tensor SharedTrainingMemory::first_moment() const {
  const size_t element = c10::elementSize(dtype_);
  return at::from_blob(data_ + aligned(weights_ * element), {weights_}, at::TensorOptions(dtype_));
}

at::Tensor SharedTrainingMemory::second_moment() const {
  const size_t element = c10::elementSize(dtype_);
  return at::from_blob(data_ + 2 * aligned(weights_ * element), {weights_}, at::TensorOptions(dtype_));
}

at::Tensor SharedTrainingMemory::slot(int rank) const {
  const size_t element = c10::elementSize(dtype_);
  char* first = data_ + 3 * aligned(weights_ * element) + rank * aligned(slot_size_ * element);
  return at::from_blob(first, {slot_size_}, at::TensorOptions(dtype_));
}

std::pair<int64_t, int64_t> SharedTrainingMemory::segment() const {
  return {weights_ * rank_ / size_, weights_ * (rank_ + 1) / size_};
}

void SharedTrainingMemory::barrier() {
  const uint64_t target = ++barrier_generation_;
  control_->arrived[rank_].store(target, std::memory_order_release);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (unsigned spins = 0;; ++spins) {
    int missing = -1;
    for (int r = 0; r < size_ && missing < 0; ++r) {
      if (control_->arrived[r].load(std::memory_order_acquire) < target) missing = r;
    }
    if (missing < 0) return;
    if (spins % 4096 == 4095) {
      const std::string who = "rank " + std::to_string(missing) + " of " + std::to_string(size_);
      const int64_t pid = control_->pid[missing].load();
      if (pid > 0 && !running(pid)) {
        throw distributed::DistributedError(who + " stopped responding (process " + std::to_string(pid) +
                                            " is gone)");
      }
      if (std::chrono::steady_clock::now() > deadline) {
        throw distributed::DistributedError(who + " did not reach the step within " +
                                            std::to_string(timeout_.count() / 1000) + " s (hung?)");
      }
    }
    std::this_thread::yield();
  }
}

}  // namespace variate::deep
