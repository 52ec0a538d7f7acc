#pragma once
// `loo --project` and `compare --project`, on a project's stored runs: the functions
// loo_command.h's ProjectLoo asks for, on store::Project and services::run_loo.

#include "engine/cli/loo_command.h"

namespace variate::cli {

ProjectLoo project_loo();

}  // namespace variate::cli
