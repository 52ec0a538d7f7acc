// `variate`: the command line. LibTorch takes about half a second to load and initialise,
// so the commands that need none of it run here without it: `--version`, and `summary`,
// `loo` and `compare` of Stan CSV files. Every other command (and `loo` or `compare` of a
// project's runs, whose model may need computing) is in libvariate-commands.so
// (variate_commands.cpp), loaded on first use with LibTorch behind it: the same process,
// the same arguments.

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/cli/command_line.h"
#include "engine/cli/loo_command.h"
#include "engine/cli/summary_command.h"

namespace {

// The folder of this program's own file.
std::string program_folder() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return ".";
  const std::string file(path, static_cast<size_t>(length));
  return file.substr(0, file.rfind('/'));
}

// Beside the program in a build tree; installed, in VARIATE_COMMANDS_FOLDER, relative to
// the program's folder (bin/../lib/<multiarch>/variate).
int run_loaded_commands(int argc, char** argv) {
  // OpenBLAS (LibTorch's BLAS on Debian) starts its worker threads as it loads, and a
  // worker polls for work with sched_yield for 2^28 cycles (~0.1 s) after its start and
  // after each task before it sleeps: a run of a few tenths of a second shares its cores
  // with it. 2^4 cycles puts an idle worker to sleep at once; a large product still gets
  // every worker. Set before loading, when OpenBLAS reads it; a user's own value stays.
  setenv("OPENBLAS_THREAD_TIMEOUT", "4", /*overwrite=*/0);
  const std::string folder = program_folder();
  std::string error;
  for (const std::string& path : {folder + "/libvariate-commands.so",
                                  folder + "/" VARIATE_COMMANDS_FOLDER "/libvariate-commands.so"}) {
    if (access(path.c_str(), F_OK) != 0) continue;
    void* library = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
      error = dlerror();
      break;
    }
    using Main = int (*)(int, char**);
    if (const auto main = reinterpret_cast<Main>(dlsym(library, "variate_commands_main"))) return main(argc, argv);
    error = dlerror();
    break;
  }
  if (error.empty()) error = "libvariate-commands.so is neither in " + folder + " nor in " + folder + "/" VARIATE_COMMANDS_FOLDER;
  std::fprintf(stderr, "error: cannot load variate's commands: %s\n", error.c_str());
  return 1;
}

bool runs_without_libtorch(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) return true;
  if (argc < 2) return false;
  const std::string command = argv[1];
  if (command == "summary") return true;
  if (command != "loo" && command != "compare") return false;
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], "--project", 9) == 0) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = variate::cli;
  if (!runs_without_libtorch(argc, argv)) return run_loaded_commands(argc, argv);
  CLI::App app{cli::kProgramDescription, "variate"};
  app.set_version_flag("--version", cli::version_line());
  int exit_code = 0;
  cli::add_summary_command(app, exit_code);
  cli::add_loo_commands(app, exit_code);  // of files: a command line with --project is not run here
  return cli::run_command_line(app, argc, argv, exit_code);
}
