#pragma once
/// The front door of the model language: parse, check and (given data) compile a model,
/// collecting every problem as a located diagnostic.

#include <memory>
#include <optional>

#include "engine/core/data.h"
#include "engine/model/checker.h"
#include "engine/model/compiled_model.h"
#include "engine/model/diagnostic.h"
#include "engine/model/source.h"

namespace variate::model {

struct CompileResult {
  std::shared_ptr<const Source> source;
  Diagnostics diagnostics;
  /// Set when the model parsed and checked without errors.
  std::shared_ptr<const CheckedModel> checked;
  /// Set when, in addition, data was given (or the model declares none) and bound
  /// without errors.
  std::optional<CompiledModel> model;

  bool ok() const { return !diagnostics.has_errors(); }
  /// Every diagnostic, formatted as a compiler prints them.
  std::string report() const { return diagnostics.format(*source); }
};

/// Parses and checks `source`; with `data` (or when it declares no data), also binds it
/// and compiles the model with `options`.
///
///   auto result = compile_model(Source("m.vmod", text), &data);
///   if (!result.ok()) std::cerr << result.report();
CompileResult compile_model(Source source, const Data* data = nullptr,
                            const CompileOptions& options = {});

}  // namespace variate::model
