#pragma once
/// SHA-256 of a data set, in lower-case hex: how the worker names what it holds, so a
/// resubmission of the same data skips the upload.

#include <string>

namespace variate::remote {

std::string sha256_hex(const std::string& bytes);

/// Whether `text` is 64 lower-case hex digits (a name safe for a file).
bool is_sha256_hex(const std::string& text);

}  // namespace variate::remote
