#include "ui/document/chain_draws.h"

#include <algorithm>
#include <stdexcept>

namespace variate::ui {

void ChainDraws::append(DrawBlockPtr block) {
  if (!block || block->rows() == 0) return;
  if (block->firstIteration != iterations_) {
    throw std::logic_error("ChainDraws::append: block starts at iteration " +
                           std::to_string(block->firstIteration) + ", expected " +
                           std::to_string(iterations_));
  }
  warmup_ = block->warmupIterations;
  starts_.push_back(iterations_);
  iterations_ += block->rows();
  blocks_.push_back(std::move(block));
}

size_t ChainDraws::blockOf(int iteration) const {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), iteration);
  return static_cast<size_t>(it - starts_.begin()) - 1;
}

void ChainDraws::forEachRow(int begin, int end,
                            const std::function<void(int, const DrawBlock&, int)>& f) const {
  end = std::min(end, iterations_);
  if (begin >= end) return;
  for (size_t b = blockOf(begin); b < blocks_.size() && starts_[b] < end; ++b) {
    const DrawBlock& block = *blocks_[b];
    const int first = std::max(begin - starts_[b], 0);
    const int last = std::min(end - starts_[b], block.rows());
    for (int row = first; row < last; ++row) f(starts_[b] + row, block, row);
  }
}

void ChainDraws::forEach(int column, int begin, int end, const std::function<void(int, double)>& f) const {
  forEachRow(begin, end, [&](int iteration, const DrawBlock& block, int row) {
    f(iteration, block.value(row, column));
  });
}

void ChainDraws::forEachStats(int begin, int end,
                              const std::function<void(int, const SamplerRow&)>& f) const {
  forEachRow(begin, end, [&](int iteration, const DrawBlock& block, int row) {
    f(iteration, block.stats[row]);
  });
}

std::vector<double> ChainDraws::column(int column, int begin, int end) const {
  std::vector<double> values;
  values.reserve(static_cast<size_t>(std::max(0, std::min(end, iterations_) - begin)));
  forEach(column, begin, end, [&](int, double v) { values.push_back(v); });
  return values;
}

const SamplerRow& ChainDraws::stats(int iteration) const {
  const size_t b = blockOf(iteration);
  return blocks_[b]->stats[iteration - starts_[b]];
}

}  // namespace variate::ui
