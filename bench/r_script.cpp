#include "r_script.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace variate::bench {
namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& text) {
  std::string result = "'";
  for (char c : text) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
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

}  // namespace

std::string cache_dir_or_default(const std::string& cache_dir) {
  if (!cache_dir.empty()) return cache_dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return (fs::path(xdg) / "variate-bench").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home ? home : "/tmp") / ".cache" / "variate-bench").string();
}

TemporaryFolder::TemporaryFolder() {
  std::string pattern = (fs::temp_directory_path() / "variate-bench-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
  path_ = pattern;
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

RScript::RScript(const std::string& script, const std::vector<std::string>& arguments,
                 const fs::path& folder) {
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

double RScript::number(const std::string& key) const {
  const auto it = fields_.find(key);
  if (it == fields_.end() || it->second.empty()) {
    throw std::runtime_error("Stan's run printed no '" + key + "':\n" + tail(output_, 3000));
  }
  return std::stod(it->second[0]);
}

std::vector<std::string> RScript::words(const std::string& key) const {
  const auto it = fields_.find(key);
  return it == fields_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<double> RScript::numbers(const std::string& key) const {
  std::vector<double> values;
  for (const auto& word : words(key)) values.push_back(std::stod(word));
  return values;
}

bool RScript::compiled_fresh() const {
  const auto w = words("compiled");
  return !w.empty() && w[0] == "fresh";
}

bool stan_available() {
  return std::system(
             "Rscript -e 'suppressPackageStartupMessages(library(rstan))' >/dev/null 2>&1") == 0;
}

std::vector<diagnostics::Draws> read_draws(const fs::path& path, int chains, int draws,
                                           size_t parameters) {
  std::ifstream in(path, std::ios::binary);
  std::vector<double> flat(static_cast<size_t>(chains) * draws * parameters);
  in.read(reinterpret_cast<char*>(flat.data()),
          static_cast<std::streamsize>(flat.size() * sizeof(double)));
  if (!in) throw std::runtime_error(path.string() + " holds fewer draws than expected");
  std::vector<diagnostics::Draws> result(parameters,
                                         diagnostics::Draws(chains, std::vector<double>(draws)));
  for (int c = 0; c < chains; ++c) {
    for (int i = 0; i < draws; ++i) {
      for (size_t p = 0; p < parameters; ++p) {
        result[p][c][i] = flat[(static_cast<size_t>(c) * draws + i) * parameters + p];
      }
    }
  }
  return result;
}

}  // namespace variate::bench
