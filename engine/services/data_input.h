#pragma once
/// The data a run binds its model to: a file (CmdStan JSON, CSV, or JSON naming IDX files)
/// or the CmdStan JSON text of a project's data set, with the name outputs give it.

#include <optional>
#include <string>

#include "engine/core/data.h"

namespace variate::services {

struct DataInput {
  std::optional<std::string> path;  ///< a data file
  std::optional<std::string> json;  ///< or its CmdStan JSON text
  /// How outputs and the project name it: the file as given, or the data set's name.
  std::string name;

  static DataInput none() { return {}; }
  static DataInput file(std::string path) { return {path, std::nullopt, path}; }
  static DataInput text(std::string json, std::string name) { return {std::nullopt, std::move(json), std::move(name)}; }
  /// Values made in memory (simulated data), as their CmdStan JSON.
  static DataInput of(const Data& data, std::string name);

  bool given() const { return path || json; }
  /// @throws ArgumentError naming the file or data set and what is wrong.
  Data read() const;
  /// CmdStan JSON of the data: a JSON file's own text, other formats converted; what a
  /// project stores and what another process is given.
  /// @throws ArgumentError as read.
  std::string json_text() const;
};

}  // namespace variate::services
