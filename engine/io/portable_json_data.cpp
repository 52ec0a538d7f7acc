#include "engine/io/portable_json_data.h"

#include <filesystem>

#include <nlohmann/json.hpp>

namespace variate::io {

std::string portable_json_data(const std::string& text, const std::string& file_path) {
  namespace fs = std::filesystem;
  if (text.find("\"idx_") == std::string::npos) return text;  // no IDX value: no document to build
  nlohmann::ordered_json document = nlohmann::ordered_json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return text;
  std::error_code error;
  const fs::path folder = fs::absolute(fs::path(file_path), error).parent_path();
  if (error) return text;
  bool changed = false;
  for (auto& [name, value] : document.items()) {
    if (!value.is_object()) continue;
    for (const char* key : {"idx_images", "idx_labels"}) {
      if (!value.contains(key) || !value[key].is_string()) continue;
      const fs::path path = value[key].get<std::string>();
      if (path.is_absolute()) continue;
      value[key] = (folder / path).lexically_normal().string();
      changed = true;
    }
  }
  return changed ? document.dump(2) + "\n" : text;
}

}  // namespace variate::io
