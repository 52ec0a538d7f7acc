#include "engine/model/compile.h"

#include <algorithm>

#include "engine/model/model_error.h"
#include "engine/model/parser.h"
#include "engine/model/reparameterize.h"

namespace variate::model {

CompileResult compile_model(Source source, const Data* data, const CompileOptions& options) {
  CompileResult result;
  result.source = std::make_shared<const Source>(std::move(source));
  ParseResult parsed = parse(*result.source);
  result.diagnostics = std::move(parsed.diagnostics);
  // Check even after parse errors: the statements that parsed may have problems too.
  auto checked = std::make_shared<CheckedModel>(
      check(std::move(parsed.program), *result.source, result.diagnostics));
  if (!result.ok()) return result;
  if (!options.centering.empty()) {
    auto rewritten = std::make_shared<CheckedModel>(
        check(reparameterize(*checked, options.centering), *result.source, result.diagnostics));
    if (!result.ok()) return result;
    rewritten->centering = options.centering;
    checked = std::move(rewritten);
  }
  result.checked = checked;
  // A model that declares no data compiles without a data file.
  const bool needs_data = std::any_of(checked->nodes.begin(), checked->nodes.end(),
                                      [](const Node& n) { return n.declaration.has_value(); });
  const Data no_data;
  if (!data && needs_data) return result;
  try {
    result.model.emplace(checked, data ? *data : no_data, options);
  } catch (const ModelError& e) {
    result.diagnostics.error(e.span(), e.what());
  }
  return result;
}

}  // namespace variate::model
