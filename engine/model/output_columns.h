#pragma once
/// The values a run records for each draw of a compiled model: its parameters on their
/// own (constrained) scale, then its derived quantities, each flattened in CmdStan's
/// column-major order, with their names.

#include <string>
#include <vector>

#include "variate/target/parameter_names.h"
#include "variate/model/compiled_model.h"

namespace variate::model {

class OutputColumns {
 public:
  explicit OutputColumns(const CompiledModel& model);

  /// "theta.1" (Stan CSV) or "theta[1]" (summaries), parameters first.
  std::vector<std::string> names(NameStyle style) const;
  size_t size() const { return size_; }

  /// One row per unconstrained position. Each row is computed on its own: a batched
  /// evaluation can round differently with the batch's size, and batches are cut by time,
  /// so the same seed would not give the same files.
  std::vector<std::vector<double>> rows(const std::vector<std::vector<double>>& positions) const;

 private:
  std::vector<std::vector<double>> batch_rows(const std::vector<std::vector<double>>& positions) const;
  struct Block {
    std::string name;
    Shape shape;
    std::vector<int64_t> order;  // column-major permutation of the row-major elements
  };
  CompiledModel model_;
  std::vector<Block> parameters_;
  std::vector<Block> derived_;
  size_t size_ = 0;
};

}  // namespace variate::model
