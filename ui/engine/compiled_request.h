#pragma once
/// The model of a run request compiled with its data, as both inference methods start.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)

#include <optional>

#include "engine/core/data.h"
#include "engine/model/compile.h"
#include "engine/target/unconstrained_target.h"
#include "engine/target/draw_columns.h"
#include "engine/store/project_records.h"

#include "ui/document/run_request.h"

namespace variate::ui {

struct CompiledRequest {
  model::CompileResult result;
  /// The data set's values (a sharded density compiles its parts on them).
  std::optional<Data> data;
  /// The density on the backend the configuration asks for (batched chains: LibTorch).
  std::optional<UnconstrainedTarget> target;
  /// Why `auto` runs on LibTorch; empty when it runs on the tape or LibTorch was asked for.
  std::string backendNote;
  std::optional<DrawColumns> columns;
  QStringList bracketedNames;
  std::vector<std::string> stanNames;
  int parameterColumns = 0;
};

/// Parses the data and compiles the model, with its output columns; no density yet.
/// @throws ArgumentError with the compiler's report (file:line:column) or the data error.
CompiledRequest compileModel(const RunRequest& request);

/// compileModel, and the density on the backend the configuration asks for.
/// @throws ArgumentError as compileModel does.
CompiledRequest compileRequest(const RunRequest& request);

/// The output columns of a draw, and their names.
void setColumns(CompiledRequest& compiled, DrawColumns columns);

/// The run's record for the project: name, method, configuration JSON (with
/// "backend_used": what evaluated the density), model version, data set and seed;
/// `columns` are the Stan CSV names of a draw row.
store::RunSpec runSpec(const RunRequest& request, const CompiledRequest& compiled,
                       std::vector<std::string> columns);

/// @throws ArgumentError when the device is not "cpu" (this LibTorch build has no other).
void checkDevice(const QString& device);

}  // namespace variate::ui
