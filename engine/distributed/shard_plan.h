#pragma once
/// How the rows of the split likelihoods (shardable_rows.h) are cut into blocks and the
/// blocks dealt to ranks. The blocks do not depend on the number of ranks: each is
/// evaluated on its own, every rank adds them up in block order, and so a run gives the
/// same bits on 1, 2 or 16 processes. Rank r holds a contiguous, balanced range of
/// blocks; block b of a likelihood with N rows holds rows [N b / B, N (b + 1) / B).

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/distributed/shardable_rows.h"
#include "engine/model/compiled_model.h"

namespace variate::distributed {

/// Blocks unless asked otherwise: up to this many ranks can share a run.
constexpr int kDefaultRowBlocks = 16;

class ShardPlan {
 public:
  /// @throws ArgumentError when there are more ranks than blocks, or blocks < 1.
  ShardPlan(std::vector<ShardedStatement> statements, int world_size, int blocks = kDefaultRowBlocks);

  const std::vector<ShardedStatement>& statements() const { return statements_; }
  int blocks() const { return blocks_; }
  int world_size() const { return world_size_; }
  /// Blocks [first, second) of `rank`.
  std::pair<int, int> blocks_of(int rank) const;
  int max_blocks_per_rank() const;
  /// Rows [first, second) of statement `i` (an index into statements()) in `block`.
  std::pair<int64_t, int64_t> rows(size_t i, int block) const;

  /// Block `block`: the split likelihoods alone, on their rows of the block.
  model::ModelPart block_part(int block) const;
  /// Everything else (priors, Jacobians, likelihoods without rows), on the whole data
  /// less the split rows (kept only when a derived quantity is computed from them).
  model::ModelPart whole_part(const model::CheckedModel& checked) const;

  /// What every rank must agree on: blocks, ranks, and each split likelihood's statement
  /// and rows.
  std::vector<int64_t> fingerprint() const;

 private:
  std::vector<ShardedStatement> statements_;
  int world_size_;
  int blocks_;
};

}  // namespace variate::distributed
