#pragma once
/// A model written as .vmod text: a file (`variate sample MODEL.vmod`), or text with a
/// name (the studio's model, a worker's job), compiled with its data. Every problem is
/// reported as a compiler reports it (file:line:column).

#include <optional>
#include <string>

#include "engine/model/compile.h"
#include "engine/services/model_source.h"

namespace variate::services {

class VmodSource : public ModelSource {
 public:
  /// The model of a file, read now. @throws ArgumentError when it cannot be read.
  static VmodSource from_file(const std::string& path);
  /// `text` under `name` (outputs and messages name it so: "eight_schools.vmod").
  VmodSource(std::string text, std::string name, std::optional<std::string> file = std::nullopt);

  std::string name() const override { return name_; }
  std::optional<std::string> text() const override { return text_; }
  std::optional<std::string> file() const override { return file_; }
  BoundModel bind(const DataInput& data, const CompileChoice& choice) const override;
  BoundModel bind_sharded(const DataInput& data, const CompileChoice& choice, const RowSplit& split) const override;

  /// The text compiled on `data` with `options`, without a density (no model when the text
  /// declares data and none is given).
  /// @throws ReportedError with the compiler's report.
  model::CompileResult compile(const Data* data, const model::CompileOptions& options) const;

 private:
  std::string text_;
  std::string name_;
  std::optional<std::string> file_;
};

/// Whether each draw's recorded values (the draw columns, the predictive columns) come
/// from the tape under `choice`: unless LibTorch was asked for, or the tape cannot run (another
/// device or dtype). One rule for a run on one process, on several, on a worker, and for
/// `variate predict` afterwards, so that they write the same digits.
/// @throws ArgumentError for an unknown backend.
bool columns_on_tape(const CompileChoice& choice);

/// How `choice` compiles a model on this machine.
/// @throws ArgumentError for a device this LibTorch cannot use ("--device cuda: ...").
model::CompileOptions compile_options(const CompileChoice& choice);

}  // namespace variate::services
