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

#include "engine/deep/amortized_fit_options.h"
#include "engine/deep/amortized_objective.h"
#include "engine/deep/training_observer.h"
#include "engine/distributed/communicator.h"

namespace variate::deep {

class AmortizedFit {
 public:
  /// @throws ArgumentError for a batch size, epoch count or learning rate that is not
  /// positive, or shards that are not a multiple of the ranks.
  AmortizedFit(AmortizedObjective& model, const AmortizedFitOptions& options,
               std::shared_ptr<distributed::Communicator> communicator = nullptr);
  /// The networks keep the trained weights (in storage of their own, where the ranks
  /// shared theirs).
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
