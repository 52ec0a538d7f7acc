#include "engine/services/settings.h"

#include "engine/core/argument_error.h"

namespace variate::services {
namespace {

nlohmann::ordered_json to_json(const SettingValue& value) {
  return std::visit([](const auto& x) { return nlohmann::ordered_json(x); }, value);
}

SettingValue from_json(const nlohmann::json& json) {
  if (json.is_boolean()) return json.get<bool>();
  if (json.is_number_unsigned()) return json.get<uint64_t>();
  if (json.is_number_integer()) return json.get<int64_t>();
  if (json.is_number()) return json.get<double>();
  if (json.is_string()) return json.get<std::string>();
  throw ArgumentError("expected a number, text or true/false, got " + json.dump());
}

bool is_flag_kind(const SettingDescriptor& setting) {
  return setting.kind == SettingKind::flag || setting.kind == SettingKind::tristate;
}

}  // namespace

bool Settings::operator==(const Settings& other) const {
  for (const SettingDescriptor* setting : all_settings()) {
    if (value_of(*setting) != other.value_of(*setting)) return false;
  }
  return true;
}

std::vector<const SettingDescriptor*> settings_of(Method method) {
  std::vector<const SettingDescriptor*> settings;
  for (const SettingDescriptor* setting : all_settings()) {
    if (setting->methods.contains(method)) settings.push_back(setting);
  }
  return settings;
}

const SettingDescriptor* find_setting(Method method, const std::string& flag) {
  for (const SettingDescriptor* setting : settings_of(method)) {
    if (setting->flag() == flag || (is_flag_kind(*setting) && setting->negative_flag() == flag)) return setting;
  }
  return nullptr;
}

Settings& Settings::put(const SettingDescriptor& setting, SettingValue value) {
  values_[&setting] = setting.checked(std::move(value));
  return *this;
}

Settings& Settings::put_text(const SettingDescriptor& setting, const std::string& text) {
  values_[&setting] = setting.parse(text);
  return *this;
}

Settings& Settings::clear(const SettingDescriptor& setting) {
  values_.erase(&setting);
  return *this;
}

std::optional<SettingValue> Settings::value_of(const SettingDescriptor& setting) const {
  if (const auto it = values_.find(&setting); it != values_.end()) return it->second;
  return setting.default_value;
}

nlohmann::ordered_json Settings::json(Method method) const {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const SettingDescriptor* setting : settings_of(method)) {
    const std::optional<SettingValue> value = value_of(*setting);
    json[setting->name] = value ? to_json(*value) : nlohmann::ordered_json(nullptr);
  }
  return json;
}

void Settings::read_json(Method method, const nlohmann::json& json, std::vector<std::string>* problems) {
  if (!json.is_object()) return;
  for (const SettingDescriptor* setting : settings_of(method)) {
    std::vector<std::string> keys = {setting->name};
    keys.insert(keys.end(), setting->legacy_keys.begin(), setting->legacy_keys.end());
    for (const std::string& key : keys) {
      const auto it = json.find(key);
      if (it == json.end()) continue;
      try {
        if (it->is_null()) {
          clear(*setting);
        } else if (it->is_string() && setting->kind != SettingKind::text && setting->kind != SettingKind::choice &&
                   setting->kind != SettingKind::device && setting->kind != SettingKind::tristate) {
          put_text(*setting, it->get<std::string>());  // a seed kept as text
        } else {
          put(*setting, from_json(*it));
        }
      } catch (const ArgumentError& e) {
        if (problems) problems->push_back(key + ": " + e.what());
      }
      break;
    }
  }
}

std::vector<std::string> Settings::arguments(Method method, SettingScope scope) const {
  std::vector<std::string> arguments;
  for (const SettingDescriptor* setting : settings_of(method)) {
    if (!setting->has(scope)) continue;
    const std::optional<SettingValue> value = value_of(*setting);
    if (!value || value == setting->default_value) continue;
    if (setting->kind == SettingKind::flag) {
      arguments.push_back(std::get<bool>(*value) ? setting->flag() : setting->negative_flag());
    } else if (setting->kind == SettingKind::tristate && std::get<std::string>(*value) != "auto") {
      arguments.push_back(std::get<std::string>(*value) == "on" ? setting->flag() : setting->negative_flag());
    } else {
      arguments.push_back(setting->flag());
      arguments.push_back(setting->format(*value));
    }
  }
  return arguments;
}

std::string Settings::read_arguments(Method method, SettingScope scope, const std::vector<std::string>& arguments) {
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    const size_t equals = argument.find('=');
    const std::string flag = argument.substr(0, equals);
    const SettingDescriptor* setting = find_setting(method, flag);
    if (!setting || !setting->has(scope)) return "the option '" + flag.substr(0, 60) + "' is not accepted";
    try {
      if (is_flag_kind(*setting) && equals == std::string::npos) {
        const bool on = flag == setting->flag();
        if (setting->kind == SettingKind::flag) put(*setting, on); else put(*setting, std::string(on ? "on" : "off"));
      } else if (equals != std::string::npos) {
        put_text(*setting, argument.substr(equals + 1));
      } else if (i + 1 < arguments.size()) {
        put_text(*setting, arguments[++i]);
      } else {
        return flag + " needs a value";
      }
    } catch (const ArgumentError& e) {
      return e.what();
    }
  }
  return "";
}

}  // namespace variate::services
