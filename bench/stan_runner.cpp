#include "stan_runner.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <ATen/ATen.h>

namespace variate::bench {
namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& text) {
  std::string result = "'";
  for (char c : text) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
}

std::string default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return (fs::path(xdg) / "variate-bench").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home ? home : "/tmp") / ".cache" / "variate-bench").string();
}

void write_bytes(const fs::path& path, const at::Tensor& contiguous) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(contiguous.data_ptr()),
            static_cast<std::streamsize>(contiguous.numel() * contiguous.element_size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string tail(const std::string& text, size_t characters) {
  return text.size() <= characters ? text : "..." + text.substr(text.size() - characters);
}

// Removes the data folder however the run ends.
struct TemporaryFolder {
  fs::path path;
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "variate-bench-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
    path = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

bool stan_available() {
  return std::system("Rscript -e 'suppressPackageStartupMessages(library(rstan))' >/dev/null 2>&1") == 0;
}

StanResult run_stan(const LogisticData& data, const at::Tensor& theta, const StanOptions& options) {
  TemporaryFolder folder;
  {
    std::ofstream dims(folder.path / "dims.txt");
    dims << data.rows() << ' ' << data.columns() << '\n';
  }
  // x_columns is [D, N] row-major: exactly R's column-major N x D matrix.
  write_bytes(folder.path / "X.bin", data.x_columns.to(at::kDouble).contiguous());
  write_bytes(folder.path / "y.bin", data.y.to(at::kInt).contiguous());
  write_bytes(folder.path / "theta.bin", theta.to(at::kDouble).contiguous());

  const std::string bench_dir = VARIATE_BENCH_DIR;
  const fs::path out = folder.path / "out.txt";
  const fs::path err = folder.path / "err.txt";
  std::ostringstream command;
  command << "Rscript " << quoted(bench_dir + "/stan_logistic.R") << ' ' << quoted(folder.path.string())
          << ' ' << quoted(bench_dir + "/logistic_regression.stan") << ' '
          << quoted(options.cache_dir.empty() ? default_cache_dir() : options.cache_dir) << ' '
          << options.warmup << ' ' << options.draws << ' ' << options.gradient.warmup << ' '
          << options.gradient.repeats << ' ' << options.seed << ' ' << options.max_tree_depth << " >" << quoted(out.string())
          << " 2>" << quoted(err.string());
  const int status = std::system(command.str().c_str());
  const std::string output = read_text(out);
  if (status != 0) {
    throw std::runtime_error("Stan's run failed (Rscript exit status " + std::to_string(status) +
                             "):\n" + tail(output + read_text(err), 3000));
  }

  std::map<std::string, std::vector<std::string>> fields;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string key, word;
    words >> key;
    while (words >> word) fields[key].push_back(word);
  }
  const auto number = [&](const std::string& key) {
    const auto it = fields.find(key);
    if (it == fields.end() || it->second.empty()) {
      throw std::runtime_error("Stan's run printed no '" + key + "':\n" + tail(output + read_text(err), 3000));
    }
    return std::stod(it->second[0]);
  };
  StanResult result;
  result.compiled_fresh = !fields["compiled"].empty() && fields["compiled"][0] == "fresh";
  result.compile_s = number("compile_s");
  result.gradient_ms = number("grad_ms");
  result.log_prob = number("log_prob");
  for (const auto& value : fields["gradient"]) result.gradient.push_back(std::stod(value));
  if (options.draws == 0) return result;
  result.nuts_warmup_s = number("nuts_warmup_s");
  result.nuts_sampling_s = number("nuts_sampling_s");
  result.nuts_leapfrog = static_cast<int64_t>(number("nuts_leapfrog"));
  result.nuts_step_size = number("nuts_step_size");
  result.nuts_divergent = static_cast<int64_t>(number("nuts_divergent"));
  return result;
}

}  // namespace variate::bench
