#include "engine/distributed/agreement.h"

#include <ATen/ATen.h>

#include <random>

#include "engine/distributed/distributed_error.h"

namespace variate::distributed {
namespace {

// Every rank's two values, [size, 2].
at::Tensor gather_pair(Communicator& communicator, int64_t a, int64_t b) {
  at::Tensor local = at::empty({2}, at::kLong);
  local[0] = a;
  local[1] = b;
  at::Tensor gathered = at::empty({communicator.size(), 2}, at::kLong);
  communicator.allgather(local, gathered);
  return gathered;
}

std::string differing_ranks(const at::Tensor& gathered, int64_t column) {
  const auto values = gathered.accessor<int64_t, 2>();
  std::string ranks;
  for (int64_t r = 1; r < gathered.size(0); ++r) {
    if (values[r][column] != values[0][column]) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  }
  return ranks;
}

}  // namespace

uint64_t fnv1a(const void* data, size_t size, uint64_t hash) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t fnv1a(const std::string& text, uint64_t hash) { return fnv1a(text.data(), text.size(), hash); }

void require_agreement(Communicator& communicator, uint64_t fingerprint, const std::string& what) {
  if (communicator.size() == 1) return;
  const at::Tensor gathered = gather_pair(communicator, static_cast<int64_t>(fingerprint), 0);
  const std::string ranks = differing_ranks(gathered, 0);
  if (!ranks.empty()) {
    throw DistributedError("rank(s) " + ranks + " of " + std::to_string(communicator.size()) +
                           " disagree with rank 0 about " + what +
                           ": every process must run the same model on the same data with the same options");
  }
}

uint64_t agree_on_seed(Communicator& communicator, std::optional<uint64_t> seed) {
  std::random_device device;
  const uint64_t own = seed ? *seed : (uint64_t{device()} << 32) | device();
  const at::Tensor gathered = gather_pair(communicator, static_cast<int64_t>(own), 0);
  return static_cast<uint64_t>(gathered[0][0].item<int64_t>());
}

CommunicatorLockstep::CommunicatorLockstep(std::shared_ptr<Communicator> communicator)
    : communicator_(std::move(communicator)) {}

bool CommunicatorLockstep::agree(const double* state, size_t size, bool stop_requested) {
  ++step_;
  if (communicator_->size() == 1) return stop_requested;
  const auto hash = static_cast<int64_t>(fnv1a(state, size * sizeof(double)));
  const at::Tensor gathered = gather_pair(*communicator_, hash, stop_requested ? 1 : 0);
  const std::string ranks = differing_ranks(gathered, 0);
  if (!ranks.empty()) {
    throw DistributedError("the processes diverged at step " + std::to_string(step_) + " of the run: rank(s) " +
                           ranks + " hold a different state than rank 0");
  }
  return gathered.select(1, 1).sum().item<int64_t>() > 0;
}

}  // namespace variate::distributed
