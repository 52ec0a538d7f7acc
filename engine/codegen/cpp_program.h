#pragma once
/// Exporting a model as a standalone C++ program (`variate export MODEL.vmod --cpp DIR`):
///
///   DIR/model.h         the model as C++ on the engine's random-variable API
///   DIR/main.cpp        a few lines handing model.h's functions to Variate's command-line
///                       library (Variate::cli): `variate`'s sample, fit and logp on the model
///   DIR/CMakeLists.txt  builds it against an installed Variate or a build tree
///   DIR/README.md       how to build and run it
///
/// The generated code is what a person would write with the engine's C++ API: names from
/// the model, its expressions as C++ operators and engine functions; no interpreter. model.h
/// also keeps the model's text, which the program compiles onto the tape when the text and
/// the C++ agree (engine/cli/cpp_model_source.h): so it draws what `variate sample` draws,
/// on either backend.

#include <map>
#include <string>

#include "engine/model/checker.h"
#include "engine/model/source.h"

namespace variate::codegen {

struct CppProgram {
  std::string name;                          // the C++ name of the model and the program
  std::map<std::string, std::string> files;  // by file name: "model.h", "main.cpp", ...
};

/// The program for `model` (checked from `source`). `name` is made a C++ identifier.
/// @throws model::ModelError located in the model text (see model_header()).
CppProgram export_cpp_program(const model::CheckedModel& model, const model::Source& source,
                              const std::string& name);

/// Writes the files into `directory`, creating it.
/// @throws ArgumentError if a file cannot be written.
void write_cpp_program(const CppProgram& program, const std::string& directory);

/// The default name of a model exported from `path`: the file's stem, or the name of its
/// folder for a file called model.vmod. "m/eight_schools.vmod" -> "eight_schools".
std::string program_name(const std::string& path);

}  // namespace variate::codegen
