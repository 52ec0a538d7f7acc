#pragma once
/// main.cpp of an exported program: a handful of lines that hand the two functions of
/// model.h to Variate's command-line library ("engine/cli/exported_program.h", linked as
/// Variate::cli), which runs `variate`'s sample, fit and logp on them. With the same seed,
/// `sample` draws what `variate sample` draws for the model.

#include <string>

namespace variate::codegen {

/// The text of main.cpp for the model functions named `name` (`name` and `name_data`),
/// exported from `model_file` by the engine of `version`.
std::string main_source(const std::string& name, const std::string& model_file,
                        const std::string& version);

}  // namespace variate::codegen
