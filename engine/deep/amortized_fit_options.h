#pragma once
/// What a training (amortized_fit.h) is asked and what it returns: plain values without
/// LibTorch, so that a front end that runs one (through engine/services/train.h)
/// includes no tensor header.

#include <chrono>
#include <cstdint>
#include <optional>

namespace variate::deep {

struct AmortizedFitOptions {
  int epochs = 10;
  int64_t batch_size = 128;
  double learning_rate = 1e-3;
  uint64_t seed = 1;
  /// Stop after this many steps in all (counting those before a resume).
  std::optional<int64_t> max_steps;
  /// Parts of each batch whose gradients are computed apart and added (0: one per rank).
  int gradient_shards = 0;
  /// Rows per evaluation of the held-out ELBO (memory, not the result).
  int64_t heldout_batch = 1000;
  /// Also hand over a checkpoint every this many steps (0: at the end of each epoch only).
  int64_t checkpoint_every = 0;
  /// The ranks run on one host: share the weights and gradients in memory
  /// (shared_training_memory.h) rather than allreduce them over the communicator.
  bool share_memory = false;
  /// How long a rank waits for the others at a step before it gives up.
  std::chrono::milliseconds rank_timeout{60000};
};

enum class AmortizedFitStatus { finished, stopped, max_steps };
const char* to_string(AmortizedFitStatus status);

struct AmortizedFitResult {
  AmortizedFitStatus status = AmortizedFitStatus::finished;
  int64_t steps = 0;
  int epochs = 0;  ///< epochs completed
  double train_elbo = 0;  ///< of the last epoch (or of the steps done of it)
  std::optional<double> heldout_elbo;
  double seconds = 0;  ///< the whole run, held-out evaluations included
  double training_seconds = 0;  ///< the steps only
  double rows_per_second = 0;  ///< training rows over training_seconds (all ranks together)
};

}  // namespace variate::deep
