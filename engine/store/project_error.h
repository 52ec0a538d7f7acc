#pragma once
/// The error a project file raises: unreadable, corrupt, not a Variate project, written by
/// a newer Variate, or a failed read or write. The message starts with "project 'PATH': ".

#include <stdexcept>
#include <string>

namespace variate::store {

class ProjectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace variate::store
