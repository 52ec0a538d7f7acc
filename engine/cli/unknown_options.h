#pragma once
/// What a command says about options it does not take: the one meant where the spelling is
/// close (`--drawz`: did you mean `--draws`?), and what CmdStan's options that Variate has
/// no equal of become here (`--thin`, `--refresh`). CmdStan's names of the same settings
/// (`--num_samples`) are accepted as they are (services::SettingDescriptor::stan_names).

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace variate::cli {

/// One line per unknown option among `words` (what the parse left over), in the words of
/// `command`, the subcommand that was parsed: "unknown option '--drawz' for `variate
/// sample`; did you mean '--draws'?". Words that are not options are named together.
std::string unknown_options_message(const CLI::App& command, const std::vector<std::string>& words);

}  // namespace variate::cli
