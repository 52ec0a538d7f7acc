#include "engine/services/init_files.h"

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/io/parameter_values.h"

namespace variate::services {
namespace {

std::vector<std::string> split_files(const std::string& init) {
  std::vector<std::string> files;
  size_t begin = 0;
  while (begin <= init.size()) {
    const size_t comma = init.find(',', begin);
    files.push_back(init.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return files;
}

bool ends_with_json(const std::string& name) {
  return name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

}  // namespace

bool names_init_files(const std::string& init) {
  const std::vector<std::string> files = split_files(init);
  for (const auto& file : files) {
    if (!ends_with_json(file)) return false;
  }
  return true;
}

std::vector<std::vector<double>> init_positions(const std::string& init, const ParameterLayout& layout,
                                                const std::vector<std::string>& derived_names, int chains) {
  const std::vector<std::string> files = split_files(init);
  if (files.size() != 1 && files.size() != static_cast<size_t>(chains)) {
    throw ArgumentError("--init: " + std::to_string(files.size()) + " files for " + std::to_string(chains) +
                        " chains; give one file for every chain, or one per chain");
  }
  std::vector<std::vector<double>> positions;
  for (int chain = 0; chain < chains; ++chain) {
    const std::string& path = files[files.size() == 1 ? 0 : static_cast<size_t>(chain)];
    const ValueMap values = io::parse_parameters(io::read_text_file(path), path, layout, derived_names);
    const at::Tensor position = layout.unconstrain(values).contiguous();
    positions.emplace_back(position.data_ptr<double>(), position.data_ptr<double>() + position.numel());
  }
  return positions;
}

}  // namespace variate::services
