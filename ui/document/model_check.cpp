#include "ui/document/model_check.h"

namespace variate::ui {

int ModelCheck::errorCount() const {
  int count = 0;
  for (const auto& mark : marks) count += mark.severity == ModelMark::Severity::Error;
  return count;
}

}  // namespace variate::ui
