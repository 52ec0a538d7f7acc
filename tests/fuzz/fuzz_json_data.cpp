// libFuzzer target over the CmdStan JSON data reader (engine/io/json_data.cpp) and the
// binding of what it reads to fixed models (bind_models.h). A malformed file must raise
// an ArgumentError naming it; a crash, a sanitizer report or another exception is a
// finding, and so is a file read in chunks that gives other data than its text
// (same_as_file.h).

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/fuzz/bind_models.h"
#include "tests/fuzz/same_as_file.h"
#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"

namespace {

// An IDX reference reads a real file from the machine: the whole Fashion-MNIST training
// set takes 20 s instrumented (60,000 images read three times), past the fuzzer's time
// limit for one input, and exercises zlib rather than our parsing. So a reference must
// carry a small limit; tst_idx_file and the VAE tests read the whole files.
bool reads_a_large_idx_file(const nlohmann::json& node) {
  if (node.is_object() && (node.contains("idx_images") || node.contains("idx_labels"))) {
    const auto limit = node.find("limit");
    if (limit == node.end() || !limit->is_number_integer() || limit->get<int64_t>() > 1000) return true;
  }
  if (node.is_structured()) {
    for (const auto& child : node) {
      if (reads_a_large_idx_file(child)) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json outline = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (reads_a_large_idx_file(outline)) return 0;
  variate::fuzz::expect_same_as_file(
      text, "json", [](const std::string& path) { return variate::io::read_json_data_file(path); },
      [&text](const std::string& path) { return variate::io::parse_json_data(text, path); });
  variate::Data parsed;
  try {
    // A path in a directory that does not exist: an IDX reference it names is not read.
    parsed = variate::io::parse_json_data(text, "/nonexistent/fuzz.json");
  } catch (const variate::ArgumentError&) {
    return 0;
  }
  variate::fuzz::bind_to_models(parsed);
  return 0;
}
