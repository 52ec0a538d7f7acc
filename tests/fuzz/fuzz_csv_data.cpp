// libFuzzer target over the CSV data reader (engine/io/csv_data.cpp) and the binding of
// what it reads to fixed models (bind_models.h). A malformed file must raise an
// ArgumentError naming it; a crash, a sanitizer report or another exception is a finding,
// and so is a file read by lines that gives other data than its text (same_as_file.h).

#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/bind_models.h"
#include "tests/fuzz/same_as_file.h"
#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  variate::fuzz::expect_same_as_file(
      text, "csv", [](const std::string& path) { return variate::io::read_csv_data_file(path); },
      [&text](const std::string& path) { return variate::io::parse_csv_data(text, path); });
  variate::Data parsed;
  try {
    parsed = variate::io::parse_csv_data(text, "fuzz.csv");
  } catch (const variate::ArgumentError&) {
    return 0;
  }
  variate::fuzz::bind_to_models(parsed);
  return 0;
}
