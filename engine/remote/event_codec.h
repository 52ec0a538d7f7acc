#pragma once
/// The engine's run events as protocol messages and back: the worker encodes what its
/// observers see, clients decode it into the same observers a local run feeds. Doubles
/// travel as doubles, so a replayed run writes the bits a local one writes.

#include <vector>

#include "engine/mcmc/sample.h"
#include "engine/vi/advi.h"
#include "engine/vi/advi_observer.h"

#include "variate_worker.pb.h"

namespace variate::remote {

namespace v1 = variate::remote::v1;

/// `batch` as messages of at most kMaxDrawBatchBytes of values each (one iteration at least).
std::vector<v1::DrawBatch> encode_draws(const DrawBatch& batch);
/// @throws std::runtime_error when the message's arrays disagree in length.
DrawBatch decode_draws(const v1::DrawBatch& message);

v1::ChainFinished encode_chain_end(const ChainResult& result);
/// The chain's summary fields (positions and stats stay empty).
ChainResult decode_chain_end(const v1::ChainFinished& message);

v1::ElboEvaluation encode_evaluation(const ElboEvaluation& evaluation);
ElboEvaluation decode_evaluation(const v1::ElboEvaluation& message);

v1::FitFinished encode_fit(const AdviFit& fit, const std::string& method);
/// The fit with its family (options.method()'s) built on `layout`, its parameters set.
/// @throws std::runtime_error when the parameters do not fit the layout.
AdviFit decode_fit(const v1::FitFinished& message, const ParameterLayout& layout);

}  // namespace variate::remote
