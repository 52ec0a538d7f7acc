#pragma once
// Loading a model (and its data) for a command, with every problem reported the way a
// compiler reports it.

#include <optional>
#include <ostream>
#include <string>

#include "engine/model/compile.h"

namespace variate::cli {

/// Reads MODEL.vmod and, when `data_path` is set, the data file; compiles the model with
/// `options`. Prints diagnostics to `errors` and returns nullopt on any problem.
std::optional<model::CompileResult> load_model(const std::string& model_path,
                                               const std::optional<std::string>& data_path,
                                               std::ostream& errors,
                                               const model::CompileOptions& options = {});

/// The same, with the data already read.
std::optional<model::CompileResult> load_model(const std::string& model_path, const Data& data,
                                               std::ostream& errors, const model::CompileOptions& options = {});

}  // namespace variate::cli
