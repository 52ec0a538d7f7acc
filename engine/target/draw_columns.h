#pragma once
/// The values a run records for each draw of a model written in C++: its parameters on
/// their own (constrained) scale, then the quantities it names with `deterministic`, each
/// flattened in CmdStan's column-major order. For an exported model these are the columns
/// `variate sample` writes for the .vmod model it came from.

#include <string>
#include <vector>

#include "variate/core/log_joint.h"
#include "variate/target/parameter_layout.h"
#include "variate/target/parameter_names.h"

namespace variate {

class DrawColumns {
 public:
  /// Runs the model once, at the image of the unconstrained zero vector, to learn the names
  /// and shapes of its deterministic quantities.
  DrawColumns(LogJoint log_joint, ParameterLayout layout);

  /// "theta.1" (Stan CSV) or "theta[1]" (summaries), parameters first.
  std::vector<std::string> names(NameStyle style) const;
  size_t size() const { return size_; }

  /// One row per unconstrained position, each computed on its own (so a row does not
  /// depend on which draws share its batch): the parameters' transform, then one run of
  /// the model for its deterministic quantities.
  std::vector<std::vector<double>> rows(const std::vector<std::vector<double>>& positions) const;

  /// The deterministic quantities at constrained parameter values (one point), in the
  /// order the model computes them.
  std::vector<std::pair<std::string, at::Tensor>> deterministic(const ValueMap& parameters) const;

 private:
  struct Block {
    std::string name;
    Shape shape;
    std::vector<int64_t> order;  // column-major permutation of the row-major elements
  };
  LogJoint log_joint_;
  ParameterLayout layout_;
  std::vector<Block> parameters_;
  std::vector<Block> deterministic_;
  size_t size_ = 0;
};

}  // namespace variate
