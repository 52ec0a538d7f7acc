#include "runtime_info.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/version.h>

namespace variate::bench {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// BLAS_INFO and LAPACK_INFO from the build settings: the rest is compiler flags.
std::string blas_config() {
  const std::string config = at::show_config();
  std::string result;
  for (const std::string item : {"BLAS_INFO=", "LAPACK_INFO="}) {
    const auto at = config.find(item);
    if (at == std::string::npos) continue;
    const auto end = config.find_first_of(",\n", at);
    result += (result.empty() ? "" : ", ") + config.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  return result.empty() ? "not stated" : result;
}

// The libraries with "blas" in their name that the dynamic linker mapped: the BLAS that
// actually runs, whatever the build configuration says.
std::string loaded_blas() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> found;
  std::string line;
  while (std::getline(maps, line)) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    const auto base = path.rfind('/');
    if (lower(path.substr(base)).find("blas") != std::string::npos) found.insert(path);
  }
  std::string result;
  for (const auto& path : found) result += (result.empty() ? "" : ", ") + path;
  return result.empty() ? "none mapped" : result;
}

}  // namespace

RuntimeInfo runtime_info() {
  RuntimeInfo info;
  info.torch_version = TORCH_VERSION;
  info.cores = static_cast<int>(std::thread::hardware_concurrency());
  info.intra_op_threads = at::get_num_threads();
  info.blas_config = blas_config();
  info.blas_loaded = loaded_blas();
  const auto environment = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value ? value : "unset");
  };
  info.openblas_threads = environment("OPENBLAS_NUM_THREADS");
  info.omp_wait_policy = environment("OMP_WAIT_POLICY");
  std::ifstream("/proc/loadavg") >> info.load_average;
  return info;
}

}  // namespace variate::bench
