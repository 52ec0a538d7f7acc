#pragma once
/// A model's density for one rank of a data-parallel run (the paper's multi-device NUTS):
/// the rank compiles the blocks of rows the plan gives it (shard_plan.h), each a part of
/// the model with the split likelihoods alone, plus the part with everything else on the
/// whole data (priors, Jacobians, likelihoods without rows). At each point it evaluates
/// its blocks, one allgather hands every rank every block's log density and gradient,
/// packed in one buffer, and every rank adds the whole part and the blocks in block
/// order: the same bits on every rank, and for any number of ranks.
///
///   ShardedModel sharded = compile_sharded(compiled, data, Backend::automatic, communicator);
///   sample_nuts(sharded.target, nuts, observer, nullptr, &lockstep);
///
/// The sum of blocks differs from the one-process density (one sum over all rows) by
/// rounding alone (about 1e-15 relative).

#include <memory>
#include <string>

#include "engine/core/data.h"
#include "engine/distributed/communicator.h"
#include "engine/distributed/shard_plan.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/backend.h"
#include "engine/target/unconstrained_target.h"

namespace variate::distributed {

struct ShardedModel {
  /// The whole part: its draw columns and derived quantities are the model's.
  model::CompiledModel whole;
  /// The density of the whole model, gathered from all ranks at every evaluation.
  UnconstrainedTarget target;
  ShardPlan plan;
  /// Why a part runs on LibTorch rather than the tape (engine/tape/compiler/select_target.h); empty if
  /// none does.
  std::string fallback_reason;
};

/// Every rank calls it with the same model compiled on the same data (`compiled.model`
/// set; its options are the parts'), and the same `blocks`.
/// @throws model::ModelError where the model's rows cannot be split (shardable_rows.h);
/// ArgumentError for more ranks than blocks, or as compiling does; DistributedError when
/// the ranks disagree about the model, its data's shapes or the plan.
ShardedModel compile_sharded(const model::CompileResult& compiled, const Data& data, tape::Backend backend,
                             std::shared_ptr<Communicator> communicator, int blocks = kDefaultRowBlocks);

}  // namespace variate::distributed
