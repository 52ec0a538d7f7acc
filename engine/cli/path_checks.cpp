#include "engine/cli/path_checks.h"

#include <unistd.h>

#include <filesystem>

namespace variate::cli {
namespace fs = std::filesystem;

CLI::Validator writable_file_check() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        std::error_code error;
        if (fs::is_directory(path, error)) return "cannot write '" + path + "': it is a folder";
        const fs::path folder = fs::absolute(path, error).parent_path();
        if (!fs::is_directory(folder, error)) return "cannot write '" + path + "': the folder '" + folder.string() + "' does not exist";
        if (::access(folder.c_str(), W_OK) != 0) return "cannot write '" + path + "': the folder '" + folder.string() + "' is not writable";
        if (fs::exists(path, error) && ::access(path.c_str(), W_OK) != 0) return "cannot write '" + path + "': the file is not writable";
        return "";
      },
      "");
}

CLI::Validator output_folder_check() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        std::error_code error;
        if (fs::exists(path, error) && !fs::is_directory(path, error)) return "'" + path + "' is a file, not a folder";
        fs::create_directories(path, error);
        if (error) return "cannot create the folder '" + path + "': " + error.message();
        if (::access(path.c_str(), W_OK) != 0) return "cannot write into the folder '" + path + "'";
        return "";
      },
      "");
}

}  // namespace variate::cli
