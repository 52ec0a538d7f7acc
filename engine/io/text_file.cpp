#include "engine/io/text_file.h"

#include <fstream>
#include <sstream>

#include "engine/core/argument_error.h"

namespace variate::io {

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ArgumentError(path + ": cannot open file");
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw ArgumentError(path + ": cannot read file");
  return content.str();
}

}  // namespace variate::io
