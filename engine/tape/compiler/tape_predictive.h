#pragma once
/// A model's posterior predictive columns on the tape: each draw's replicated values
/// (NAME_rep) and pointwise log likelihood (log_lik) from one forward sweep of its
/// predictive program (model_compiler.h), without a tensor. The columns are what
/// workflow::PosteriorPredictive gives, in its order; the replicated values come from a
/// std::mt19937_64 (random_draws.h), so they differ from LibTorch's for the same seed.
///
///   const TapePredictive predictive(compiled);     // @throws Unsupported
///   std::mt19937_64 random(seed_of_chain);
///   predictive.rows(draws, random);                 // one row per draw

#include <random>
#include <string>
#include <vector>

#include "engine/core/shape.h"
#include "engine/model/compiled_model.h"
#include "engine/tape/compiler/model_compiler.h"

namespace variate::tape {

class TapePredictive {
 public:
  struct Variable {
    std::string name;
    Shape shape;          ///< of its value and of NAME_rep
    Shape log_lik_shape;  ///< of its log likelihood: shape, less a multivariate family's event
  };
  struct Row {
    std::vector<double> replicated;  ///< every observed variable's, column-major, in order
    std::vector<double> log_lik;
  };

  /// @throws Unsupported when the tape cannot compute the model's predictive columns.
  explicit TapePredictive(const model::CompiledModel& model);

  /// In the order the model's statements run.
  const std::vector<Variable>& observed() const { return observed_; }

  /// The columns of each draw (constrained values as a run records them: the parameters'
  /// columns first, each column-major; later columns are not read), the replicated values
  /// drawn from `random` row after row.
  /// @throws ArgumentError for a row shorter than the parameters' columns.
  std::vector<Row> rows(const std::vector<std::vector<double>>& draws, std::mt19937_64& random) const;

 private:
  PredictiveProgram compiled_;
  std::vector<Variable> observed_;
  std::vector<int64_t> input_order_;  // input_order_[column] = its place in the program's input
  // The arena offsets of the columns, in their order (each variable's column-major).
  std::vector<int64_t> replicated_cells_;
  std::vector<int64_t> log_lik_cells_;
};

}  // namespace variate::tape
