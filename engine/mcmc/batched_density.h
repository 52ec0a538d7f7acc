#pragma once
/// Batched chains: the chains of a run evaluate their log densities in one tensor
/// computation [B, d] -> [B] (the paper's and TFP's way to use wide hardware), while each
/// chain keeps its own sequential NUTS code. Every chain's thread submits its point and
/// waits; the last active chain to submit evaluates the whole batch and wakes the others.

#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

#include "engine/mcmc/hamiltonian.h"
#include "engine/target/unconstrained_target.h"

namespace variate {

class BatchedDensity {
 public:
  BatchedDensity(const UnconstrainedTarget& target, int chains);

  /// The density as chain `chain` sees it; blocks until the batch is evaluated.
  DensityFunction for_chain(int chain);
  /// Chain `chain` submits no more points (it finished, stopped or failed).
  void retire(int chain);

 private:
  double submit(int chain, const std::vector<double>& q, std::vector<double>& gradient);
  void evaluate_pending();  // with the lock held

  UnconstrainedTarget target_;
  std::mutex mutex_;
  std::condition_variable evaluated_;
  std::vector<const std::vector<double>*> pending_;  // per chain, null when not waiting
  std::vector<bool> active_;
  std::vector<double> log_density_;
  std::vector<std::vector<double>> gradient_;
  std::vector<long> generation_;  // per chain: batches that included it
  int waiting_ = 0;
  std::exception_ptr error_;  // a batch's evaluation failed: every chain rethrows it
  int active_count_;
};

}  // namespace variate
