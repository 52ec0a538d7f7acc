#pragma once
/// The failures a service reports. A service never prints: it throws one of these (or an
/// ArgumentError) with the message a front end shows, having recorded the failure with
/// the run where the run exists.

#include <string>

#include "engine/core/argument_error.h"

namespace variate::services {

/// A message complete as it stands (a compiler's located report, its lines and carets):
/// shown as it is, with no "error: " before it.
class ReportedError : public ArgumentError {
 public:
  using ArgumentError::ArgumentError;
};

}  // namespace variate::services
