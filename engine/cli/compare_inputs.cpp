#include "engine/cli/compare_inputs.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "engine/core/argument_error.h"

namespace variate::cli {
namespace {

namespace fs = std::filesystem;

// A folder's chain_1.csv, chain_2.csv, ... in chain order (chain_10 after chain_9).
std::vector<std::string> folder_chains(const std::string& folder) {
  static const std::regex chain_file(R"(chain_([0-9]+)\.csv)");
  std::vector<std::pair<long, std::string>> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    std::smatch match;
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, match, chain_file)) found.emplace_back(std::stol(match[1]), entry.path().string());
  }
  if (found.empty()) throw ArgumentError("folder '" + folder + "' has no chain files (chain_1.csv, chain_2.csv, ...)");
  std::sort(found.begin(), found.end());
  std::vector<std::string> files;
  for (auto& [chain, file] : found) files.push_back(std::move(file));
  return files;
}

std::vector<std::string> glob_files(const std::string& pattern) {
  glob_t matches{};
  const int status = ::glob(pattern.c_str(), 0, nullptr, &matches);
  std::vector<std::string> files;
  if (status == 0) files.assign(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  globfree(&matches);
  if (files.empty()) throw ArgumentError("'" + pattern + "' matches no file");
  return files;  // glob sorts them
}

// One path of NAME=PATH,PATH: a folder, a glob or a file.
std::vector<std::string> chain_files(const std::string& path) {
  if (is_glob(path)) return glob_files(path);
  if (fs::is_directory(path)) return folder_chains(path);
  return {path};
}

std::string folder_name(const std::string& folder) {
  fs::path path(folder);
  if (!path.has_filename()) path = path.parent_path();  // out/a/
  return path.filename().string();
}

std::vector<std::string> comma_separated(const std::string& text) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

}  // namespace

bool is_glob(const std::string& text) { return text.find_first_of("*?[") != std::string::npos; }

std::vector<ComparedChains> compared_chains(const std::vector<std::string>& arguments) {
  std::vector<ComparedChains> models;
  for (const auto& argument : arguments) {
    ComparedChains model;
    const size_t equals = argument.find('=');
    if (equals == std::string::npos && fs::is_directory(argument)) {
      model = {folder_name(argument), folder_chains(argument)};
    } else if (equals == std::string::npos || equals == 0 || equals + 1 == argument.size()) {
      throw ArgumentError("expected NAME=FILE.csv[,FILE.csv...] (or NAME=FOLDER, or a folder of chain files), got '" +
                          argument + "'");
    } else {
      model.name = argument.substr(0, equals);
      for (const auto& path : comma_separated(argument.substr(equals + 1))) {
        for (auto& file : chain_files(path)) model.files.push_back(std::move(file));
      }
    }
    for (const auto& other : models) {
      if (other.name == model.name) {
        throw ArgumentError("two models are named '" + model.name + "': name them, NAME=FOLDER");
      }
    }
    models.push_back(std::move(model));
  }
  return models;
}

}  // namespace variate::cli
