#include "engine/remote/idx_references.h"

#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/remote/content_hash.h"

namespace variate::remote {
namespace {

constexpr const char* kIdxKeys[] = {"idx_images", "idx_labels"};

// Calls `visit(variable, path)` for each IDX path of the document, in order; `visit` may
// change the path.
template <typename Visit>
void for_each_idx_path(nlohmann::ordered_json& document, Visit&& visit) {
  for (auto& [name, value] : document.items()) {
    if (!value.is_object()) continue;
    for (const char* key : kIdxKeys) {
      if (value.contains(key) && value[key].is_string()) visit(name, value[key]);
    }
  }
}

}  // namespace

std::string uploaded_idx_name(const std::string& sha256) { return sha256 + ".idx"; }

std::string with_uploaded_idx_files(const std::string& json, const std::string& folder,
                                    const std::function<std::string(const std::string&)>& upload) {
  if (json.find("\"idx_") == std::string::npos) return json;  // no IDX value: sent as it is
  nlohmann::ordered_json document = nlohmann::ordered_json::parse(json, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return json;  // the worker's reader reports it
  for_each_idx_path(document, [&](const std::string&, nlohmann::ordered_json& path) {
    std::filesystem::path file = path.get<std::string>();
    if (file.is_relative()) file = std::filesystem::path(folder) / file;
    path = upload(file.string());
  });
  return document.dump(2) + "\n";
}

std::string check_idx_references(const std::string& json, const std::function<bool(const std::string&)>& held) {
  if (json.find("\"idx_") == std::string::npos) return "";
  nlohmann::ordered_json document = nlohmann::ordered_json::parse(json, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return "";  // the run's reader reports it
  std::string problem;
  for_each_idx_path(document, [&](const std::string& variable, nlohmann::ordered_json& path) {
    const std::string name = path.get<std::string>();
    const bool uploaded = name.size() == 68 && name.compare(64, 4, ".idx") == 0 && is_sha256_hex(name.substr(0, 64));
    if (problem.empty() && !(uploaded && held(name))) {
      problem = "the data's '" + variable + "' names the file '" + name.substr(0, 200) +
                "', which was not uploaded with it: a worker opens only the files its clients upload";
    }
  });
  return problem;
}

}  // namespace variate::remote
