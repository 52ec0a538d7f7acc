#pragma once
/// The values of a run's settings: those given, the descriptions' defaults for the rest.
/// One Settings holds every method's values (the studio keeps them all while the user
/// switches methods); a method reads its own.
///
///   Settings settings;
///   settings.set(setting::chains, 2);
///   settings.get(setting::chains);            // 2
///   settings.get(setting::warmup);            // 1000, its default
///   settings.json(Method::nuts);              // {"seed": null, "chains": 2, "warmup": 1000, ...}

#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/services/setting.h"

namespace variate::services {

/// Every setting, in the table's order (the Run panel's, the help's).
const std::vector<const SettingDescriptor*>& all_settings();
/// Those `method` takes, in that order.
std::vector<const SettingDescriptor*> settings_of(Method method);
/// The setting of `method` whose flag is `flag` ("--max-depth"; "--no-newton" finds
/// newton), or null.
const SettingDescriptor* find_setting(Method method, const std::string& flag);

class Settings {
 public:
  /// The value given, else the default; std::optional<T> for a setting with no default.
  template <class T>
  T get(const Setting<T>& setting) const {
    const std::optional<SettingValue> value = value_of(setting.descriptor());
    if constexpr (is_optional<T>::value) {
      if (!value) return std::nullopt;
      return convert<typename T::value_type>(*value);
    } else {
      return convert<T>(value.value());
    }
  }

  /// @throws ArgumentError, naming the flag, for a value the setting does not take. The
  /// value converts to the setting's type (`set(setting::seed, 7)`).
  template <class T>
  Settings& set(const Setting<T>& setting, const typename Setting<T>::value_type& value) {
    if constexpr (is_optional<T>::value) {
      if (!value) return clear(setting.descriptor());
      return put(setting.descriptor(), to_value(*value));
    } else {
      return put(setting.descriptor(), to_value(value));
    }
  }

  /// The value given (checked). @throws ArgumentError as set.
  Settings& put(const SettingDescriptor& setting, SettingValue value);
  /// The value `text` names ("0.9", "dense", "on"). @throws ArgumentError as set.
  Settings& put_text(const SettingDescriptor& setting, const std::string& text);
  /// Back to the default.
  Settings& clear(const SettingDescriptor& setting);
  bool given(const SettingDescriptor& setting) const { return values_.count(&setting) > 0; }
  /// The value given or the default; nullopt when there is neither.
  std::optional<SettingValue> value_of(const SettingDescriptor& setting) const;

  /// The stored configuration of a run of `method`: every setting it takes, by name, with
  /// its value (null where it has none).
  nlohmann::ordered_json json(Method method) const;
  /// The values of `method`'s settings in `json` (as json() writes them, or under a key an
  /// older configuration used); others keep theirs. A value a setting does not take is
  /// reported in `problems` (when given) and left out, so that an older or edited project
  /// still opens.
  void read_json(Method method, const nlohmann::json& json, std::vector<std::string>* problems = nullptr);

  /// The options that give `method`'s settings of `scope` their values here, for a program
  /// that reads them with the same descriptions (`variate sample` as another rank, a
  /// worker's job): those whose value is not the default.
  std::vector<std::string> arguments(Method method, SettingScope scope) const;
  /// Reads `arguments` as arguments() writes them ("--flag value", "--flag=value",
  /// "--flag", "--no-flag"). "" or what is wrong: an option `method` does not take, or
  /// one outside `scope` ("the option '--output' is not accepted"), or a bad value.
  std::string read_arguments(Method method, SettingScope scope, const std::vector<std::string>& arguments);

  /// The same value of every setting, given or by default.
  bool operator==(const Settings& other) const;
  bool operator!=(const Settings& other) const { return !(*this == other); }

 private:
  template <class T>
  struct is_optional : std::false_type {};
  template <class T>
  struct is_optional<std::optional<T>> : std::true_type {};

  template <class T>
  static T convert(const SettingValue& value) {
    if constexpr (std::is_same_v<T, int>) {
      return static_cast<int>(std::get<int64_t>(value));
    } else if constexpr (std::is_same_v<T, int64_t>) {
      return std::get<int64_t>(value);
    } else {
      return std::get<T>(value);
    }
  }
  template <class T>
  static SettingValue to_value(const T& value) {
    if constexpr (std::is_same_v<T, int>) {
      return static_cast<int64_t>(value);
    } else {
      return SettingValue(value);
    }
  }

  std::map<const SettingDescriptor*, SettingValue> values_;
};

}  // namespace variate::services
