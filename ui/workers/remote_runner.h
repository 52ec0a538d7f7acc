#pragma once
/// The studio's client of remote workers for its runs (engine/remote's WorkerInference),
/// or none in a studio built without gRPC.
/// (Engine-side header: include it from the ATen-seeing ui folders only.)

#include "engine/services/remote_runner.h"

namespace variate::ui {

/// One for the studio's lifetime; null without gRPC (a run on a worker then fails saying
/// so).
services::RemoteRunner* remoteRunner();

}  // namespace variate::ui
