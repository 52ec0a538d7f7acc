#include "ui/modeling/cpp_export.h"

#include "engine/core/argument_error.h"
#include "engine/codegen/cpp_program.h"
#include "engine/codegen/cpp_names.h"
#include "engine/model/checker.h"
#include "engine/model/model_error.h"
#include "engine/model/parser.h"

namespace variate::ui {

QStringList cppExportFiles() { return {"model.h", "main.cpp", "CMakeLists.txt", "README.md"}; }

bool exportModelAsCpp(const QString& modelText, const QString& modelName, const QString& sourceName,
                      const QString& directory, QString* programName, QString* error) {
  const model::Source source(sourceName.toStdString(), modelText.toStdString());
  model::ParseResult parsed = model::parse(source);
  model::Diagnostics diagnostics = parsed.diagnostics;
  const model::CheckedModel checked =
      parsed.ok() ? model::check(std::move(parsed.program), source, diagnostics) : model::CheckedModel{};
  if (diagnostics.has_errors()) {
    *error = QString::fromStdString(diagnostics.format(source)).trimmed();
    return false;
  }
  try {
    const codegen::CppProgram program =
        codegen::export_cpp_program(checked, source, codegen::identifier_from(modelName.toStdString()));
    codegen::write_cpp_program(program, directory.toStdString());
    if (programName) *programName = QString::fromStdString(program.name);
    return true;
  } catch (const model::ModelError& e) {
    model::Diagnostics located;
    located.error(e.span(), e.what());
    *error = QString::fromStdString(located.format(source)).trimmed();
  } catch (const ArgumentError& e) {
    *error = QString::fromStdString(e.what());
  }
  return false;
}

}  // namespace variate::ui
