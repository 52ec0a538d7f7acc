#pragma once
/// What a training (amortized_fit.h) reports as it goes: its steps, its epochs and its
/// checkpoints. Plain values without LibTorch, so that a front end that sees a training
/// (the studio's panels, `variate fit`'s lines) includes no tensor header.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace variate::deep {

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

}  // namespace variate::deep
