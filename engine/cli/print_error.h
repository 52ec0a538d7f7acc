#pragma once
// How `variate` prints a failure.

#include <exception>
#include <ostream>

namespace variate::cli {

/// "error: ..." unless the message is a compiler's report (services::ReportedError), which
/// is printed as it is.
void print_error(std::ostream& err, const std::exception& error);

}  // namespace variate::cli
