#pragma once
/// The studio's view of a NUTS run's draws: each batch with its rows of output values
/// (computed once by the service, services/draw_fanout.h) posted to the UI as an immutable
/// block, with the chains' adaptations and ends. The service holds the chains while the
/// run is paused.
/// (Engine-side header: include it from ui/runs .cpp files only; it pulls in ATen.)

#include <vector>

#include "engine/services/run_observers.h"

#include "ui/runs/live_mailbox.h"

namespace variate::ui {

class LiveObserver : public services::DrawObserver {
 public:
  /// `mailbox` must outlive the observer. When the run continues chains that have draws
  /// already, `offsets` and `warmups` give each chain's stored rows and warmup length.
  explicit LiveObserver(LiveMailbox& mailbox, std::vector<int> offsets = {}, std::vector<int> warmups = {})
      : mailbox_(mailbox), offsets_(std::move(offsets)), warmups_(std::move(warmups)) {}

  void on_draws(const DrawBatch& batch, const services::Rows& rows) override;
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;
  bool keeps_rows() const override { return true; }  // the document holds every iteration

 private:
  LiveMailbox& mailbox_;
  std::vector<int> offsets_;
  std::vector<int> warmups_;
};

/// The sampler values of one transition as the studio keeps them.
SamplerRow samplerRow(const NutsResult& stats);

}  // namespace variate::ui
