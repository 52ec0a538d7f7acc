// Built as a file of the core layer (tests/CMakeLists.txt), it includes a header of the
// store layer above it: it must not compile, because a layer sees only its own headers and
// those of the layers below it. The test engine_wrong_way_include_fails builds it.

#include "engine/core/shape.h"
#include "engine/store/project.h"
