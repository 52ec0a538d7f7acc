#pragma once
// Streams a NUTS run to CmdStan-style CSV files (one per chain) while it samples, and
// prints its progress lines.

#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/io/stan_csv_writer.h"
#include "engine/services/run_observers.h"

namespace variate::cli {

struct ChainOutputOptions {
  std::optional<std::string> directory;  // CSV files go here when set
  io::SampleCsvInfo info;
  bool progress = true;  // "Chain 1 Iteration: 200 / 2000 [ 10%] (Warmup)"
  std::ostream* progress_stream = nullptr;
};

class ChainOutput : public services::DrawObserver {
 public:
  ChainOutput(int chains, ChainOutputOptions options);

  /// Opens the files once the run has started: `columns` are a row's (RunStarted::columns),
  /// `seed` the run's, `reparam` what it sampled (RunStarted::reparam).
  void start(const std::vector<std::string>& columns, uint64_t seed, const std::string& reparam = "none");
  void on_draws(const DrawBatch& batch, const services::Rows& rows) override;
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;
  bool reads_warmup_rows() const override { return options_.info.save_warmup; }

  /// `draws` more iterations per chain than announced (auto-stop's next round), for the
  /// progress lines. Call between rounds, never while chains run.
  void extend(int draws) { total_iterations_ += draws; }

 private:
  ChainOutputOptions options_;
  int total_iterations_;
  std::vector<std::unique_ptr<io::StanCsvWriter>> writers_;
  std::mutex progress_mutex_;
};

}  // namespace variate::cli
