#pragma once
// Reference draw sets and R's diagnostics for them (tests/data/diagnostics, written by
// generate.R there with rstan 2.21): loading and comparison helpers shared by the suites.

#include <QtCore/QFile>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QTextStream>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/diagnostics/draws.h"

namespace variate::testing {

inline QString diagnostics_data_folder() {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/diagnostics/");
}

inline double parse_r_number(const QString& text) {
  if (text == "NA" || text == "NaN") return std::nan("");
  bool ok = false;
  const double value = text.toDouble(&ok);
  return ok ? value : std::nan("");
}

inline QStringList read_lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
  QStringList lines;
  QTextStream in(&file);
  while (!in.atEnd()) {
    const QString line = in.readLine().trimmed();
    if (!line.isEmpty()) lines << line;
  }
  return lines;
}

/// <name>.csv: a header, then one row per iteration and one column per chain.
inline diagnostics::Draws read_reference_draws(const QString& name) {
  const QStringList lines = read_lines(diagnostics_data_folder() + name + ".csv");
  if (lines.isEmpty()) return {};
  const auto chains = static_cast<std::size_t>(lines.front().split(',').size());
  diagnostics::Draws draws(chains);
  for (qsizetype row = 1; row < lines.size(); ++row) {
    const QStringList cells = lines[row].split(',');
    for (std::size_t c = 0; c < chains; ++c) {
      draws[c].push_back(parse_r_number(cells.value(static_cast<qsizetype>(c))));
    }
  }
  return draws;
}

/// expected.csv: one row per set, one column per quantity R computed.
inline std::map<QString, std::map<QString, double>> read_reference_expected() {
  const QStringList lines = read_lines(diagnostics_data_folder() + "expected.csv");
  std::map<QString, std::map<QString, double>> table;
  if (lines.isEmpty()) return table;
  const QStringList header = lines.front().split(',');
  for (qsizetype row = 1; row < lines.size(); ++row) {
    const QStringList cells = lines[row].split(',');
    for (qsizetype k = 1; k < header.size(); ++k) {
      table[cells[0]][header[k]] = parse_r_number(cells.value(k));
    }
  }
  return table;
}

/// The names of the reference sets, in expected.csv's order.
inline QStringList reference_set_names() {
  QStringList names;
  const QStringList lines = read_lines(diagnostics_data_folder() + "expected.csv");
  for (qsizetype row = 1; row < lines.size(); ++row) names << lines[row].section(',', 0, 0);
  return names;
}

/// Empty when `got` matches `expected` to `relative` (NaN matches NaN, R's NA);
/// otherwise a message naming `what`.
inline std::string compare_to_reference(const QString& what, double got, double expected,
                                        double relative = 1e-6) {
  const bool both_nan = std::isnan(got) && std::isnan(expected);
  const bool close = std::abs(got - expected) <= relative * std::abs(expected) + 1e-13;
  if (both_nan || close) return {};
  return QString("%1: got %2, R gives %3")
      .arg(what)
      .arg(got, 0, 'g', 17)
      .arg(expected, 0, 'g', 17)
      .toStdString();
}

}  // namespace variate::testing
