#include "engine/tape/compiler/backend.h"

namespace variate::tape {

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::tape: return "tape";
    case Backend::torch: return "torch";
  }
  return "auto";
}

std::optional<Backend> parse_backend(const std::string& name) {
  for (Backend b : {Backend::automatic, Backend::tape, Backend::torch}) {
    if (name == backend_name(b)) return b;
  }
  return std::nullopt;
}

}  // namespace variate::tape
