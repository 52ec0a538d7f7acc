#include "engine/io/line_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "engine/core/checks.h"

namespace variate::io {

LineFile::LineFile(const std::string& path, const char* function)
    : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (!file_) {
    throw ArgumentError(std::string(function) + ": cannot open '" + path +
                        "' for writing: " + std::strerror(errno));
  }
}

void LineFile::line(const std::string& text) {
  if (!file_) throw std::runtime_error(path_ + ": write failed: the file is closed");
  // One fwrite per line, then a flush: the operating system has every finished line
  // even if the process dies right after.
  std::string buffer = text;
  buffer += '\n';
  if (std::fwrite(buffer.data(), 1, buffer.size(), file_.get()) != buffer.size() ||
      std::fflush(file_.get()) != 0) {
    throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  }
}

void LineFile::close() {
  if (!file_) return;
  std::FILE* file = file_.release();
  if (std::fclose(file) != 0) {
    throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  }
}

}  // namespace variate::io
