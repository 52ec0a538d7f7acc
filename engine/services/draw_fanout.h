#pragma once
/// The one observer a NUTS run's sampler feeds (or a worker's replayed events): each
/// batch's rows of output values are computed once, on the chain's thread (DrawColumns,
/// and with a predictive each draw's NAME_rep and log_lik columns), then handed to the
/// project's recorder first (draws are stored before a front end may hold the chain), kept
/// for the summary, and passed to the front end's observer.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/io/chains_summary.h"
#include "engine/services/predictive_columns.h"
#include "engine/services/run_observers.h"
#include "engine/store/run_recorder.h"
#include "engine/target/draw_columns.h"

namespace variate::services {

class DrawFanout : public SampleObserver {
 public:
  /// `predictive` (may be null) adds chain c's predictive columns from
  /// PredictiveColumns::chain_stream(seed, c + 1), for sampling draws (warmup rows get NaN).
  DrawFanout(const DrawColumns& columns, int chains, const PredictiveColumns* predictive, uint64_t seed);

  void set_recorder(store::RunRecorder* recorder) { recorder_ = recorder; }
  void set_observer(DrawObserver* observer) { observer_ = observer; }
  /// Holds each chain, after its batch is handed over, while `observers`' run is paused (a
  /// local run: a worker's replayed events are held on the worker).
  void hold_while_paused(const RunObservers* observers) { pause_ = observers; }
  /// A run reattached to its job: the recorder gets, per chain, only the iterations after
  /// the rows the project holds (`stored`); `offsets` are the rows each chain had before
  /// the job (a continued run), which the job's iterations follow.
  void skip_recorded(std::vector<store::ChainRecord> stored, std::vector<int> offsets);

  void on_draws(const DrawBatch& batch) override;
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;

  /// Each chain's sampling rows: the sampler's values, then the outputs.
  const io::ChainRows& sampling_rows() const { return kept_; }
  /// The names of those columns (Stan CSV style).
  const std::vector<std::string>& names() const { return names_; }
  /// Each chain's last position seen (a replayed run's chain ends leave them out).
  std::vector<double> last_position(int chain) const;

 private:
  Rows rows_of(const DrawBatch& batch) const;
  void record(const DrawBatch& batch, const Rows& rows);

  const DrawColumns& columns_;
  const PredictiveColumns* predictive_;
  std::vector<std::string> names_;
  // Per chain, with a predictive; each chain's thread advances only its own.
  mutable std::vector<PredictiveColumns::ChainStream> streams_;
  store::RunRecorder* recorder_ = nullptr;
  DrawObserver* observer_ = nullptr;
  const RunObservers* pause_ = nullptr;
  std::vector<store::ChainRecord> stored_;
  std::vector<int> offsets_;
  io::ChainRows kept_;
  std::vector<std::vector<double>> last_;
  mutable std::mutex last_mutex_;
};

}  // namespace variate::services
