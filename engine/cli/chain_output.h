#pragma once
// Streams a NUTS run to CmdStan-style CSV files (one per chain) while it samples, and
// keeps every chain's output rows for the summary.

#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/io/chains_summary.h"
#include "engine/mcmc/sample.h"
#include "engine/io/stan_csv_writer.h"
#include "engine/target/draw_columns.h"
#include "engine/workflow/posterior_predictive.h"

namespace variate::cli {

struct ChainOutputOptions {
  std::optional<std::string> directory;  // CSV files go here when set
  io::SampleCsvInfo info;
  bool progress = true;  // "Chain 1 Iteration: 200 / 2000 [ 10%] (Warmup)"
  std::ostream* progress_stream = &std::cerr;
  /// With `sample --predict`: each draw's NAME_rep and log_lik columns follow the draw
  /// columns (CmdStan's generated quantities), chain c's from chain_generator(seed, c).
  const workflow::PosteriorPredictive* predictive = nullptr;
};

class ChainOutput : public SampleObserver {
 public:
  ChainOutput(const DrawColumns& columns, int chains, ChainOutputOptions options);

  void on_draws(const DrawBatch& batch) override;
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override;
  void on_chain_finished(const ChainResult& result) override;

  /// `draws` more iterations per chain than announced (auto-stop's next round), for the
  /// progress lines. Call between rounds, never while chains run.
  void extend(int draws) { total_iterations_ += draws; }

  /// Sampling rows (sampler values, outputs, predictive columns) of each chain, after the run.
  const io::ChainRows& draws() const { return draws_; }
  /// The names of those columns (Stan CSV style).
  const std::vector<std::string>& names() const { return names_; }

 private:
  void append_predictive(const DrawBatch& batch, std::vector<std::vector<double>>& outputs);

  const DrawColumns& columns_;
  ChainOutputOptions options_;
  int total_iterations_;
  std::vector<std::string> names_;
  std::vector<at::Generator> generators_;  // per chain, with a predictive
  std::vector<std::unique_ptr<io::StanCsvWriter>> writers_;
  io::ChainRows draws_;
  std::mutex progress_mutex_;
};

}  // namespace variate::cli
