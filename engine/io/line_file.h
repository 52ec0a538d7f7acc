#pragma once
/// A text file written line by line and flushed after every line, or after every group of
/// lines that arrive together, so a run that is killed keeps every line it wrote (the CSV
/// writers stream draws through it).

#include <cstdio>
#include <memory>
#include <string>

namespace variate::io {

class LineFile {
 public:
  /// Creates or truncates `path`.
  /// @throws ArgumentError "function: cannot open 'path' for writing: reason".
  LineFile(const std::string& path, const char* function);

  /// Writes `text` and a newline, then flushes.
  /// @throws std::runtime_error "path: write failed: reason" (disk full, closed file).
  void line(const std::string& text);
  /// Writes `text` and a newline without flushing: for lines that arrive together (a
  /// batch of draws), then flush() once, one system call instead of one per line.
  void buffered_line(const std::string& text);
  /// @throws std::runtime_error "path: write failed: reason".
  void flush();
  /// "# " + text, as CmdStan writes comments (an empty text gives "# ").
  void comment(const std::string& text) { line("# " + text); }
  /// Closes the file; later writes throw. Closing twice does nothing.
  void close();

  const std::string& path() const { return path_; }

 private:
  struct Closer {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::string path_;
  std::unique_ptr<std::FILE, Closer> file_;
};

}  // namespace variate::io
