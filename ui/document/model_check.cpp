#include "ui/document/model_check.h"

#include "engine/model/checker.h"
#include "engine/model/parser.h"

namespace variate::ui {

int ModelCheck::errorCount() const {
  int count = 0;
  for (const auto& mark : marks) count += mark.severity == ModelMark::Severity::Error;
  return count;
}

}  // namespace variate::ui

namespace variate::ui {

bool isDeepModel(const QString& text) {
  const model::Source source("model.vmod", text.toStdString());
  model::ParseResult parsed = model::parse(source);
  if (!parsed.ok()) return false;
  model::Diagnostics diagnostics;
  const model::CheckedModel checked = model::check(std::move(parsed.program), source, diagnostics);
  return !diagnostics.has_errors() && checked.is_deep();
}

}  // namespace variate::ui
