#include "engine/cli/command_line.h"

#include <csignal>
#include <exception>
#include <iostream>
#include <new>

#include <c10/util/Exception.h>

#include "engine/cli/unknown_options.h"

namespace variate::cli {

int run_command_line(CLI::App& app, int argc, char** argv, const int& exit_code) {
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
  } catch (const c10::Error& e) {  // a numerical library failure is reported, not a crash
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (argc == 1) std::cout << app.help();
  return exit_code;
}

}  // namespace variate::cli
