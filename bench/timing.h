#pragma once
/// Wall-clock timing for the benchmarks: a few untimed warm-up calls, then the median of
/// repeated timed calls (the median shrugs off the odd slow call from another process).

#include <functional>
#include <vector>

namespace variate::bench {

struct TimingOptions {
  int warmup = 3;    // untimed calls first: allocator, caches, thread pools
  int repeats = 20;  // timed calls
  /// Time the calling thread's CPU time (thread_cpu_seconds) instead of wall time: on a
  /// machine whose cores other processes share, a call's wall time includes the time its
  /// thread waited for a core. Only for single-threaded calls.
  bool thread_cpu_time = false;
};

/// The median of the finite values; NaN when there are none.
double median_of(std::vector<double> values);

/// Median milliseconds of one call of `f` (wall time, or CPU time: see TimingOptions).
double median_ms(const std::function<void()>& f, const TimingOptions& options);

/// Median milliseconds of one call of each of `fs`, timed in turns (f0, f1, ..., f0, f1,
/// ...) so that a change in the machine's load during the run touches all of them alike.
std::vector<double> median_ms_interleaved(const std::vector<std::function<void()>>& fs,
                                          const TimingOptions& options);

/// Seconds since an arbitrary fixed point, for timing longer runs.
double now_seconds();

/// CPU seconds the calling thread has used since it started (CLOCK_THREAD_CPUTIME_ID):
/// unlike wall time, not inflated when other processes take the core.
double thread_cpu_seconds();

}  // namespace variate::bench
