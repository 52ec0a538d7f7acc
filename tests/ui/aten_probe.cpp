// Made to be caught by tests/ui/aten_free_objects.cmake (the test ui_aten_check_catches_a_probe):
// an engine header that pulls in ATen, included as a ui file outside ui/engine might.

#include "engine/core/checks.h"
