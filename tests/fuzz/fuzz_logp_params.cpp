// libFuzzer target over the parameter file of `variate logp --params P.json`
// (engine/cli/parameter_file.cpp): the bytes are the file, read against a model with a
// positive and a vector parameter and a derived quantity (eight schools), then the values are unconstrained and their log density computed, as `logp`
// does. A bad file must raise an ArgumentError; a crash, a sanitizer report or another
// exception is a finding.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/io/parameter_values.h"
#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace {

const char* const kData = R"({"J": 3, "y": [28, 8, -3], "sigma": [15, 10, 16]})";

const variate::model::CompiledModel& compiled() {
  static const variate::model::CompiledModel model = [] {
    const variate::Data data = variate::io::parse_json_data(kData, "data.json");
    // VARIATE_EIGHT_SCHOOLS: the repository's model (tests/fuzz/CMakeLists.txt).
    const variate::model::Source source("fixed.vmod", variate::io::read_text_file(VARIATE_EIGHT_SCHOOLS));
    variate::model::CompileResult result = variate::model::compile_model(source, &data);
    if (!result.model) std::abort();  // the fixed model must compile
    return std::move(*result.model);
  }();
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const variate::model::CompiledModel& model = compiled();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const variate::ValueMap values =
        variate::io::parse_parameters(text, "params.json", model.layout(), model.derived_names());
    (void)model.layout().unconstrain(values);
    (void)model.log_joint()(values);
  } catch (const variate::ArgumentError&) {
  }
  return 0;
}
