#include "engine/core/version.h"

namespace variate {

// VARIATE_VERSION comes from the build (engine/CMakeLists.txt), for this file alone.
const char* version() { return VARIATE_VERSION; }

}  // namespace variate
