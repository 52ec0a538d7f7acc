#include "engine/cli/setting_options.h"

#include "engine/core/argument_error.h"

namespace variate::cli {
namespace {

using services::SettingDescriptor;
using services::SettingKind;

std::string type_name(const SettingDescriptor& setting) {
  switch (setting.kind) {
    case SettingKind::integer: return "INT";
    case SettingKind::real: return "NUMBER";
    case SettingKind::seed: return "UINT";
    case SettingKind::choice: {
      std::string choices;
      for (const auto& choice : setting.choices) choices += (choices.empty() ? "" : "|") + choice;
      return choices;
    }
    case SettingKind::device: return "DEVICE";
    default: return "TEXT";
  }
}

// "--draws,--num_samples": the flag and CmdStan's names of the setting, for CLI11.
std::string names(const SettingDescriptor& d, const std::string& flag) {
  std::string all = flag;
  for (const auto& name : d.stan_names) all += ",--" + name;
  return all;
}

}  // namespace

void add_setting_options(CLI::App& command, services::Method method, services::Settings& settings,
                         const std::set<std::string>& left_out) {
  for (const SettingDescriptor* setting : services::settings_of(method)) {
    if (left_out.count(setting->name)) continue;
    if (command.get_option_no_throw(setting->flag())) continue;  // another method's, the same setting
    add_setting_option(command, *setting, settings);
  }
}

void add_setting_option(CLI::App& command, const SettingDescriptor& d, services::Settings& settings) {
  if (d.kind == SettingKind::flag) {
    const bool on_by_default = d.default_value && std::get<bool>(*d.default_value);
    command.add_flag_callback(on_by_default ? d.negative_flag() : names(d, d.flag()),
                              [&settings, &d, on_by_default] { settings.put(d, !on_by_default); },
                              d.full_help() + (on_by_default ? " (on by default: this turns it off)" : ""));
    return;
  }
  if (d.kind == SettingKind::tristate) {
    command.add_flag_callback(d.flag(), [&settings, &d] { settings.put(d, std::string("on")); }, d.full_help());
    command.add_flag_callback(d.negative_flag(), [&settings, &d] { settings.put(d, std::string("off")); },
                              "Leave it out (see " + d.flag() + ")")
        ->excludes(d.flag());
    return;
  }
  command
      .add_option_function<std::string>(names(d, d.flag()),
                                        [&settings, &d](const std::string& text) { settings.put_text(d, text); },
                                        d.full_help())
      ->type_name(type_name(d))
      ->check([&d](const std::string& text) -> std::string {
        try {
          d.parse(text);
          return "";
        } catch (const ArgumentError& e) {  // CLI11 names the option itself
          const std::string message = e.what(), prefix = d.flag() + ": ";
          return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
        }
      });
}

}  // namespace variate::cli
