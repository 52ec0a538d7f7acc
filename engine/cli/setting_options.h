#pragma once
/// A method's settings as a command's options, made from their descriptions
/// (services/setting_table.cpp): the flag, its help with the default and unit, and the
/// check the description makes. Nothing about a setting is written here.

#include <set>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/services/settings.h"

namespace variate::cli {

/// Declares every setting of `method` on `command`, but those named in `left_out` and
/// those it has already (a setting two methods share); their values go into `settings`
/// as they are parsed.
void add_setting_options(CLI::App& command, services::Method method, services::Settings& settings,
                         const std::set<std::string>& left_out = {});

/// Declares one setting on `command` (a command that is no method's, as `logp --backend`).
void add_setting_option(CLI::App& command, const services::SettingDescriptor& setting, services::Settings& settings);

}  // namespace variate::cli
