#pragma once
/// What a run decided when it started, and the job of a run on a worker: the run's record
/// keeps them (run_config.h). Plain values: the studio's documents include this.

#include <cstdint>
#include <string>
#include <vector>

namespace variate::services {

/// Where a run's density is evaluated, on how many processes, with which seed.
struct RunFacts {
  std::string backend;  ///< "tape" or "torch"; empty for a training
  int ranks = 1;
  uint64_t seed = 0;
  std::string device = "cpu";
  std::string backend_note;  ///< why the density runs on LibTorch where the tape was asked for
  /// Warmup iterations per chain that `--reparam auto`'s pilot took (reparam_pilot.h): the
  /// first part of warmup, before the chains' recorded rows; 0 without one.
  int reparam_pilot = 0;
};

/// The job of a run on a worker: its id, and for a continued run the rows each chain had
/// before it (the job's iterations follow them).
struct JobRef {
  std::string id;
  std::vector<int> offsets;
};

}  // namespace variate::services
