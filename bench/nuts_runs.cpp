#include "nuts_runs.h"

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <ATen/Parallel.h>

#include "timing.h"

namespace variate::bench {
namespace {

// sample_nuts chooses chain threads and intra-op threads itself: this records what the
// chains actually ran with, and their CPU time. A thread runs its chains one after the
// other, so a chain's CPU time is its thread's since the previous chain on it finished
// (threads sample_nuts starts begin at zero; the calling thread at its time now).
class ThreadObserver : public SampleObserver {
 public:
  ThreadObserver() { cpu_at_last_finish_[std::this_thread::get_id()] = thread_cpu_seconds(); }
  void on_adapted(int, double, const std::vector<double>&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.insert(std::this_thread::get_id());
    intra_op = at::get_num_threads();
  }
  void on_chain_finished(const ChainResult&) override {
    const double now = thread_cpu_seconds();
    std::lock_guard<std::mutex> lock(mutex_);
    double& last = cpu_at_last_finish_[std::this_thread::get_id()];  // 0 for a new thread
    cpu_s += now - last;
    last = now;
  }
  int chain_threads() const { return static_cast<int>(threads_.size()); }
  int intra_op = 0;
  double cpu_s = 0;

 private:
  std::mutex mutex_;
  std::set<std::thread::id> threads_;
  std::map<std::thread::id, double> cpu_at_last_finish_;
};

}  // namespace

NutsFigures run_nuts(const UnconstrainedTarget& target, const NutsOptions& options) {
  ThreadObserver observer;
  const double start = now_seconds();
  NutsFigures f;
  f.chains = sample_nuts(target, options, &observer);
  f.wall_s = now_seconds() - start;
  for (const ChainResult& chain : f.chains) {
    for (size_t i = 0; i < chain.stats.size(); ++i) {
      f.leapfrog += chain.stats[i].leapfrog_steps;
      if (static_cast<int>(i) >= chain.warmup_iterations) f.divergent += chain.stats[i].has_divergence ? 1 : 0;
    }
    f.step_size += chain.step_size / static_cast<double>(f.chains.size());
  }
  f.chain_threads = observer.chain_threads();
  f.intra_op_threads = observer.intra_op;
  f.cpu_s = observer.cpu_s;
  if (f.leapfrog > 0) f.ms_per_leapfrog = 1000.0 * f.wall_s / static_cast<double>(f.leapfrog);
  return f;
}

}  // namespace variate::bench
