#pragma once
/// The exception for invalid input a caller can fix, in a header of its own so that plain
/// option and record types (NutsOptions, AdviOptions) need no tensor headers.

#include <stdexcept>

namespace variate {

/// Invalid input a caller can fix: a bad parameter, a wrong shape, a missing value.
class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace variate
