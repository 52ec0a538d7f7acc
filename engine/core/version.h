#pragma once
/// Variate's version ("0.1.0"), as the top-level CMakeLists.txt's project() declares it:
/// what `--version` prints, the CSV headers and the worker's hello record.

namespace variate {

const char* version();

}  // namespace variate
