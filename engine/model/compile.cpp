#include "variate/model/compile.h"

#include "variate/model/model_error.h"
#include "variate/model/parser.h"

namespace variate::model {

CompileResult compile_model(Source source, const Data* data) {
  CompileResult result;
  result.source = std::make_shared<const Source>(std::move(source));
  ParseResult parsed = parse(*result.source);
  result.diagnostics = std::move(parsed.diagnostics);
  // Check even after parse errors: the statements that parsed may have problems too.
  auto checked = std::make_shared<CheckedModel>(
      check(std::move(parsed.program), *result.source, result.diagnostics));
  if (!result.ok()) return result;
  result.checked = checked;
  if (!data) return result;
  try {
    result.model.emplace(checked, *data);
  } catch (const ModelError& e) {
    result.diagnostics.error(e.span(), e.what());
  }
  return result;
}

}  // namespace variate::model
