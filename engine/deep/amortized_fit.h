#pragma once
/// Training a deep model (amortized_model.h, amortized_program.h) by stochastic gradient ascent on the
/// minibatch ELBO with Adam: epochs over the training rows shuffled from the seed, one
/// reparameterized draw per row, the batch's ELBO scaled by N / batch size.
///
/// Data-parallel over the ranks of a communicator: every rank holds the same weights and
/// takes its part of each global batch; the gradients (and the batch's ELBO and a stop
/// flag) are summed with one allreduce per step, and every rank takes the same Adam step
/// — or, for ranks on one host, summed in shared memory, each rank stepping its part of
/// the shared weights (share_memory).
/// The shuffles and the noise are drawn for the global batch from the seed, so the rows
/// and draws do not depend on the number of ranks. The gradient of a batch is the sum of
/// `gradient_shards` parts computed apart: 2 ranks and 1 rank with 2 shards add the same
/// two parts (a + b = b + a exactly), so they give the same weights to the bit; other
/// splits change the order of the sums (float32 rounding, ~1e-7 relative per step).
///
///   AmortizedFit fit(model, options, communicator);
///   AmortizedFitResult result = fit.run(&observer, stop);

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/deep/amortized_objective.h"
#include "engine/distributed/communicator.h"

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

/// One optimization step: the mean ELBO per row of its batch (before the step).
struct TrainingStep {
  int64_t step = 0;  ///< 1-based, over all epochs
  int epoch = 0;     ///< 1-based
  double elbo = 0;
};

struct EpochReport {
  int epoch = 0;
  int64_t step = 0;  ///< steps done at its end
  double train_elbo = 0;  ///< mean per row over the epoch's batches
  std::optional<double> heldout_elbo;  ///< per held-out row, one draw each
  double seconds = 0;  ///< training steps only
  double rows_per_second = 0;
};

/// Where a training stands: enough to continue it exactly (the shuffles and draws come
/// from the seed, the step and the epoch).
struct TrainingCheckpoint {
  int64_t step = 0;      ///< steps done
  int epoch = 1;         ///< the epoch the next step belongs to
  int64_t epoch_step = 0;  ///< steps of that epoch already done
  /// The weights and Adam's state (torch::serialize archives).
  std::string weights;
  std::string optimizer;
};

/// Reports from the thread that trains, rank 0 only (every rank trains the same).
class AmortizedFitObserver {
 public:
  virtual ~AmortizedFitObserver() = default;
  /// At least every ~100 ms and at each epoch's end.
  virtual void on_steps(const std::vector<TrainingStep>& steps) {}
  virtual void on_epoch(const EpochReport& report) {}
  /// At each epoch's end, every checkpoint_every steps and when stopped.
  virtual void on_checkpoint(const TrainingCheckpoint& checkpoint) {}
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

class AmortizedFit {
 public:
  /// @throws ArgumentError for a batch size, epoch count or learning rate that is not
  /// positive, or shards that are not a multiple of the ranks.
  AmortizedFit(AmortizedObjective& model, const AmortizedFitOptions& options,
               std::shared_ptr<distributed::Communicator> communicator = nullptr);
  ~AmortizedFit();

  /// Continues from `checkpoint` (its weights and Adam's state are loaded).
  /// @throws ArgumentError when the archives do not fit the model's networks.
  void resume(const TrainingCheckpoint& checkpoint);

  /// Trains until the epochs or max_steps are done, or `stop` is set on rank 0 (every
  /// rank stops after the same step). A stop keeps the weights and hands over a
  /// checkpoint. While `pause` is set training waits between steps (on one process: the
  /// other ranks of a run would wait for rank 0 only up to their timeout).
  /// @throws DistributedError when a rank stops responding.
  AmortizedFitResult run(AmortizedFitObserver* observer = nullptr, const std::atomic<bool>* stop = nullptr,
                         const std::atomic<bool>* pause = nullptr);

  /// The held-out ELBO per row (one draw per row from `seed`), computed by all ranks.
  double heldout_elbo(uint64_t seed);
  /// The current state, as a checkpoint.
  TrainingCheckpoint checkpoint() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace variate::deep
