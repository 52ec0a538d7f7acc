#pragma once
/// The draws of one chain so far: an append-only list of immutable blocks. Copies share
/// the blocks, so a copy is a cheap snapshot another thread may read while the original
/// keeps growing.

#include <functional>
#include <vector>

#include "ui/document/draw_block.h"

namespace variate::ui {

class ChainDraws {
 public:
  /// Blocks must arrive in order: block.firstIteration == iterations().
  void append(DrawBlockPtr block);

  int iterations() const { return iterations_; }
  /// Warmup iterations the chain does in all (those made so far may be fewer).
  int warmupIterations() const { return warmup_; }
  int samplingIterations() const { return std::max(0, iterations_ - warmup_); }
  const DrawBlocks& blocks() const { return blocks_; }

  /// Calls f(iteration, value) for iterations [begin, end) of one output column.
  void forEach(int column, int begin, int end, const std::function<void(int, double)>& f) const;
  /// Calls f(iteration, stats) for iterations [begin, end).
  void forEachStats(int begin, int end, const std::function<void(int, const SamplerRow&)>& f) const;
  /// Values of one column for iterations [begin, end).
  std::vector<double> column(int column, int begin, int end) const;
  const SamplerRow& stats(int iteration) const;

 private:
  /// Index of the block holding `iteration`.
  size_t blockOf(int iteration) const;
  /// Calls f(iteration, block, row) for iterations [begin, end).
  void forEachRow(int begin, int end,
                  const std::function<void(int, const DrawBlock&, int)>& f) const;

  DrawBlocks blocks_;
  std::vector<int> starts_;  // first iteration of each block
  int iterations_ = 0;
  int warmup_ = 0;
};

}  // namespace variate::ui
