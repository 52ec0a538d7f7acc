// CmdStan JSON data, read with nlohmann::json's SAX interface: each variable's numbers go
// straight into a NumberColumn, so a file of several GB costs about 8 bytes per number
// (its tensors) rather than a document tree ten times that, and a file is read in
// chunks rather than whole.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"
#include "engine/io/idx_file.h"
#include "engine/io/number_column.h"
#include "engine/io/text_position.h"

namespace variate::io {
namespace {

using json = nlohmann::json;

std::optional<double> special_number(const std::string& s) {
  const double inf = std::numeric_limits<double>::infinity();
  if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Inf" || s == "inf" || s == "Infinity" || s == "+Inf" || s == "+Infinity") return inf;
  if (s == "-Inf" || s == "-inf" || s == "-Infinity") return -inf;
  return std::nullopt;
}

// `{"idx_images": "train-images-idx3-ubyte.gz", "limit": 1000}`: images [n, rows * cols]
// scaled to [0, 1]; `{"idx_labels": ...}`: labels [n]. Paths are relative to the JSON file.
at::Tensor idx_value(const json& node, const std::string& name, const std::string& file_name) {
  const std::string where = file_name + ": '" + name + "': ";
  const bool images = node.contains("idx_images");
  if (images == node.contains("idx_labels") || !node[images ? "idx_images" : "idx_labels"].is_string()) {
    throw ArgumentError(where + "an object names an IDX file, as {\"idx_images\": \"t10k-images-idx3-ubyte.gz\"} "
                        "or {\"idx_labels\": \"t10k-labels-idx1-ubyte.gz\"}");
  }
  std::optional<int64_t> limit;
  for (const auto& [key, value] : node.items()) {
    if (key == "limit" && value.is_number_integer() && value.get<int64_t>() >= 0) {
      limit = value.get<int64_t>();
    } else if (key != "idx_images" && key != "idx_labels") {
      throw ArgumentError(where + "unknown key '" + key + "' (an IDX value takes idx_images or idx_labels, "
                          "and limit: a count of items)");
    }
  }
  std::filesystem::path path = node[images ? "idx_images" : "idx_labels"].get<std::string>();
  if (path.is_relative()) path = std::filesystem::path(file_name).parent_path() / path;
  const at::Tensor bytes = read_idx_bytes(path.string(), limit);
  if (!images) return bytes.to(at::kLong);
  if (bytes.dim() != 3) {
    throw ArgumentError(where + path.string() + " holds " + std::to_string(bytes.dim()) +
                        "-dimensional items, not images (idx3)");
  }
  return bytes.reshape({bytes.size(0), bytes.size(1) * bytes.size(2)}).to(at::kDouble) / 255.0;
}

// Builds Data from the parser's events. The document is one object; each of its values is
// a number, a string naming a special number, nested rectangular lists of those, or an
// object naming an IDX file.
class DataReader {
 public:
  /// `locate` turns a byte offset into "line:column"; `offset` is how many bytes the parser
  /// has read (at an event, the end of the token it reports).
  DataReader(std::string file_name, std::function<std::string(size_t)> locate, std::function<size_t()> offset)
      : file_name_(std::move(file_name)), where_(file_name_ + ": "), locate_(std::move(locate)),
        offset_(std::move(offset)) {}

  Data take() { return std::move(data_); }

  // nlohmann's SAX interface (json::sax_parse).
  bool null() { return scalar_error("null", ""); }
  bool boolean(bool value) {
    if (depth() == 0) return not_an_object("boolean");
    if (in_idx_object()) return idx_entry(value);
    // CmdStan reads no booleans: one taken as 1 or 0 would hide a mistaken file.
    const char* literal = value ? "true" : "false";
    throw ArgumentError(file_name_ + ":" + locate_(token_start(std::strlen(literal))) + ": data variable '" + name_ +
                        "' must hold numbers, got the boolean " + literal + " (write " + (value ? "1" : "0") + ")");
  }
  bool number_integer(json::number_integer_t value) {
    return in_idx_object() ? idx_entry(value) : number(Value{value, 0, true});
  }
  bool number_unsigned(json::number_unsigned_t value) {
    if (in_idx_object()) return idx_entry(value);
    // Beyond int64 the value stays real: converting it to int64 would be undefined.
    if (value <= uint64_t(std::numeric_limits<int64_t>::max())) return number(Value{static_cast<int64_t>(value), 0, true});
    return number(Value{0, static_cast<double>(value), false});
  }
  bool number_float(json::number_float_t value, const std::string&) {
    // A number written as a real ("1.0") stays real.
    return in_idx_object() ? idx_entry(value) : number(Value{0, value, false});
  }
  bool string(std::string& value) {
    if (in_idx_object()) return idx_entry(value);
    if (const auto special = special_number(value)) return number(Value{0, *special, false});
    return scalar_error("string", " \"" + value + "\"");
  }
  bool binary(json::binary_t&) { return scalar_error("binary", ""); }
  bool key(std::string& key) {
    if (depth() == 1) {
      // A JSON object's repeated name would otherwise keep its last value without a word.
      const size_t at = token_start(key.size() + 2);
      const auto [first, inserted] = key_offsets_.emplace(key, at);
      if (!inserted) {
        throw ArgumentError(file_name_ + ":" + locate_(at) + ": data variable '" + key + "' is given twice (first at " +
                            locate_(first->second) + "); keep one");
      }
      name_ = key;
    } else {
      idx_key_ = key;
    }
    return true;
  }
  bool start_object(std::size_t) {
    if (depth() == 0) {
      containers_.push_back(Container::object);
      return true;
    }
    if (depth() == 1) {  // a variable's value is an object: it names an IDX file
      containers_.push_back(Container::idx);
      idx_ = json::object();
      return true;
    }
    if (in_idx_object()) throw ArgumentError(where_ + "'" + name_ + "': " + idx_hint());
    throw ArgumentError(where_ + "data variable '" + name_ + "' must hold numbers, got object");
  }
  bool end_object() {
    const Container closed = containers_.back();
    containers_.pop_back();
    if (closed == Container::idx) data_.set(name_, idx_value(idx_, name_, file_name_));
    return true;
  }
  bool start_array(std::size_t) {
    if (depth() == 0) return not_an_object("array");
    if (in_idx_object()) throw ArgumentError(where_ + "'" + name_ + "': " + idx_hint());
    const size_t d = list_depth();
    if (d == 0) start_variable();
    if (d > 0) ++counts_.back();
    if (d == shape_.size()) {
      if (d > 0 && column_.size() > 0) {
        throw ArgumentError(where_ + "data variable '" + name_ + "' mixes numbers and lists at the same depth");
      }
      shape_.push_back(-1);  // its length is known when it closes
    }
    counts_.push_back(0);
    containers_.push_back(Container::list);
    return true;
  }
  bool end_array() {
    const size_t d = counts_.size() - 1;
    const int64_t length = counts_.back();
    counts_.pop_back();
    containers_.pop_back();
    if (shape_[d] < 0) {
      shape_[d] = length;
    } else if (shape_[d] != length) {
      throw ArgumentError(where_ + "data variable '" + name_ + "' is a ragged array: lists at depth " +
                          std::to_string(d + 1) + " have different lengths (" + std::to_string(shape_[d]) +
                          " and " + std::to_string(length) + ")");
    }
    if (d == 0) finish_variable();
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) {
    const std::string reason = e.what();
    if (e.id == 406) {
      // "number overflow parsing '1e999'": the token just read is the number.
      const size_t start = position >= last_token.size() ? position - last_token.size() : 0;
      throw ArgumentError(file_name_ + ":" + locate_(start) + ": the number " + last_token +
                          " is beyond the range of a double");
    }
    // nlohmann counts the bytes read; users need the line:column of the last one.
    const auto syntax = reason.find("syntax error");
    throw ArgumentError(file_name_ + ":" + locate_(position > 0 ? position - 1 : 0) + ": malformed JSON: " +
                        (syntax == std::string::npos ? reason : reason.substr(syntax)));
  }

 private:
  enum class Container { object, idx, list };

  size_t depth() const { return containers_.size(); }
  // Where the token of `length` bytes the parser just read begins.
  size_t token_start(size_t length) const {
    const size_t end = offset_();
    return end >= length ? end - length : 0;
  }
  size_t list_depth() const { return counts_.size(); }
  bool in_idx_object() const { return !containers_.empty() && containers_.back() == Container::idx; }
  static std::string idx_hint() {
    return "an object names an IDX file, as {\"idx_images\": \"t10k-images-idx3-ubyte.gz\"} "
           "or {\"idx_labels\": \"t10k-labels-idx1-ubyte.gz\"}";
  }

  bool not_an_object(const std::string& type) {
    throw ArgumentError(where_ + "JSON data must be an object of named values, got " + type);
  }

  void start_variable() {
    column_ = NumberColumn();
    shape_.clear();
    counts_.clear();
  }
  void finish_variable() { data_.set(name_, column_.take(shape_)); }

  struct Value {
    int64_t integer;
    double real;
    bool is_integer;
  };
  bool number(const Value& value) {
    if (depth() == 0) return not_an_object("number");
    const size_t d = list_depth();
    if (d == 0) {  // a scalar value
      start_variable();
      push(value);
      finish_variable();
      return true;
    }
    ++counts_.back();
    if (d != shape_.size()) {
      throw ArgumentError(where_ + "data variable '" + name_ +
                          "' is a ragged array: a number where a list was expected");
    }
    push(value);
    return true;
  }
  void push(const Value& value) {
    if (value.is_integer) {
      column_.push_integer(value.integer);
    } else {
      column_.push_real(value.real);
    }
  }
  template <typename Entry>
  bool idx_entry(const Entry& value) {
    idx_[idx_key_] = value;
    return true;
  }
  bool scalar_error(const std::string& type, const std::string& shown) {
    if (depth() == 0) return not_an_object(type);
    if (in_idx_object()) {
      idx_[idx_key_] = nullptr;  // not a path nor a limit: idx_value names the key
      return true;
    }
    throw ArgumentError(where_ + "data variable '" + name_ + "' must hold numbers, got " + type + shown);
  }

  std::string file_name_;
  std::string where_;
  std::function<std::string(size_t)> locate_;
  std::function<size_t()> offset_;
  std::unordered_map<std::string, size_t> key_offsets_;  // each variable's name, where it was read
  Data data_;
  std::vector<Container> containers_;
  std::string name_;  // the variable being read
  NumberColumn column_;
  std::vector<int64_t> shape_;   // lengths by depth; -1 until the first list there closes
  std::vector<int64_t> counts_;  // elements so far of each open list
  json idx_;                     // the keys of an IDX object
  std::string idx_key_;
};

// The bytes of a file, read in chunks, as the input iterator nlohmann's parser takes.
class FileBytes {
 public:
  explicit FileBytes(const std::string& path) : file_(std::fopen(path.c_str(), "rb"), &std::fclose) {
    if (!file_) throw ArgumentError(path + ": cannot open file");
    refill();
  }
  bool at_end() const { return next_ == end_; }
  char current() const { return buffer_[next_]; }
  void advance() {
    ++offset_;
    if (++next_ == end_) refill();
  }
  size_t offset() const { return offset_; }
  /// "line:column" of a byte offset, counted over the file from its start.
  static std::string locate(const std::string& path, size_t offset) {
    FileBytes bytes(path);
    size_t line = 1;
    size_t column = 1;
    for (size_t i = 0; i < offset && !bytes.at_end(); ++i, bytes.advance()) {
      if (bytes.current() == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return std::to_string(line) + ":" + std::to_string(column);
  }


 private:
  void refill() {
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
    next_ = 0;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::vector<char> buffer_ = std::vector<char>(size_t{1} << 20);
  size_t next_ = 0;
  size_t end_ = 0;
  size_t offset_ = 0;
};

// A string's bytes, as the parser's input iterator, counting those read.
class TextBytes {
 public:
  explicit TextBytes(const std::string& text) : text_(text) {}
  bool at_end() const { return offset_ == text_.size(); }
  char current() const { return text_[offset_]; }
  void advance() { ++offset_; }
  size_t offset() const { return offset_; }

 private:
  const std::string& text_;
  size_t offset_ = 0;
};

// Bytes as the input iterator nlohmann's parser takes (it reads one at a time).
template <typename Bytes>
class ByteIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;
  explicit ByteIterator(Bytes* bytes) : bytes_(bytes) {}
  char operator*() const { return bytes_->current(); }
  ByteIterator& operator++() {
    bytes_->advance();
    return *this;
  }
  // Only comparisons with the end are made: equal when both are at the end.
  bool operator==(const ByteIterator& other) const { return done() == other.done(); }
  bool operator!=(const ByteIterator& other) const { return !(*this == other); }

 private:
  bool done() const { return !bytes_ || bytes_->at_end(); }
  Bytes* bytes_;
};

}  // namespace

Data parse_json_data(const std::string& text, const std::string& file_name) {
  TextBytes bytes(text);
  DataReader reader(file_name, [&text](size_t offset) { return line_column(text, offset); },
                    [&bytes] { return bytes.offset(); });
  json::sax_parse(ByteIterator<TextBytes>(&bytes), ByteIterator<TextBytes>(nullptr), &reader);
  return reader.take();
}

Data read_json_data_file(const std::string& path) {
  FileBytes bytes(path);
  DataReader reader(path, [&path](size_t offset) { return FileBytes::locate(path, offset); },
                    [&bytes] { return bytes.offset(); });
  json::sax_parse(ByteIterator<FileBytes>(&bytes), ByteIterator<FileBytes>(nullptr), &reader);
  return reader.take();
}

}  // namespace variate::io
