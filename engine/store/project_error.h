#pragma once
/// The error a project file raises: unreadable, corrupt, not a Variate project, written by
/// a newer Variate, or a failed read or write. The message starts with "project 'PATH': ".

#include <stdexcept>
#include <string>

namespace variate::store {

class ProjectError : public std::runtime_error {
 public:
  explicit ProjectError(const std::string& message, bool busy = false)
      : std::runtime_error(message), busy_(busy) {}

  /// Another connection held the file's lock past the busy timeout: the same write may
  /// succeed later. Every other failure (a full disk, a file that cannot grow, a damaged
  /// or read-only file) repeats.
  bool busy() const { return busy_; }

 private:
  bool busy_ = false;
};

}  // namespace variate::store
