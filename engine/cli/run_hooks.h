#pragma once
/// What a program that runs `sample` or `fit` in-process (a worker's job) hands the run:
/// streams for its messages, observers that see the run besides its outputs, a stop flag,
/// and what it learns once the model is bound. A command run from the command line has
/// none of these (RunHooks{}).

#include <atomic>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "engine/mcmc/sample.h"
#include "engine/vi/advi.h"
#include "engine/vi/advi_observer.h"

namespace variate::cli {

/// What a run decided when it started: the outputs record it.
struct RunFacts {
  std::string backend;  // "tape" or "torch"
  int ranks = 1;
  uint64_t seed = 0;
  std::string device = "cpu";
};

struct RunHooks {
  std::ostream* out = &std::cout;  // the summary
  std::ostream* err = &std::cerr;  // notes, progress and errors
  SampleObserver* sample_observer = nullptr;
  AdviObserver* advi_observer = nullptr;
  const std::atomic<bool>* stop = nullptr;  // ends the run early, keeping its draws
  std::function<void(const RunFacts&)> started;  // before the first draw
  std::function<void(const AdviFit&)> fitted;    // after ADVI, before the output draws
  /// Whether this process writes the run's outputs (CSV, summary, output draws). A
  /// worker's job does not: its client does, from the events; the job keeps its draws in
  /// its project (--project) and its events.
  bool writes_outputs = true;
  /// The command line of the ranks --nproc starts (argv[0] first); empty: this process's.
  std::vector<std::string> rank_arguments;
};

}  // namespace variate::cli
