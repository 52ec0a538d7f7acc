#pragma once
/// The model of a run request compiled with its data, as both inference methods start.
/// (Engine-side header: include it from ui/engine .cpp files only; it pulls in ATen.)

#include <optional>

#include <variate/model/compile.h>
#include <variate/target/draw_columns.h>
#include <variate/store/project_records.h>

#include "ui/document/run_request.h"

namespace variate::ui {

struct CompiledRequest {
  model::CompileResult result;
  std::optional<DrawColumns> columns;
  QStringList bracketedNames;
  std::vector<std::string> stanNames;
  int parameterColumns = 0;
};

/// Parses the data and compiles the model.
/// @throws ArgumentError with the compiler's report (file:line:column) or the data error.
CompiledRequest compileRequest(const RunRequest& request);

/// The run's record for the project: name, method, configuration JSON, model version,
/// data set and seed; `columns` are the Stan CSV names of a draw row.
store::RunSpec runSpec(const RunRequest& request, std::vector<std::string> columns);

/// @throws ArgumentError when the device is not "cpu" (this LibTorch build has no other).
void checkDevice(const QString& device);

}  // namespace variate::ui
