#pragma once
/// Reading a whole file: what the data, model and CSV readers start from.

#include <string>

namespace variate::io {

/// The whole file as bytes. @throws ArgumentError naming the path if it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace variate::io
