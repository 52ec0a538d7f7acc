#pragma once
// `variate export MODEL.vmod --cpp DIR`: the model as a standalone C++ program (model.h,
// main.cpp, CMakeLists.txt, README.md).

#include <CLI/CLI.hpp>

namespace variate::cli {

void add_export_command(CLI::App& app, int& exit_code);

}  // namespace variate::cli
