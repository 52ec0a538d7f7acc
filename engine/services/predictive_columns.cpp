#include "engine/services/predictive_columns.h"

#include "engine/core/random_stream.h"
#include "engine/tape/program/unsupported.h"

namespace variate::services {
namespace {

// Whether the tape lays out the columns as the tracer does: the same variables in the
// same order, of the same shapes.
bool same_columns(const tape::TapePredictive& tape, const workflow::PosteriorPredictive& torch) {
  if (tape.observed().size() != torch.observed().size()) return false;
  for (size_t i = 0; i < tape.observed().size(); ++i) {
    const auto& a = tape.observed()[i];
    const auto& b = torch.observed()[i];
    if (a.name != b.name || a.shape != b.shape || a.log_lik_shape != b.log_lik_shape) return false;
  }
  return true;
}

}  // namespace

PredictiveColumns::PredictiveColumns(const model::CompiledModel& model, bool tape)
    : torch_(model.log_joint(), model.layout()) {
  if (!tape) return;
  try {
    tape_.emplace(model);
  } catch (const tape::Unsupported&) {
    return;  // LibTorch's, as for the draw columns
  }
  if (!same_columns(*tape_, torch_)) tape_.reset();
}

PredictiveColumns::PredictiveColumns(LogJoint log_joint, ParameterLayout layout)
    : torch_(std::move(log_joint), std::move(layout)) {}

PredictiveColumns::ChainStream PredictiveColumns::chain_stream(uint64_t seed, uint64_t chain) {
  return {workflow::chain_generator(seed, chain), std::mt19937_64(RandomStream::for_chain(seed, chain).next())};
}

workflow::PredictiveRows PredictiveColumns::rows(const std::vector<std::vector<double>>& draws,
                                                 ChainStream& stream) const {
  if (!tape_) return torch_.rows(draws, stream.torch);
  workflow::PredictiveRows result;
  for (auto& row : tape_->rows(draws, stream.tape)) {
    result.replicated.push_back(std::move(row.replicated));
    result.log_lik.push_back(std::move(row.log_lik));
  }
  return result;
}

}  // namespace variate::services
