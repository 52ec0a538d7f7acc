#pragma once
/// How a run shares the machine's cores between chain threads and LibTorch's intra-op
/// threads, so that chain threads x intra-op threads <= cores (oversubscribed OpenMP
/// threads spin and wait for each other at every parallel region), and a scope that sets
/// both LibTorch's and OpenBLAS's thread counts (LibTorch does not set OpenBLAS's).
///
///   const ThreadPlan plan = plan_threads(4, 0, false);   // 2 cores: 2 chain threads x 1
///   IntraOpThreads scope(plan.intra_op_threads);

namespace variate {

struct ThreadPlan {
  int chain_threads = 1;
  int intra_op_threads = 1;
};

/// The number of hardware threads (at least 1).
int hardware_threads();

/// The cores the runs this thread starts may use: hardware_threads(), or fewer inside a
/// CoreLimit.
int available_cores();

/// While in scope, the runs this thread starts plan their threads for at most `cores`
/// cores (an SBC replication's fit gets one: the cores go to the replications).
class CoreLimit {
 public:
  explicit CoreLimit(int cores);
  ~CoreLimit();
  CoreLimit(const CoreLimit&) = delete;
  CoreLimit& operator=(const CoreLimit&) = delete;

 private:
  int previous_;
};

/// For `chains` chains on at most `max_threads` chain threads (0: one per available core). Batched
/// chains need a thread per chain, but only one evaluation runs at a time, so it gets
/// every core; otherwise the cores left over by the chain threads go to intra-op threads.
/// @throws ArgumentError if chains < 1 or max_threads < 0.
ThreadPlan plan_threads(int chains, int max_threads, bool batched_chains);

/// Sets LibTorch's intra-op thread count, and OpenBLAS's when the process uses OpenBLAS,
/// for the scope; restores both afterwards. Threads started inside the scope inherit the
/// LibTorch count when they first run a parallel operation.
class IntraOpThreads {
 public:
  explicit IntraOpThreads(int threads);
  ~IntraOpThreads();
  IntraOpThreads(const IntraOpThreads&) = delete;
  IntraOpThreads& operator=(const IntraOpThreads&) = delete;

 private:
  int previous_torch_;
  int previous_blas_;
};

/// OpenBLAS's thread count, or 0 when the process has not loaded OpenBLAS (LibTorch on
/// Debian uses the system libblas.so.3, OpenBLAS once libopenblas0-pthread is installed).
int openblas_threads();

}  // namespace variate
