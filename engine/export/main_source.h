#pragma once
/// main.cpp of an exported program: reads CmdStan JSON data; samples with NUTS (the
/// engine's driver, seeds and parameter layout, so a seed gives the draws `variate sample`
/// gives), writes Stan CSV and a summary; fits ADVI (`fit`, as `variate fit`); evaluates
/// the log density at given values (`logp`, as `variate logp`). The same program for every
/// model: it calls the two functions of model.h.

#include <string>

namespace variate::codegen {

/// The text of main.cpp for the model functions named `name`, exported from `model_file`
/// by the engine of `version`.
std::string main_source(const std::string& name, const std::string& model_file,
                        const std::string& version);

/// The text of main.cpp's `fit` and `logp` commands with their helpers (main_source()
/// includes them).
const char* fit_source();
const char* logp_source();

}  // namespace variate::codegen
