#pragma once
/// What a run that several processes make together throws when one of them cannot be
/// reached, disagrees, or cannot join: the message names the processes by rank.

#include <stdexcept>
#include <string>

namespace variate::distributed {

class DistributedError : public std::runtime_error {
 public:
  explicit DistributedError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace variate::distributed
