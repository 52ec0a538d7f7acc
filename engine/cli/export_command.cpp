#include "engine/cli/export_command.h"

#include <iostream>
#include <memory>

#include "engine/codegen/cpp_program.h"
#include "engine/model/model_error.h"

#include "engine/cli/command_run.h"
#include "engine/cli/path_checks.h"
#include "engine/io/data_file.h"
#include "engine/services/vmod_source.h"

namespace variate::cli {
namespace {

struct ExportOptions {
  std::string model;
  std::string directory;
  std::optional<std::string> name;
  std::optional<std::string> data;
};

int run_export(const ExportOptions& options) {
  // With --data the model is also bound to it, so shape errors show before any C++ does.
  std::optional<model::CompileResult> result;
  try {
    std::optional<Data> data;
    if (options.data) data = io::read_data_file(*options.data);
    result = services::VmodSource::from_file(options.model).compile(data ? &*data : nullptr, {});
    const std::string name = options.name.value_or(codegen::program_name(options.model));
    const codegen::CppProgram program =
        codegen::export_cpp_program(*result->checked, *result->source, name);
    codegen::write_cpp_program(program, options.directory);
    std::cout << "wrote " << options.directory << "/{model.h, main.cpp, CMakeLists.txt, README.md}"
              << " (program " << program.name << "); build it with\n"
              << "  cmake -S " << options.directory << " -B " << options.directory
              << "/build   # with libvariate-dev installed; else add -DVariate_DIR=<a Variate build>\n"
              << "  cmake --build " << options.directory << "/build\n";
    return 0;
  } catch (const model::ModelError& e) {
    model::Diagnostics diagnostics;
    diagnostics.error(e.span(), e.what());
    std::cerr << diagnostics.format(*result->source) << "1 error in " << options.model << "\n";
    return 1;
  } catch (const ArgumentError& e) {
    print_error(std::cerr, e);
    return 1;
  }
}

}  // namespace

void add_export_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app.add_subcommand("export", "Export a model as a standalone C++ program");
  command->add_option("model", options->model, "The model (.vmod)")->required();
  command->add_option("--cpp", options->directory,
                      "Write model.h, main.cpp, CMakeLists.txt and README.md into this folder")
      ->required()
      ->check(output_folder_check());
  command->add_option("--name", options->name,
                      "C++ name of the model and the program (default: from the file name)");
  command->add_option("--data", options->data, "Also check the model against this data file");
  command->callback([options, &exit_code] { exit_code = run_export(*options); });
}

}  // namespace variate::cli
