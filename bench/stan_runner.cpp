#include "stan_runner.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <ATen/ATen.h>

namespace variate::bench {
namespace {

namespace fs = std::filesystem;
using Fields = std::map<std::string, std::vector<std::string>>;

std::string quoted(const std::string& text) {
  std::string result = "'";
  for (char c : text) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
}

std::string cache_dir_or_default(const std::string& cache_dir) {
  if (!cache_dir.empty()) return cache_dir;
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

// Runs bench/SCRIPT with `arguments` and reads the "key value..." lines it prints.
class RScript {
 public:
  RScript(const std::string& script, const std::vector<std::string>& arguments, const fs::path& folder) {
    const std::string bench_dir = VARIATE_BENCH_DIR;
    const fs::path out = folder / "out.txt";
    const fs::path err = folder / "err.txt";
    std::ostringstream command;
    command << "Rscript " << quoted(bench_dir + "/" + script);
    for (const auto& argument : arguments) command << ' ' << quoted(argument);
    command << " >" << quoted(out.string()) << " 2>" << quoted(err.string());
    const int status = std::system(command.str().c_str());
    output_ = read_text(out) + read_text(err);
    if (status != 0) {
      throw std::runtime_error(script + " failed (Rscript exit status " + std::to_string(status) +
                               "):\n" + tail(output_, 3000));
    }
    std::istringstream lines(read_text(out));
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string key, word;
      words >> key;
      while (words >> word) fields_[key].push_back(word);
    }
  }

  double number(const std::string& key) const {
    const auto it = fields_.find(key);
    if (it == fields_.end() || it->second.empty()) {
      throw std::runtime_error("Stan's run printed no '" + key + "':\n" + tail(output_, 3000));
    }
    return std::stod(it->second[0]);
  }
  std::vector<std::string> words(const std::string& key) const {
    const auto it = fields_.find(key);
    return it == fields_.end() ? std::vector<std::string>{} : it->second;
  }
  bool compiled_fresh() const {
    const auto w = words("compiled");
    return !w.empty() && w[0] == "fresh";
  }

 private:
  Fields fields_;
  std::string output_;
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
  const RScript r("stan_logistic.R",
                  {folder.path.string(), bench_dir + "/logistic_regression.stan",
                   cache_dir_or_default(options.cache_dir), std::to_string(options.warmup),
                   std::to_string(options.draws), std::to_string(options.gradient.warmup),
                   std::to_string(options.gradient.repeats), std::to_string(options.seed),
                   std::to_string(options.max_tree_depth)},
                  folder.path);
  StanResult result;
  result.compiled_fresh = r.compiled_fresh();
  result.compile_s = r.number("compile_s");
  result.gradient_ms = r.number("grad_ms");
  result.log_prob = r.number("log_prob");
  for (const auto& value : r.words("gradient")) result.gradient.push_back(std::stod(value));
  if (options.draws == 0) return result;
  result.nuts_warmup_s = r.number("nuts_warmup_s");
  result.nuts_sampling_s = r.number("nuts_sampling_s");
  result.nuts_leapfrog = static_cast<int64_t>(r.number("nuts_leapfrog"));
  result.nuts_leapfrog_all = static_cast<int64_t>(r.number("nuts_leapfrog_all"));
  result.nuts_step_size = r.number("nuts_step_size");
  result.nuts_divergent = static_cast<int64_t>(r.number("nuts_divergent"));
  return result;
}

StanEightSchools run_stan_eight_schools(int chains, int cores, int warmup, int draws, uint64_t seed,
                                        const std::string& cache_dir) {
  TemporaryFolder folder;
  const std::string bench_dir = VARIATE_BENCH_DIR;
  const RScript r("stan_eight_schools.R",
                  {folder.path.string(), bench_dir + "/eight_schools_noncentered.stan",
                   cache_dir_or_default(cache_dir), std::to_string(chains), std::to_string(cores),
                   std::to_string(warmup), std::to_string(draws), std::to_string(seed)},
                  folder.path);
  StanEightSchools result;
  result.compiled_fresh = r.compiled_fresh();
  result.compile_s = r.number("compile_s");
  result.wall_s = r.number("wall_s");
  result.leapfrog = static_cast<int64_t>(r.number("leapfrog"));
  result.divergent = static_cast<int64_t>(r.number("divergent"));
  const auto parameters = static_cast<size_t>(r.number("parameters"));
  std::ifstream in(folder.path / "draws.bin", std::ios::binary);
  std::vector<double> flat(static_cast<size_t>(chains) * draws * parameters);
  in.read(reinterpret_cast<char*>(flat.data()), static_cast<std::streamsize>(flat.size() * sizeof(double)));
  if (!in) throw std::runtime_error("stan_eight_schools.R wrote fewer draws than expected");
  result.draws.assign(parameters, diagnostics::Draws(chains, std::vector<double>(draws)));
  for (int c = 0; c < chains; ++c) {
    for (int i = 0; i < draws; ++i) {
      for (size_t p = 0; p < parameters; ++p) {
        result.draws[p][c][i] = flat[(static_cast<size_t>(c) * draws + i) * parameters + p];
      }
    }
  }
  return result;
}

}  // namespace variate::bench
