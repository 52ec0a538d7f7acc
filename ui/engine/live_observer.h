#pragma once
/// The sampler observer that feeds the studio: converts each batch of unconstrained
/// positions to output values (on the chain thread, as the CLI does), posts it as an
/// immutable block, and holds the chain while the run is paused.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)

#include "engine/mcmc/sample.h"
#include "engine/target/draw_columns.h"

#include "ui/engine/live_mailbox.h"
#include "ui/engine/run_control.h"

namespace variate::ui {

class LiveObserver : public SampleObserver {
 public:
  /// All must outlive the observer. When the run continues chains that have draws
  /// already, `offsets` and `warmups` give each chain's stored rows and warmup length.
  LiveObserver(const DrawColumns& columns, RunControl& control, LiveMailbox& mailbox,
               std::vector<int> offsets = {}, std::vector<int> warmups = {})
      : columns_(columns), control_(control), mailbox_(mailbox), offsets_(std::move(offsets)),
        warmups_(std::move(warmups)) {}

  void on_draws(const DrawBatch& batch) override;
  /// Posts `batch` with its output rows computed already (a replayed run computes them
  /// once for the recorder and the live view); never holds the caller.
  void post(const DrawBatch& batch, const std::vector<std::vector<double>>& rows);
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;

 private:
  const DrawColumns& columns_;
  RunControl& control_;
  LiveMailbox& mailbox_;
  std::vector<int> offsets_;
  std::vector<int> warmups_;
};

/// The sampler values of one transition as the studio keeps them.
SamplerRow samplerRow(const NutsResult& stats);

}  // namespace variate::ui
