#pragma once
/// Which likelihoods of a model can have their rows split between the processes of a
/// data-parallel run. A `~` statement of observed data qualifies when its rows are
/// exchangeable given the parameters: its data's first axis (N) is a batch axis of the
/// family, and its arguments are built from values with the same N rows (inputs or
/// transformed data, such as X, or an index array like county_idx) and from values
/// without rows (parameters, other data), only through operations that keep rows apart:
/// elementwise arithmetic and functions, X @ beta, a[county_idx], X[:, k]. Values with
/// rows may be read by nothing but such likelihoods (and the derived quantities that
/// feed them); transformed data is computed from the whole data set first, so
/// `Xc = X - colmeans(X)` is fine.
///
/// Observed data without rows (a scalar) is evaluated whole, as priors are.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/compiled_model.h"

namespace variate::distributed {

struct ShardedStatement {
  size_t statement = 0;  // index into the program
  std::string name;      // its observed variable
  int64_t rows = 0;      // N
  /// The data values cut with it: its own, and those of N rows it reads.
  std::vector<std::string> row_values;
  /// Derived quantities computed from its rows (`mu = X @ beta`): draws record them
  /// whole, so the part that records draws keeps the rows.
  std::vector<std::string> derived_from_rows;
};

/// The likelihoods whose rows are split, in program order.
/// @throws model::ModelError at the expression or use that prevents splitting, with the
/// reason (a parameter per row, a reduction over rows, data with rows read elsewhere);
/// ArgumentError when the model has no likelihood with rows.
std::vector<ShardedStatement> find_shardable_rows(const model::CompiledModel& model);

}  // namespace variate::distributed
