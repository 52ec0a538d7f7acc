#include "engine/codegen/cpp_program.h"

#include <filesystem>
#include <fstream>

#include "engine/core/checks.h"
#include "engine/codegen/cpp_names.h"
#include "engine/codegen/main_source.h"
#include "engine/codegen/model_header.h"
#include "engine/core/version.h"
#include "engine/model/model_error.h"

namespace variate::codegen {
namespace {

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

std::string cmake_lists(const std::string& name) {
  return "# " + name + ", exported by `variate export`: builds against Variate's engine and\n"
         "# command-line library, installed (the libvariate-dev package; or cmake -S . -B build\n"
         "# -DCMAKE_PREFIX_PATH=/where/it/is/installed) or a build tree\n"
         "# (-DVariate_DIR=/path/to/variate/build).\n"
         "cmake_minimum_required(VERSION 3.25)\n"
         "project(" + name + " LANGUAGES CXX)\n\n"
         "set(CMAKE_CXX_STANDARD 17)\n"
         "set(CMAKE_CXX_STANDARD_REQUIRED ON)\n"
         "if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)\n"
         "  set(CMAKE_BUILD_TYPE Release CACHE STRING \"Build type\" FORCE)\n"
         "endif()\n\n"
         "find_package(Variate " + std::string(version()) + " REQUIRED)\n\n"
         "add_executable(" + name + " main.cpp model.h)\n"
         "target_link_libraries(" + name + " PRIVATE Variate::cli)\n";
}

std::string readme(const std::string& name, const std::string& model_file) {
  return "# " + name + "\n\n"
         "The model of `" + model_file + "` as a standalone C++ program, exported by\n"
         "`variate export`. `model.h` holds the model as C++ on Variate's random-variable API\n"
         "(each statement of the model is the comment above its C++); `main.cpp` hands its two\n"
         "functions to Variate's command-line library (`Variate::cli`), which gives the program\n"
         "the commands of `variate` on this model: `sample` (NUTS), `fit` (ADVI) and `logp`.\n\n"
         "## Build\n\n"
         "Against an installed Variate (the libvariate-dev package, or `cmake --install` of its\n"
         "build), or its build tree:\n\n"
         "    cmake -S . -B build                                     # libvariate-dev\n"
         "    cmake -S . -B build -DCMAKE_PREFIX_PATH=/usr/local      # cmake --install\n"
         "    cmake -S . -B build -DVariate_DIR=/path/to/variate/build # or a build tree\n"
         "    cmake --build build\n\n"
         "## Run\n\n"
         "    build/" + name + " sample --data data.json --seed 1 --output draws\n"
         "    build/" + name + " fit --data data.json --method meanfield --seed 1 --output fit\n"
         "    build/" + name + " logp --data data.json --params params.json\n"
         "    build/" + name + " --help\n\n"
         "The commands are `variate`'s, with its options, outputs and messages. `sample` writes\n"
         "one Stan CSV file per chain and prints the summary and warnings of `variate sample`;\n"
         "with the same seed it draws the same. It takes every option of `variate sample` but\n"
         "those that need the model's `.vmod` text, which the program does not have: `--dtype`\n"
         "(a compile option), `--project` and `--run-name` (a project records the text). `fit`\n"
         "takes those of `variate fit` (`--method`, `--iter`, `--eta`, `--output-draws`, ...);\n"
         "`logp` prints `{\"log_density\": ..., \"gradient\": {...}}` at the constrained\n"
         "parameter values of a JSON file, as `variate logp` does (`--jacobian` for the\n"
         "unconstrained density and gradient).\n";
}

}  // namespace

CppProgram export_cpp_program(const model::CheckedModel& model, const model::Source& source,
                              const std::string& name) {
  if (const auto deep = model.first_deep_node()) {
    throw model::ModelError(model.program.statements[deep->second].name_span(),
                            "'" + deep->first + "': exported programs sample or fit with ADVI; a model with "
                            "networks or guides is not exported (train it with `variate fit`)");
  }
  CppProgram program;
  program.name = identifier_from(name);
  const std::string model_file = file_name(source.name());
  program.files["model.h"] = model_header(model, source, program.name);
  program.files["main.cpp"] = main_source(program.name, model_file, version());
  program.files["CMakeLists.txt"] = cmake_lists(program.name);
  program.files["README.md"] = readme(program.name, model_file);
  return program;
}

void write_cpp_program(const CppProgram& program, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw ArgumentError("cannot create the folder '" + directory + "': " + error.message());
  }
  for (const auto& [file, text] : program.files) {
    const std::string path = (std::filesystem::path(directory) / file).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw ArgumentError("cannot write '" + path + "'");
  }
}

std::string program_name(const std::string& path) {
  const std::filesystem::path p(path);
  std::string stem = p.stem().string();
  if (stem == "model" && p.has_parent_path()) {
    const std::string folder = std::filesystem::absolute(p).parent_path().filename().string();
    if (!folder.empty()) stem = folder;
  }
  return identifier_from(stem);
}

}  // namespace variate::codegen
