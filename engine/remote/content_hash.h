#pragma once
/// SHA-256 of a data set, in lower-case hex: how the worker names what it holds, so a
/// resubmission of the same data skips the upload.

#include <string>

namespace variate::remote {

std::string sha256_hex(const std::string& bytes);

/// The same over bytes that come in pieces (an upload, a file read in chunks).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void add(const std::string& bytes);
  /// The digest of everything added, in lower-case hex.
  std::string hex();

 private:
  struct State;
  State* state_;
};

/// The SHA-256 of the file at `path`, read in chunks.
/// @throws std::runtime_error when it cannot be read.
std::string file_sha256_hex(const std::string& path);

/// Whether `text` is 64 lower-case hex digits (a name safe for a file).
bool is_sha256_hex(const std::string& text);

}  // namespace variate::remote
