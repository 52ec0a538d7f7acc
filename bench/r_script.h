#pragma once
/// Running the benchmark's R scripts (bench/*.R, through Rscript): a temporary folder for
/// what they exchange with the program, the "key value..." lines they print, and the
/// draws they write as raw doubles.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::bench {

/// Where the R scripts cache compiled Stan models: `cache_dir`, or by default
/// $XDG_CACHE_HOME/variate-bench, or ~/.cache/variate-bench.
std::string cache_dir_or_default(const std::string& cache_dir);

/// A fresh folder under the system's temporary folder, removed however the run ends.
class TemporaryFolder {
 public:
  TemporaryFolder();
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// Runs bench/SCRIPT with `arguments` (its output goes to files in `folder`) and reads
/// the "key value..." lines it prints.
class RScript {
 public:
  /// @throws std::runtime_error with the end of R's output if the script fails.
  RScript(const std::string& script, const std::vector<std::string>& arguments,
          const std::filesystem::path& folder);

  /// The first value printed after `key`.
  /// @throws std::runtime_error with the end of R's output if the script printed none.
  double number(const std::string& key) const;
  /// Every value printed after `key` (none: empty).
  std::vector<std::string> words(const std::string& key) const;
  /// The numbers printed after `key`.
  std::vector<double> numbers(const std::string& key) const;
  /// Whether the script compiled its Stan model now ("compiled fresh"), not from the cache.
  bool compiled_fresh() const;

 private:
  std::map<std::string, std::vector<std::string>> fields_;
  std::string output_;
};

/// Whether `Rscript -e 'library(rstan)'` works here.
bool stan_available();

/// Draws an R script wrote as doubles in [chain][iteration][parameter] order, returned per
/// parameter, per chain.
/// @throws std::runtime_error if the file holds fewer values.
std::vector<diagnostics::Draws> read_draws(const std::filesystem::path& path, int chains, int draws,
                                           size_t parameters);

}  // namespace variate::bench
