#include "cli_runs.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "engine/io/stan_csv_reader.h"
#include "engine/mcmc/sampler_columns.h"

#include "model_figures.h"
#include "timing.h"

extern char** environ;

namespace variate::bench {
namespace {

// Runs `arguments` (the program first) with its output thrown away; its exit status.
int run_quietly(const std::vector<std::string>& arguments) {
  std::vector<char*> argv;
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int started = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) throw std::runtime_error("cannot start " + arguments[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

CliFigures run_variate_sample(const BenchModel& model, const ModelBenchOptions& options) {
  namespace fs = std::filesystem;
  std::string folder = (fs::temp_directory_path() / "variate-bench-XXXXXX").string();
  if (!mkdtemp(folder.data())) throw std::runtime_error("cannot make a temporary folder");
  const std::vector<std::string> command = {
      VARIATE_EXECUTABLE, "sample", model.vmod_path, "--data", model.data_path,
      "--chains", std::to_string(options.chains), "--warmup", std::to_string(options.warmup),
      "--draws", std::to_string(options.draws), "--seed", std::to_string(options.seed),
      "--threads", std::to_string(options.threads), "--quiet", "--output", folder};
  CliFigures f;
  const double start = now_seconds();
  const int status = run_quietly(command);
  f.wall_s = now_seconds() - start;
  try {
    if (status != 0) throw std::runtime_error("variate sample exited with " + std::to_string(status));
    f.chain_s = 0;
    const std::string leapfrog = sampler_column_name(SamplerColumn::n_leapfrog);
    for (int chain = 1; chain <= options.chains; ++chain) {
      const io::StanCsv csv = io::read_stan_csv(folder + "/chain_" + std::to_string(chain) + ".csv");
      if (!csv.timing) throw std::runtime_error(csv.file + " has no timing block");
      f.chain_s += csv.timing->warmup_seconds + csv.timing->sampling_seconds;
      for (const double steps : csv.column(leapfrog)) f.sampling_leapfrog += static_cast<int64_t>(steps);
    }
  } catch (...) {
    fs::remove_all(folder);
    throw;
  }
  fs::remove_all(folder);
  return f;
}

}  // namespace variate::bench
