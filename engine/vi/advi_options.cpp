#include "engine/vi/advi_options.h"

namespace variate {

std::string to_string(AdviMethod method) {
  return method == AdviMethod::fullrank ? "fullrank" : "meanfield";
}

AdviMethod advi_method_from_string(const std::string& name) {
  if (name == "meanfield") return AdviMethod::meanfield;
  if (name == "fullrank") return AdviMethod::fullrank;
  throw ArgumentError("ADVI: method must be meanfield or fullrank, got '" + name + "'");
}

}  // namespace variate
