#include "engine/io/stan_csv_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "engine/core/checks.h"
#include "engine/io/text_file.h"
#include "engine/vi/variational_columns.h"

namespace variate::io {
namespace {

struct Line {
  std::string_view text;  // without the line end
  size_t number;          // 1-based
  bool terminated;        // ended with a newline (a killed writer may leave one that did not)
};

std::vector<Line> split_lines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::vector<Line> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const bool terminated = end != std::string_view::npos;
    std::string_view line = text.substr(start, terminated ? end - start : std::string_view::npos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back({line, lines.size() + 1, terminated});
    start = terminated ? end + 1 : text.size();
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::optional<double> to_double(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (end != s.data() + s.size() || s.empty()) return std::nullopt;
  if (error == std::errc::result_out_of_range) {
    return std::strtod(std::string(s).c_str(), nullptr);  // +-inf or a denormal/zero
  }
  if (error != std::errc()) return std::nullopt;
  return value;
}

bool is_comment(std::string_view line) {
  const std::string_view t = trim(line);
  return !t.empty() && t[0] == '#';
}

// Text after the '#', and its offset in the line.
std::pair<std::string_view, size_t> comment_body(std::string_view line) {
  const size_t hash = line.find('#');
  const size_t start = line.find_first_not_of(" \t", hash + 1);
  if (start == std::string_view::npos) return {{}, line.size()};
  return {trim(line.substr(start)), start};
}

struct Field {
  std::string_view text;
  size_t column;  // 1-based
};

// Comma-separated fields with surrounding spaces removed; one trailing comma is dropped.
std::vector<Field> split_fields(std::string_view line, size_t offset) {
  std::vector<Field> fields;
  size_t start = offset;
  while (true) {
    const size_t comma = line.find(',', start);
    const std::string_view raw =
        line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const size_t lead = std::min(raw.find_first_not_of(" \t"), raw.size());
    fields.push_back({trim(raw), start + lead + 1});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() > 1 && fields.back().text.empty()) fields.pop_back();
  return fields;
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& file) : lines_(split_lines(text)) {
    csv_.file = file;
  }

  StanCsv parse() {
    size_t i = 0;
    for (; i < lines_.size() && !header_found_; ++i) before_header(lines_[i]);
    if (!header_found_) throw ArgumentError(csv_.file + ": no header row");
    for (; i < lines_.size(); ++i) {
      const Line& line = lines_[i];
      if (trim(line.text).empty()) continue;
      if (is_comment(line.text)) {
        after_header_comment(line);
      } else {
        metric_must_be_complete(line.number);
        row(line, i + 1 == lines_.size());
      }
    }
    if (!lines_.empty()) metric_must_be_complete(lines_.back().number + 1);
    split_rows();
    return std::move(csv_);
  }

 private:
  std::string where(size_t line) const { return csv_.file + ":" + std::to_string(line) + ": "; }
  std::string where(size_t line, size_t column) const {
    return csv_.file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  }

  double number(const Field& field, size_t line, const char* what = "a number") const {
    const auto value = to_double(field.text);
    if (!value) {
      throw ArgumentError(where(line, field.column) + "expected " + what + ", got '" +
                          std::string(field.text) + "'");
    }
    return *value;
  }

  std::vector<double> comment_numbers(const Line& line) const {
    const auto [body, offset] = comment_body(line.text);
    std::vector<double> values;
    if (body.empty()) return values;
    for (const Field& field : split_fields(line.text, offset)) {
      values.push_back(number(field, line.number));
    }
    return values;
  }

  // Configuration comments form CmdStan's argument tree: indentation nests a line under
  // the nearest less-indented line without '=' ("sample", "adapt", "hmc", "nuts", ...).
  void before_header(const Line& line) {
    if (trim(line.text).empty()) return;
    if (!is_comment(line.text)) {
      header(line);
      return;
    }
    const auto [body, offset] = comment_body(line.text);
    if (body.empty()) return;
    const size_t indent = offset;
    while (!categories_.empty() && categories_.back().first >= indent) categories_.pop_back();
    std::string path;
    for (const auto& category : categories_) path += category.second + ".";
    const size_t equals = body.find('=');
    if (equals == std::string_view::npos) {
      categories_.emplace_back(indent, std::string(body));
      return;
    }
    std::string_view value = trim(body.substr(equals + 1));
    constexpr std::string_view kDefault = "(Default)";
    if (value.size() >= kDefault.size() &&
        value.substr(value.size() - kDefault.size()) == kDefault) {
      value = trim(value.substr(0, value.size() - kDefault.size()));
    }
    csv_.config[path + std::string(trim(body.substr(0, equals)))] = std::string(value);
  }

  void header(const Line& line) {
    header_found_ = true;
    for (const Field& field : split_fields(line.text, 0)) {
      std::string_view text = field.text;
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        text = text.substr(1, text.size() - 2);  // R's write.csv quotes names
      }
      const std::string name(text);
      if (name.empty()) throw ArgumentError(where(line.number, field.column) + "empty column name");
      if (!csv_.column_positions.emplace(name, csv_.columns.size()).second) {
        throw ArgumentError(where(line.number, field.column) + "column '" + name +
                            "' appears twice");
      }
      csv_.columns.push_back(name);
    }
  }

  void after_header_comment(const Line& line) {
    if (expect_ == Expect::DiagonalMetric) {
      adaptation().inverse_metric = comment_numbers(line);
      expect_ = Expect::Nothing;
      return;
    }
    if (expect_ == Expect::DenseMetric) {
      dense_row(line);
      return;
    }
    if (expect_ == Expect::LowRankMetric) {
      low_rank_row(line);
      return;
    }
    const auto [body, offset] = comment_body(line.text);
    const std::string_view low_rank = kLowRankMetric;
    constexpr std::string_view kStepSize = "Step size =";
    if (body == "Adaptation terminated") {
      adaptation_row_ = rows_.size();
      adaptation();
    } else if (body.substr(0, kStepSize.size()) == kStepSize) {
      const size_t start = offset + kStepSize.size();
      adaptation().step_size = number(split_fields(line.text, start).front(), line.number);
    } else if (body == "Diagonal elements of inverse mass matrix:") {
      adaptation().metric = "diag_e";
      expect_ = Expect::DiagonalMetric;
    } else if (body == "Elements of inverse mass matrix:") {
      adaptation().metric = "dense_e";
      expect_ = Expect::DenseMetric;
      dense_size_ = dense_rows_ = 0;
    } else if (body.substr(0, low_rank.size()) == low_rank) {
      const std::string_view rest = body.substr(low_rank.size());
      const size_t space = std::min(rest.find(' '), rest.size());
      const auto rank = to_double(rest.substr(0, space));
      // At most one eigenvalue a coordinate: a rank beyond any file's (1e9) is refused before
      // it is counted with.
      if (!rank || *rank < 0 || *rank > 1e9 || *rank != std::floor(*rank) || rest.substr(space) != kLowRankMetricEnd) {
        throw ArgumentError(where(line.number) + "expected the number of eigenvalues of a low-rank metric");
      }
      adaptation().metric = "lowrank_e";
      adaptation().inverse_metric.assign(1, *rank);
      expect_ = Expect::LowRankMetric;
      dense_size_ = dense_rows_ = 0;
    } else if (body == "No free parameters for unit metric") {
      adaptation().metric = "unit_e";
    } else if (body.substr(0, 5) == "eta =") {
      csv_.eta = number(split_fields(line.text, offset + 5).front(), line.number);
    } else {
      timing_line(body);
    }
  }

  void dense_row(const Line& line) {
    const auto values = comment_numbers(line);
    auto& metric = adaptation().inverse_metric;
    if (dense_rows_ == 0) dense_size_ = values.size();
    if (values.size() != dense_size_) {
      throw ArgumentError(where(line.number) + "a row of the inverse metric has " +
                          std::to_string(values.size()) + " values, the first has " +
                          std::to_string(dense_size_));
    }
    metric.insert(metric.end(), values.begin(), values.end());
    if (++dense_rows_ >= dense_size_) expect_ = Expect::Nothing;
  }

  // The variances' row, then one row per eigenvalue, each one value longer.
  void low_rank_row(const Line& line) {
    const auto values = comment_numbers(line);
    auto& metric = adaptation().inverse_metric;
    if (dense_rows_ == 0) dense_size_ = values.size();
    if (values.size() != dense_size_ + (dense_rows_ > 0 ? 1 : 0)) {
      throw ArgumentError(where(line.number) + "a row of the low-rank inverse metric has " +
                          std::to_string(values.size()) + " values, expected " +
                          std::to_string(dense_size_ + (dense_rows_ > 0 ? 1 : 0)));
    }
    metric.insert(metric.end(), values.begin(), values.end());
    if (++dense_rows_ > static_cast<size_t>(metric.front())) expect_ = Expect::Nothing;
  }

  void metric_must_be_complete(size_t line) const {
    if (expect_ == Expect::DiagonalMetric) {
      throw ArgumentError(where(line) + "expected a comment line with the diagonal of the "
                          "inverse metric");
    }
    if (expect_ == Expect::LowRankMetric) {
      throw ArgumentError(where(line) + "the low-rank inverse metric ends after " + std::to_string(dense_rows_) +
                          " of its rows");
    }
    if (expect_ == Expect::DenseMetric) {
      throw ArgumentError(where(line) + "the inverse metric ends after " +
                          std::to_string(dense_rows_) + " of " + std::to_string(dense_size_) +
                          " rows");
    }
  }

  // "Elapsed Time: 0.05 seconds (Warm-up)" and "0.1 seconds (Sampling)"; other
  // comments (CmdStan's advice, rstan's notes) are ignored.
  void timing_line(std::string_view body) {
    constexpr std::string_view kElapsed = "Elapsed Time:";
    if (body.substr(0, kElapsed.size()) == kElapsed) body = trim(body.substr(kElapsed.size()));
    const size_t seconds = body.find(" seconds (");
    if (seconds == std::string_view::npos) return;
    const auto value = to_double(trim(body.substr(0, seconds)));
    if (!value) return;
    const std::string_view kind = body.substr(seconds);
    if (kind == " seconds (Warm-up)") {
      if (!csv_.timing) csv_.timing.emplace();
      csv_.timing->warmup_seconds = *value;
    } else if (kind == " seconds (Sampling)") {
      if (!csv_.timing) csv_.timing.emplace();
      csv_.timing->sampling_seconds = *value;
    }
  }

  void row(const Line& line, bool last) {
    try {
      const auto fields = split_fields(line.text, 0);
      if (fields.size() != csv_.columns.size()) {
        throw ArgumentError(where(line.number) + "a row has " + std::to_string(fields.size()) +
                            " fields, the header has " + std::to_string(csv_.columns.size()));
      }
      std::vector<double> values;
      values.reserve(fields.size());
      for (const Field& field : fields) values.push_back(number(field, line.number));
      rows_.push_back(std::move(values));
    } catch (const ArgumentError&) {
      // A writer killed mid-row leaves a last line without its newline: drop that row.
      if (!last || line.terminated) throw;
      csv_.dropped_partial_row = true;
    }
  }

  StanCsvAdaptation& adaptation() {
    if (!csv_.adaptation) csv_.adaptation.emplace();
    return *csv_.adaptation;
  }

  int64_t config_int(const std::string& key, int64_t fallback) const {
    const auto it = csv_.config.find(key);
    if (it == csv_.config.end()) return fallback;
    char* end = nullptr;
    const long long value = std::strtoll(it->second.c_str(), &end, 10);
    return end == it->second.c_str() ? fallback : value;
  }

  void split_rows() {
    const bool variational = starts_with_variational_columns(csv_.columns);
    size_t first_draw = 0;
    if (variational) {
      if (!rows_.empty()) csv_.approximation_mean = std::move(rows_.front());
      first_draw = std::min<size_t>(1, rows_.size());
    } else if (adaptation_row_) {
      first_draw = *adaptation_row_;
    } else {
      const auto save = csv_.config.find("sample.save_warmup");
      if (save != csv_.config.end() && (save->second == "1" || save->second == "true")) {
        const int64_t thin = std::max<int64_t>(1, config_int("sample.thin", 1));
        const int64_t warmup = std::max<int64_t>(0, config_int("sample.num_warmup", 0));
        // ceil(warmup / thin) without warmup + thin - 1, which overflows for a huge count.
        const int64_t saved = warmup / thin + (warmup % thin != 0);
        first_draw = std::min(rows_.size(), static_cast<size_t>(saved));
      }
    }
    const auto split = rows_.begin() + static_cast<std::ptrdiff_t>(first_draw);
    if (!variational) csv_.warmup_draws.assign(std::make_move_iterator(rows_.begin()),
                                               std::make_move_iterator(split));
    csv_.draws.assign(std::make_move_iterator(split), std::make_move_iterator(rows_.end()));
  }

  enum class Expect { Nothing, DiagonalMetric, DenseMetric, LowRankMetric };

  std::vector<Line> lines_;
  StanCsv csv_;
  bool header_found_ = false;
  std::vector<std::pair<size_t, std::string>> categories_;  // (indent, name)
  std::vector<std::vector<double>> rows_;
  std::optional<size_t> adaptation_row_;
  Expect expect_ = Expect::Nothing;
  size_t dense_size_ = 0;
  size_t dense_rows_ = 0;
};

}  // namespace

std::optional<size_t> StanCsv::column_index(const std::string& name) const {
  const auto it = column_positions.find(name);
  if (it == column_positions.end()) return std::nullopt;
  return it->second;
}

std::vector<double> StanCsv::column(const std::string& name) const {
  const auto index = column_index(name);
  if (!index) throw ArgumentError(file + ": no column '" + name + "'");
  std::vector<double> values;
  values.reserve(draws.size());
  for (const auto& row : draws) values.push_back(row[*index]);
  return values;
}

StanCsv parse_stan_csv(const std::string& text, const std::string& file_name) {
  return Parser(text, file_name).parse();
}

StanCsv read_stan_csv(const std::string& path) {
  return parse_stan_csv(read_text_file(path), path);
}

}  // namespace variate::io
