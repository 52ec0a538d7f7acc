#include "engine/cli/print_error.h"

#include "engine/services/run_error.h"

namespace variate::cli {

void print_error(std::ostream& err, const std::exception& error) {
  if (dynamic_cast<const services::ReportedError*>(&error)) {
    err << error.what();
  } else {
    err << "error: " << error.what() << "\n";
  }
}

}  // namespace variate::cli
