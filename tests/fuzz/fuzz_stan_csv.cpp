// libFuzzer target over the Stan CSV reader (engine/io/stan_csv_reader.cpp) and what
// `variate summary FILE.csv` computes from a file before its table: every column, and the
// sampler counts and checks (stan_csv_sampler_stats.cpp). A malformed file must raise an
// ArgumentError naming it; a crash, a sanitizer report or another exception is a finding.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/argument_error.h"
#include "engine/io/stan_csv_reader.h"
#include "engine/io/stan_csv_sampler_stats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace io = variate::io;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<io::StanCsv> chains{io::parse_stan_csv(text, "fuzz.csv")};
    for (const std::string& name : chains.front().columns) (void)chains.front().column(name);
    (void)io::sampler_totals(chains);
    (void)io::sampler_checks(chains);
  } catch (const variate::ArgumentError&) {
  }
  return 0;
}
