#include "tests/fuzz/same_as_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"

namespace variate::fuzz {
namespace {

struct Outcome {
  std::optional<Data> data;
  std::string error;
};

Outcome attempt(const std::function<Data(const std::string&)>& read, const std::string& path) {
  try {
    return {read(path), ""};
  } catch (const ArgumentError& e) {
    return {std::nullopt, e.what()};
  }
}

[[noreturn]] void disagree(const std::string& what) {
  std::fprintf(stderr, "the file and the text read differently: %s\n", what.c_str());
  std::abort();
}

}  // namespace

void expect_same_as_file(const std::string& text, const std::string& extension,
                         const std::function<Data(const std::string& path)>& read_file,
                         const std::function<Data(const std::string& path)>& read_text) {
  static const std::filesystem::path folder = [] {
    const auto path = std::filesystem::temp_directory_path() / ("variate_fuzz_" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  const std::string path = (folder / ("input." + extension)).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  const Outcome from_file = attempt(read_file, path);
  const Outcome from_text = attempt(read_text, path);
  if (from_file.error != from_text.error) disagree("'" + from_file.error + "' against '" + from_text.error + "'");
  if (!from_file.data) return;
  if (from_file.data->names() != from_text.data->names()) disagree("the variables");
  for (const auto& name : from_text.data->names()) {
    const at::Tensor a = (*from_file.data)[name].contiguous(), b = (*from_text.data)[name].contiguous();
    if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes() ||
        (a.nbytes() > 0 && std::memcmp(a.data_ptr(), b.data_ptr(), static_cast<size_t>(a.nbytes())) != 0)) {
      disagree("variable '" + name + "'");
    }
  }
}

}  // namespace variate::fuzz
