#include "engine/cli/model_input.h"

#include "engine/core/checks.h"
#include "engine/io/data_file.h"

namespace variate::cli {
namespace {

std::optional<model::CompileResult> compile(const std::string& model_path, const Data* data,
                                            std::ostream& errors, const model::CompileOptions& options) {
  model::CompileResult result =
      model::compile_model(model::Source(model_path, io::read_text_file(model_path)), data, options);
  if (!result.ok()) {
    errors << result.report();
    const size_t count = result.diagnostics.error_count();
    errors << count << (count == 1 ? " error" : " errors") << " in " << model_path << "\n";
    return std::nullopt;
  }
  return result;
}

}  // namespace

std::optional<model::CompileResult> load_model(const std::string& model_path,
                                               const std::optional<std::string>& data_path,
                                               std::ostream& errors,
                                               const model::CompileOptions& options) {
  try {
    std::optional<Data> data;
    if (data_path) data = io::read_data_file(*data_path);
    return compile(model_path, data ? &*data : nullptr, errors, options);
  } catch (const ArgumentError& e) {  // unreadable or malformed files
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

std::optional<model::CompileResult> load_model(const std::string& model_path, const Data& data,
                                               std::ostream& errors, const model::CompileOptions& options) {
  try {
    return compile(model_path, &data, errors, options);
  } catch (const ArgumentError& e) {
    errors << "error: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace variate::cli
