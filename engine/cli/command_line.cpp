#include "engine/cli/command_line.h"

#include <csignal>
#include <exception>
#include <iostream>
#include <new>

#include <torch/version.h>  // macros only: the version LibTorch's headers are of

#include "engine/cli/unknown_options.h"
#include "engine/core/version.h"

namespace variate::cli {

std::string version_line() { return std::string("variate ") + version() + " (LibTorch " + TORCH_VERSION + ")"; }

std::string plain_error_text(const std::exception& error) { return error.what(); }

int run_command_line(CLI::App& app, int argc, char** argv, const int& exit_code, ErrorText error_text) {
  // A file that reaches the process's size limit (ulimit -f) then fails its write with
  // EFBIG, which the command reports and survives, instead of the default SIGXFSZ that
  // ends the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    // The deepest command parsed says which options were meant.
    const CLI::App* command = &app;
    while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
    std::cerr << unknown_options_message(*command, app.remaining(true));
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {  // what the checks before a run could not foresee
    std::cerr << "error: out of memory: this process could not allocate what the command needs (the machine's "
                 "free memory, or a limit such as ulimit -v, is too small for it)\n";
    return 1;
  } catch (const std::exception& e) {  // a numerical library's failure too: reported, not a crash
    std::cerr << "error: " << error_text(e) << "\n";
    return 1;
  }
  if (argc == 1) std::cout << app.help();
  return exit_code;
}

}  // namespace variate::cli
