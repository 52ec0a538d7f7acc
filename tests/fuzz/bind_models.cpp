#include "tests/fuzz/bind_models.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/checker.h"
#include "engine/model/data_binding.h"
#include "engine/model/parser.h"

namespace variate::fuzz {
namespace {

const char* const kArrays = R"(data N: int
data K: int
data idx: int[N]
data X: real[N, K]
data counts: int[N, K, 2]
data w: real
data flag: int
data v: real[3]
beta[K] ~ Normal(0, 1)
sigma ~ HalfNormal(1)
)";

// Checked once: the fuzzer varies the data, not the models.
std::vector<model::CheckedModel> checked_models() {
  std::vector<model::CheckedModel> models;
  // VARIATE_EIGHT_SCHOOLS: the repository's model (tests/fuzz/CMakeLists.txt).
  for (const std::string& text : {io::read_text_file(VARIATE_EIGHT_SCHOOLS), std::string(kArrays)}) {
    const model::Source source("fixed.vmod", text);
    model::ParseResult parsed = model::parse(source);
    model::CheckedModel checked = model::check(std::move(parsed.program), source, parsed.diagnostics);
    if (parsed.diagnostics.has_errors()) std::abort();  // a fixed model that does not check
    models.push_back(std::move(checked));
  }
  return models;
}

}  // namespace

void bind_to_models(const Data& data) {
  static const std::vector<model::CheckedModel> models = checked_models();
  for (const model::CheckedModel& checked : models) {
    try {
      model::ConstantCache constants;
      model::bind_data(checked, data, constants);
    } catch (const ArgumentError&) {
    }
  }
}

}  // namespace variate::fuzz
