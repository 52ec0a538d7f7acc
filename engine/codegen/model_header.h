#pragma once
/// model.h of an exported program: a checked model as two C++ functions on the engine's
/// public API, in the style of docs/CPP_API.md's example —
///
///   vt::Data NAME_data(const vt::Data& given);   // declared inputs, checked; transformed data
///   vt::RandomVariable NAME(const vt::Data& d);  // the model: creates its random variables
///
/// with each statement of the model as the comment above its C++.

#include <string>

#include "engine/model/checker.h"
#include "engine/model/source.h"

namespace variate::codegen {

/// The text of model.h for `model` (checked from `source`), its functions named after
/// `name` (a C++ identifier).
/// @throws model::ModelError located in the model text for what the model language
/// would reject once data is bound (an '@' of rank-3 operands, a real-valued index).
std::string model_header(const model::CheckedModel& model, const model::Source& source,
                         const std::string& name);

}  // namespace variate::codegen
