#include "engine/cli/unknown_options.h"

#include <map>

#include "engine/model/closest_name.h"

namespace variate::cli {
namespace {

// CmdStan's options with no equal here, and what to do instead.
const std::map<std::string, std::string>& stan_only() {
  static const std::map<std::string, std::string> advice = {
      {"thin", "Variate keeps every draw (CmdStan's --thin N keeps every N-th); ESS and R-hat use them all"},
      {"refresh", "progress is shown about once a second; --quiet turns it off"},
      {"sig_figs", "the CSV files keep every digit of each draw (17 significant figures)"},
      {"output_file", "use --output FOLDER (a CSV file per chain)"},
      {"data_file", "use --data FILE"},
      {"algorithm", "each method is a command: variate sample, optimize, pathfinder, fit"},
  };
  return advice;
}

// "sample" for `variate sample`: the command's path below the program.
std::string command_path(const CLI::App& command) {
  std::string path = command.get_name();
  for (const CLI::App* parent = command.get_parent(); parent; parent = parent->get_parent()) {
    path = parent->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

}  // namespace

std::string unknown_options_message(const CLI::App& command, const std::vector<std::string>& words) {
  std::vector<std::string> known;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) known.push_back("--" + name);
  }
  const std::string where = "`" + command_path(command) + "`";
  std::string message;
  std::vector<std::string> others;
  for (const auto& word : words) {
    if (word.rfind("--", 0) != 0) {
      others.push_back(word);
      continue;
    }
    const std::string option = word.substr(0, word.find('='));
    message += "error: unknown option '" + option + "' for " + where;
    const std::string name = option.substr(2);
    if (const auto advice = stan_only().find(name); advice != stan_only().end()) {
      message += ": " + advice->second;
    } else if (const std::string guess = model::closest_name(option, known); !guess.empty()) {
      message += "; did you mean '" + guess + "'?";
    }
    message += "\n";
  }
  if (!others.empty() && message.empty()) {
    std::string list;
    for (const auto& word : others) list += (list.empty() ? "'" : ", '") + word + "'";
    message += "error: " + where + " does not take " + list + "\n";
  }
  return message + "Run with --help for the options.\n";
}

}  // namespace variate::cli
