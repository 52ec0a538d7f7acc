#pragma once
/// A run setting, described once: its name, kind, default, range, unit, help and the
/// methods that take it (CmdStan's argument classes, arg_*.hpp, as data). The command
/// line's flags, the stored run configuration, the studio's Run panel rows, the options a
/// worker accepts and the arguments a run's other ranks get are all made from these
/// descriptions; setting_table.cpp holds every one of them.
///
///   settings.get(setting::max_depth)              // 10 unless set
///   settings.set(setting::max_depth, 5)           // @throws ArgumentError outside 1..30
///   setting::max_depth.descriptor().flag()        // "--max-depth"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/services/method.h"

namespace variate::services {

enum class SettingKind {
  integer,   ///< a whole number in [min, max]
  real,      ///< a number in [min, max]
  flag,      ///< on or off: `--NAME` turns on one that is off by default, `--no-NAME` the reverse
  tristate,  ///< "auto", "on" or "off": `--NAME` and `--no-NAME` choose on and off
  choice,    ///< one of `choices`
  text,      ///< free text: an address, a file, a radius or a word (its check says which)
  seed,      ///< an unsigned 64-bit integer
  device,    ///< "cpu", "cuda" or "cuda:N"
};

/// What a setting's value is kept as.
using SettingValue = std::variant<bool, int64_t, uint64_t, double, std::string>;

/// Where a setting goes beyond the command line, the stored configuration and the
/// methods' code, which every setting reaches.
enum SettingScope : unsigned {
  kInRunPanel = 1u << 0,      ///< a row of the studio's Run panel made from this description
  kSharedByRanks = 1u << 1,   ///< given to the other ranks of a run on several processes
  kAcceptedByWorker = 1u << 2,  ///< an option a worker's job may be given
};

class SettingDescriptor {
 public:
  /// `name` is the stored configuration's key and, with '-' for '_', the command line's
  /// flag (`--max-depth`) unless `flag` names another.
  std::string name;
  SettingKind kind = SettingKind::integer;
  /// The value when none is given; none: the setting has no value unless one is given,
  /// and `none_means` says what that does ("drawn at random", "off").
  std::optional<SettingValue> default_value;
  std::string none_means;
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  /// The lower bound excluded (a step size > 0).
  bool min_excluded = false;
  std::vector<std::string> choices;  ///< of a choice
  std::string unit;   ///< "iterations", "draws per chain", "seconds"; empty for none
  std::string label;  ///< the Run panel's row: "Max tree depth"
  std::string help;   ///< one or two sentences: the flag's help and the row's tooltip
  Methods methods;
  unsigned scopes = 0;
  std::string flag_name;  ///< the flag when it is not the name's (`--method` for ADVI's family)
  /// Keys older stored configurations used for it ("iterations" for ADVI's iter).
  std::vector<std::string> legacy_keys;
  /// CmdStan's (and cmdstanr's, CmdStanPy's) names of the same setting, accepted on the
  /// command line as they are spelt there: `--num_samples` for `--draws`.
  std::vector<std::string> stan_names;
  /// A check beyond the kind's, for text: "" or what is wrong with the text.
  std::string (*check)(const std::string& text) = nullptr;

  /// "--max-depth".
  std::string flag() const;
  /// "--no-psis-resample": the flag that turns a flag or tristate off.
  std::string negative_flag() const;
  bool has(SettingScope scope) const { return (scopes & scope) != 0; }

  /// The value `text` gives ("1e-3", "dense", "on"), checked against the kind, range and
  /// check. @throws ArgumentError naming the setting, the text and what it must be.
  SettingValue parse(const std::string& text) const;
  /// `value` checked as parse() checks text. @throws ArgumentError as parse.
  SettingValue checked(SettingValue value) const;
  /// The text parse() reads back to `value` (doubles exact).
  std::string format(const SettingValue& value) const;
  /// The default as text, or none_means.
  std::string default_text() const;
  /// The help with the unit and the default: the flag's help and the Run panel row's
  /// tooltip.
  std::string full_help() const;
};

/// A typed handle on a description: what code that uses a setting names.
template <class T>
class Setting {
 public:
  using value_type = T;
  explicit Setting(const SettingDescriptor& descriptor) : descriptor_(&descriptor) {}
  const SettingDescriptor& descriptor() const { return *descriptor_; }

 private:
  const SettingDescriptor* descriptor_;
};

}  // namespace variate::services
