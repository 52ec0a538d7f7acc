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
  buffered_line(text);
  flush();
}

void LineFile::buffered_line(const std::string& text) {
  if (!file_) throw std::runtime_error(path_ + ": write failed: the file is closed");
  if (std::fwrite(text.data(), 1, text.size(), file_.get()) != text.size() || std::fputc('\n', file_.get()) == EOF) {
    throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  }
}

// The operating system has every finished line even if the process dies right after.
void LineFile::flush() {
  if (!file_) throw std::runtime_error(path_ + ": write failed: the file is closed");
  if (std::fflush(file_.get()) != 0) throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
}

void LineFile::close() {
  if (!file_) return;
  std::FILE* file = file_.release();
  if (std::fclose(file) != 0) {
    throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
  }
}

}  // namespace variate::io
