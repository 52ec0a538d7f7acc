#include "engine/distributed/sharded_target.h"

#include <ATen/ATen.h>

#include <limits>

#include "engine/core/argument_error.h"
#include "engine/distributed/agreement.h"
#include "engine/model/printer.h"
#include "engine/tape/compiler/select_target.h"

namespace variate::distributed {
namespace {

// One part's log density and gradient at a point, on its backend.
class PartEvaluator {
 public:
  explicit PartEvaluator(const UnconstrainedTarget& target)
      : target_(target), point_(target.point_density() ? target.point_density()->evaluator() : nullptr) {}

  double operator()(const double* q, double* gradient, bool jacobian) {
    if (point_) return point_->log_density(q, gradient, jacobian);
    const int64_t d = target_.dimension();
    const at::Tensor theta = at::from_blob(const_cast<double*>(q), {d}, at::kDouble).clone();
    try {
      const auto [lp, g] = target_.log_density_and_gradient(theta, jacobian);
      const at::Tensor flat = g.to(at::kDouble).contiguous();
      std::copy(flat.data_ptr<double>(), flat.data_ptr<double>() + d, gradient);
      return lp.item<double>();
    } catch (const c10::Error&) {  // a failed factorization at an extreme point
      std::fill(gradient, gradient + d, 0.0);
      return -std::numeric_limits<double>::infinity();
    }
  }

 private:
  UnconstrainedTarget target_;
  std::unique_ptr<PointEvaluator> point_;
};

struct Parts {
  explicit Parts(UnconstrainedTarget whole_part) : whole(std::move(whole_part)) {}
  UnconstrainedTarget whole;
  std::vector<UnconstrainedTarget> blocks;  // this rank's, in block order
  std::vector<int> blocks_per_rank;
  int max_blocks = 0;
  std::string backend;
};

class ShardedEvaluator final : public PointEvaluator {
 public:
  ShardedEvaluator(std::shared_ptr<const Parts> parts, std::shared_ptr<Communicator> communicator)
      : parts_(std::move(parts)), communicator_(std::move(communicator)), whole_(parts_->whole),
        d_(parts_->whole.dimension()) {
    for (const auto& block : parts_->blocks) blocks_.emplace_back(block);
    gradient_.resize(d_);
  }

  double log_density(const double* q, double* gradient, bool jacobian) override {
    double lp = 0;
    log_densities(q, 1, d_, &lp, gradient, jacobian);
    return lp;
  }

  // Every point's blocks in one buffer [count, blocks, 1 + d], one allgather for all.
  void log_densities(const double* q, int64_t count, int64_t d, double* lp, double* gradient,
                     bool jacobian) override {
    const int64_t row_size = d_ + 1;
    const int64_t point_size = parts_->max_blocks * row_size;
    if (local_.size(0) != count) {
      local_ = at::zeros({count, parts_->max_blocks, row_size}, at::kDouble);
      gathered_ = at::zeros({communicator_->size(), count, parts_->max_blocks, row_size}, at::kDouble);
    }
    double* local = local_.data_ptr<double>();
    for (int64_t p = 0; p < count; ++p) {
      for (size_t i = 0; i < blocks_.size(); ++i) {
        double* row = local + p * point_size + static_cast<int64_t>(i) * row_size;
        row[0] = blocks_[i](q + p * d, row + 1, false);
      }
    }
    communicator_->allgather(local_, gathered_);
    const double* all = gathered_.data_ptr<double>();
    const int64_t rank_size = count * point_size;
    for (int64_t p = 0; p < count; ++p) {
      double* g = gradient ? gradient + p * d : gradient_.data();
      lp[p] = whole_(q + p * d, g, jacobian);
      for (int r = 0; r < communicator_->size(); ++r) {  // block order
        for (int i = 0; i < parts_->blocks_per_rank[r]; ++i) {
          const double* row = all + r * rank_size + p * point_size + static_cast<int64_t>(i) * row_size;
          lp[p] += row[0];
          for (int64_t j = 0; j < d_; ++j) g[j] += row[1 + j];
        }
      }
    }
  }

 private:
  std::shared_ptr<const Parts> parts_;
  std::shared_ptr<Communicator> communicator_;
  PartEvaluator whole_;
  std::vector<PartEvaluator> blocks_;
  int64_t d_;
  at::Tensor local_ = at::zeros({0}, at::kDouble);  // [points, blocks, 1 + d], sized on use
  at::Tensor gathered_;
  std::vector<double> gradient_;
};

class ShardedDensity final : public PointDensity {
 public:
  ShardedDensity(std::shared_ptr<const Parts> parts, std::shared_ptr<Communicator> communicator)
      : parts_(std::move(parts)), communicator_(std::move(communicator)) {}
  std::unique_ptr<PointEvaluator> evaluator() const override {
    return std::make_unique<ShardedEvaluator>(parts_, communicator_);
  }
  std::string backend() const override { return parts_->backend; }

 private:
  std::shared_ptr<const Parts> parts_;
  std::shared_ptr<Communicator> communicator_;
};

// The model text, the options and the shape of every data value.
uint64_t model_fingerprint(const model::CompiledModel& model) {
  uint64_t hash = fnv1a(model::to_string(model.checked().program));
  const int64_t header[] = {static_cast<int64_t>(model.options().dtype), model.layout().dimension(),
                            model.options().fuse_likelihoods ? 1 : 0};
  hash = fnv1a(header, sizeof header, hash);
  for (const auto& [name, value] : model.data_values()) {
    hash = fnv1a(name, hash);
    const auto sizes = value.tensor.sizes();
    hash = fnv1a(sizes.data(), sizes.size() * sizeof(int64_t), hash);
  }
  return hash;
}

model::CompiledModel compile_part(const std::shared_ptr<const model::CheckedModel>& checked, const Data& data,
                                  model::CompileOptions options, model::ModelPart part) {
  options.part = std::move(part);
  return model::CompiledModel(checked, data, options);
}

}  // namespace

ShardedModel compile_sharded(const model::CompileResult& compiled, const Data& data, tape::Backend backend,
                             std::shared_ptr<Communicator> communicator, int blocks) {
  const int rank = communicator->rank();
  const int world = communicator->size();
  if (!compiled.model) throw ArgumentError("compile_sharded: the model was not compiled with its data");
  const std::shared_ptr<const model::CheckedModel>& checked = compiled.checked;
  const model::CompileOptions& options = compiled.model->options();
  ShardPlan plan(find_shardable_rows(*compiled.model), world, blocks);
  uint64_t fingerprint = model_fingerprint(*compiled.model);
  const std::vector<int64_t> layout = plan.fingerprint();
  fingerprint = fnv1a(layout.data(), layout.size() * sizeof(int64_t), fingerprint);
  require_agreement(*communicator, fingerprint, "the model, its data's shapes or how its rows are split");

  model::CompiledModel whole = compile_part(checked, data, options, plan.whole_part(*checked));
  std::string fallback;
  const auto select = [&](const model::CompiledModel& part) {
    tape::SelectedTarget selected = tape::select_target(part, backend);
    if (fallback.empty()) fallback = selected.fallback_reason;
    return selected.target;
  };
  auto parts = std::make_shared<Parts>(select(whole));
  const auto [first, last] = plan.blocks_of(rank);
  for (int b = first; b < last; ++b) {
    parts->blocks.push_back(select(compile_part(checked, data, options, plan.block_part(b))));
  }
  for (int r = 0; r < world; ++r) {
    const auto [lo, hi] = plan.blocks_of(r);
    parts->blocks_per_rank.push_back(hi - lo);
  }
  parts->max_blocks = plan.max_blocks_per_rank();
  parts->backend = parts->whole.backend();
  for (const auto& block : parts->blocks) {
    if (block.backend() != parts->backend) parts->backend = "torch";  // some parts on each
  }
  UnconstrainedTarget target =
      whole.target().with_point_density(std::make_shared<ShardedDensity>(parts, communicator));
  return ShardedModel{std::move(whole), std::move(target), std::move(plan), fallback};
}

}  // namespace variate::distributed
