#pragma once
/// An output stream that hands each complete line to a function (a job's messages become
/// LogLine events); thread-safe, as the chains' progress may come from several threads.

#include <functional>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>

namespace variate::remote {

class LineStream : public std::ostream {
 public:
  explicit LineStream(std::function<void(const std::string&)> line) : std::ostream(&buffer_), buffer_(std::move(line)) {}
  /// Hands over a last line without its newline.
  ~LineStream() override { buffer_.flush_rest(); }

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::function<void(const std::string&)> line) : line_(std::move(line)) {}
    void flush_rest() {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!pending_.empty()) line_(pending_);
      pending_.clear();
    }

   protected:
    int_type overflow(int_type c) override {
      if (c == traits_type::eof()) return traits_type::not_eof(c);
      std::lock_guard<std::mutex> lock(mutex_);
      add(static_cast<char>(c));
      return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::streamsize i = 0; i < n; ++i) add(s[i]);
      return n;
    }

   private:
    void add(char c) {
      if (c != '\n') {
        pending_ += c;
        return;
      }
      line_(pending_);
      pending_.clear();
    }
    std::function<void(const std::string&)> line_;
    std::mutex mutex_;
    std::string pending_;
  };
  Buffer buffer_;
};

}  // namespace variate::remote
