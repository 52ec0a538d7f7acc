#include "engine/distributed/shard_plan.h"

#include <algorithm>

#include "engine/core/argument_error.h"

namespace variate::distributed {

ShardPlan::ShardPlan(std::vector<ShardedStatement> statements, int world_size, int blocks)
    : statements_(std::move(statements)), world_size_(world_size), blocks_(blocks) {
  if (blocks < 1) throw ArgumentError("the rows must be cut into at least 1 block, got " + std::to_string(blocks));
  // No empty blocks: a likelihood with fewer rows than blocks gets one row per block.
  for (const auto& statement : statements_) {
    blocks_ = static_cast<int>(std::min<int64_t>(blocks_, std::max<int64_t>(1, statement.rows)));
  }
  if (world_size < 1 || world_size > blocks_) {
    throw ArgumentError("the rows are cut into " + std::to_string(blocks_) + " blocks, so at most " +
                        std::to_string(blocks_) + " processes can share them; got " + std::to_string(world_size));
  }
}

std::pair<int, int> ShardPlan::blocks_of(int rank) const {
  const auto edge = [&](int r) { return static_cast<int>(int64_t{blocks_} * r / world_size_); };
  return {edge(rank), edge(rank + 1)};
}

int ShardPlan::max_blocks_per_rank() const {
  int most = 0;
  for (int r = 0; r < world_size_; ++r) {
    const auto [first, last] = blocks_of(r);
    most = std::max(most, last - first);
  }
  return most;
}

std::pair<int64_t, int64_t> ShardPlan::rows(size_t i, int block) const {
  const int64_t n = statements_.at(i).rows;
  return {n * block / blocks_, n * (block + 1) / blocks_};
}

model::ModelPart ShardPlan::block_part(int block) const {
  model::ModelPart part;
  for (size_t i = 0; i < statements_.size(); ++i) {
    part.scored_statements.insert(statements_[i].statement);
    for (const auto& name : statements_[i].row_values) part.rows[name] = rows(i, block);
  }
  return part;
}

model::ModelPart ShardPlan::whole_part(const model::CheckedModel& checked) const {
  model::ModelPart part;
  for (size_t s = 0; s < checked.program.statements.size(); ++s) part.scored_statements.insert(s);
  bool derived = false;
  for (const auto& statement : statements_) {
    part.scored_statements.erase(statement.statement);
    derived = derived || !statement.derived_from_rows.empty();
  }
  // Nothing else reads the rows (shardable_rows.h), so this part keeps none of them,
  // unless a derived quantity is computed from them.
  if (!derived) {
    for (const auto& statement : statements_) {
      for (const auto& name : statement.row_values) part.rows[name] = {0, 0};
    }
  }
  return part;
}

std::vector<int64_t> ShardPlan::fingerprint() const {
  std::vector<int64_t> values{blocks_, world_size_, static_cast<int64_t>(statements_.size())};
  for (const auto& statement : statements_) {
    values.push_back(static_cast<int64_t>(statement.statement));
    values.push_back(statement.rows);
  }
  return values;
}

}  // namespace variate::distributed
