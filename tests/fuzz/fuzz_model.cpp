// libFuzzer target over the model language's front end: parse, check, format every
// diagnostic, and for text that checks cleanly, print it canonically and check that the
// printed text parses back to the same tree. A crash, a hang, a sanitizer report or a
// failed round trip is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/model/checker.h"
#include "engine/model/parser.h"
#include "engine/model/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace vm = variate::model;
  const vm::Source source("fuzz.vmod", std::string(reinterpret_cast<const char*>(data), size));
  vm::ParseResult parsed = vm::parse(source);
  const vm::Program original = parsed.program;
  vm::check(std::move(parsed.program), source, parsed.diagnostics);
  const std::string report = parsed.diagnostics.format(source);
  if (parsed.diagnostics.has_errors() && report.empty()) __builtin_trap();
  if (parsed.ok()) {
    const vm::Source printed("printed.vmod", vm::to_string(original));
    const vm::ParseResult again = vm::parse(printed);
    if (!again.ok() || !vm::structurally_equal(again.program, original)) __builtin_trap();
  }
  return 0;
}
