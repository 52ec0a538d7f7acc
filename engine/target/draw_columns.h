#pragma once
/// The values a run records for each draw — the parameters on their own (constrained)
/// scale, then the quantities the model derives from them — each flattened in CmdStan's
/// column-major order, with their names. One class for every kind of model: what it needs
/// is a function giving those values at one unconstrained position.
///
///   const DrawColumns columns(log_joint, layout);    // a model written in C++
///   columns.names(NameStyle::StanCsv);                // {"tau", "z.1", "z.2", "scaled.1.1", ...}
///   columns.rows(positions);                          // one row per position

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>

#include "engine/core/log_joint.h"
#include "engine/target/parameter_layout.h"
#include "engine/target/parameter_names.h"

namespace variate {

/// Named values in the order a draw records them.
using NamedValues = std::vector<std::pair<std::string, at::Tensor>>;
/// The values a draw records at one unconstrained position [d].
using DrawValues = std::function<NamedValues(const at::Tensor& theta)>;
/// The same without tensors: every quantity's values, row-major, one after the other,
/// written into `out` at the position `theta` (a backend that computes them in place: the
/// tape's forward sweep).
using FlatDrawValues = std::function<void(const double* theta, double* out)>;

/// A quantity a draw records: its name and shape.
struct DrawQuantity {
  std::string name;
  Shape shape;
};

class DrawColumns {
 public:
  /// Learns the names and shapes from `values` at the unconstrained zero vector of
  /// length `dimension`.
  DrawColumns(DrawValues values, int64_t dimension);
  /// A model written in C++: its parameters in the layout's order, then the quantities it
  /// names with `deterministic`, each draw computed by running the model once.
  DrawColumns(const LogJoint& log_joint, const ParameterLayout& layout);
  /// The quantities `values` gives (or writes), in this order and shape, known beforehand:
  /// no evaluation at the zero vector, which a support computed from parameters may exclude.
  DrawColumns(DrawValues values, const std::vector<DrawQuantity>& quantities, int64_t dimension);
  DrawColumns(FlatDrawValues values, const std::vector<DrawQuantity>& quantities, int64_t dimension);

  /// "theta.1" (Stan CSV) or "theta[1]" (summaries), parameters first.
  std::vector<std::string> names(NameStyle style) const;
  size_t size() const { return size_; }

  /// One row per unconstrained position, each computed on its own, so that a row does not
  /// depend on which draws share its batch (batches are cut by time: the same seed must
  /// give the same files).
  /// @throws ArgumentError for a position of the wrong length, or a value whose shape
  /// differs from what the columns were made with.
  std::vector<std::vector<double>> rows(const std::vector<std::vector<double>>& positions) const;

 private:
  /// One row from every quantity's row-major values, one after the other.
  std::vector<double> row_of(const double* row_major) const;

  struct Block {
    std::string name;
    Shape shape;
    std::vector<int64_t> order;  // column-major permutation of the row-major elements
  };
  DrawValues values_;
  FlatDrawValues flat_;  // instead of values_, when set
  int64_t dimension_;
  std::vector<Block> blocks_;
  size_t size_ = 0;
};

/// The quantities a C++ model names with `deterministic`, at constrained parameter values
/// (one point), in the order the model computes them.
NamedValues deterministic_values(const LogJoint& log_joint, const ValueMap& parameters);

}  // namespace variate
