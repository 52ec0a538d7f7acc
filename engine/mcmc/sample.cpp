#include "engine/mcmc/sample.h"

#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <ATen/Parallel.h>

#include "engine/core/memory.h"
#include "engine/core/random_stream.h"
#include "engine/core/threading.h"
#include "engine/mcmc/batched_density.h"
#include "engine/mcmc/initial_step_size.h"
#include "engine/mcmc/warmup.h"

namespace variate {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {  // for batching
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Stan's initialization: uniform(-radius, radius) on the unconstrained scale until the
// log density and its gradient are finite, at most 100 times.
PhasePoint initial_point(const Hamiltonian& hamiltonian, size_t dimension, double radius,
                         RandomStream& random, int chain) {
  PhasePoint point;
  point.q.resize(dimension);
  point.p.assign(dimension, 0.0);
  for (int attempt = 0; attempt < 100; ++attempt) {
    for (auto& x : point.q) x = radius * (2 * random.uniform() - 1);
    hamiltonian.evaluate(point);
    if (std::isfinite(point.log_density)) return point;
  }
  std::ostringstream message;
  message << "chain " << chain + 1
          << ": no initial point with a finite log density and gradient in 100 tries (uniform(-"
          << radius << ", " << radius << ") on the unconstrained scale); check the model and its data";
  throw NoInitialPointError(message.str());
}

// Hands draws to the observer in batches: when `batch_size` are pending or ~100 ms passed.
class BatchedFeed {
 public:
  BatchedFeed(SampleObserver* observer, int chain, int batch_size)
      : observer_(observer), batch_size_(batch_size) {
    batch_.chain = chain;
  }

  void add(const std::vector<double>& q, const NutsResult& stats, int iteration, int warmup) {
    if (!observer_) return;
    if (batch_.positions.empty()) {
      batch_.first_iteration = iteration;
      started_ = Clock::now();
    }
    batch_.warmup_iterations = warmup;
    batch_.positions.push_back(q);
    batch_.stats.push_back(stats);
    if (static_cast<int>(batch_.positions.size()) >= batch_size_ || seconds_since(started_) > 0.1) {
      flush();
    }
  }

  void flush() {
    if (!observer_ || batch_.positions.empty()) return;
    observer_->on_draws(batch_);
    batch_.positions.clear();
    batch_.stats.clear();
  }

 private:
  SampleObserver* observer_;
  int batch_size_;
  DrawBatch batch_;
  Clock::time_point started_;
};

// An iteration of a model without parameters: the point stays; its density is reported.
NutsResult fixed_iteration(const PhasePoint& point) {
  NutsResult stats;
  stats.log_density = point.log_density;
  stats.energy = -point.log_density;
  return stats;
}

ChainResult run_chain(DensityFunction density, size_t d, const NutsOptions& options, int chain,
                      SampleObserver* observer, const std::atomic<bool>* stop, Lockstep* lockstep) {
  const bool resuming = !options.resume_from().empty();
  // Continuations take streams a fresh run never uses, so their draws are not a replay.
  const uint64_t stream = static_cast<uint64_t>(chain) + (resuming ? (uint64_t{1} << 32) : 0);
  RandomStream random = RandomStream::for_chain(options.seed(), stream);
  EuclideanMetric metric(options.metric(), d);
  if (resuming) {
    metric.set_inverse_metric(options.resume_from()[chain].inverse_metric);
  } else if (!options.initial_inverse_metric().empty()) {
    metric.set_inverse_metric(options.initial_inverse_metric());
  }
  Hamiltonian hamiltonian(std::move(density), metric);
  const Nuts nuts(hamiltonian, options.max_tree_depth());

  ChainResult result;
  result.chain = chain;
  result.metric = options.metric();
  PhasePoint point;
  double step_size = 1.0;
  const std::unique_ptr<Warmup> warmup = options.warmup() > 0 ? make_warmup(options, metric, hamiltonian, random,
                                                                            !options.initial_inverse_metric().empty())
                                                              : nullptr;
  // The first step size: searched for (by warmup, which may first set the metric) unless
  // the chain continues an earlier one or has no parameters.
  const auto first_step_size = [&] {
    return warmup ? warmup->start(point, options.step_size())
                  : initial_step_size(hamiltonian, point, options.step_size(), random);
  };
  if (resuming) {
    point.q = options.resume_from()[chain].position;
    point.p.assign(d, 0.0);
    hamiltonian.evaluate(point);
    step_size = options.resume_from()[chain].step_size;
  } else if (!options.initial_positions().empty()) {
    point.q = options.initial_positions()[chain];
    point.p.assign(d, 0.0);
    hamiltonian.evaluate(point);
    if (!std::isfinite(point.log_density)) {
      throw ArgumentError("chain " + std::to_string(chain + 1) +
                          ": the log density or its gradient is not finite at the given initial position");
    }
    step_size = first_step_size();
  } else if (d == 0) {
    // No parameters (Stan's fixed_param): nothing moves; each iteration's derived
    // quantities and predictions are computed from its (empty) draw downstream.
    point.p.clear();
    hamiltonian.evaluate(point);
    step_size = 0;
  } else {
    point = initial_point(hamiltonian, d, options.init_radius(), random, chain);
    step_size = first_step_size();
  }

  BatchedFeed feed(observer, chain, options.batch_size());
  // Warmup takes options.warmup() transitions unless the adaptation ends it sooner.
  int warmup_length = options.warmup();
  std::vector<double> state(d + 1);  // what the lockstep compares: position and step size
  const auto stopped = [&] {
    const bool asked = stop && stop->load(std::memory_order_relaxed);
    if (!lockstep) return asked;
    std::copy(point.q.begin(), point.q.end(), state.begin());
    state[d] = step_size;
    return lockstep->agree(state.data(), state.size(), asked);
  };

  if (options.warmup() == 0 && observer) {
    observer->on_adapted(chain, step_size, metric.inverse_metric());
  }
  const Clock::time_point start = Clock::now();
  Clock::time_point warmup_end = start;  // moves when warmup ends
  for (int iteration = 0; iteration < warmup_length + options.draws() && !stopped(); ++iteration) {
    const bool warming_up = iteration < warmup_length;
    NutsResult stats = d > 0 ? nuts.one_step(point, step_size, random) : fixed_iteration(point);
    if (warming_up && d > 0) {
      const WarmupStep next = warmup->learn(iteration, point, stats);
      step_size = next.step_size;
      if (next.last) warmup_length = iteration + 1;
    }
    if (iteration + 1 == warmup_length) warmup_end = Clock::now();
    result.positions.push_back(point.q);
    result.stats.push_back(stats);
    if (warming_up) result.warmup_iterations = iteration + 1;
    feed.add(point.q, stats, iteration, warmup_length);
    if (iteration + 1 == warmup_length) {
      feed.flush();  // warmup draws reach the observer before the adaptation
      if (observer) observer->on_adapted(chain, step_size, metric.inverse_metric());
    }
  }
  feed.flush();
  const bool warmup_finished = result.warmup_iterations == warmup_length;
  const Clock::time_point end = Clock::now();
  result.seconds_warmup =
      std::chrono::duration<double>((warmup_finished ? warmup_end : end) - start).count();
  result.seconds_sampling =
      warmup_finished ? std::chrono::duration<double>(end - warmup_end).count() : 0.0;
  result.step_size = step_size;
  result.inverse_metric = metric.inverse_metric();
  result.gradient_evaluations = hamiltonian.gradient_evaluations();
  result.stopped_early = static_cast<int>(result.positions.size()) < warmup_length + options.draws();
  if (observer) observer->on_chain_finished(result);
  return result;
}

bool metric_fits(MetricKind kind, const std::vector<double>& entries, size_t d) {
  switch (kind) {
    case MetricKind::diagonal:
      return entries.size() == d;
    case MetricKind::dense:
      return entries.size() == d * d;
    case MetricKind::low_rank:
      return low_rank_dimension(entries) == static_cast<long>(d);
  }
  return false;
}

std::string metric_size_text(MetricKind kind, size_t d) {
  if (kind == MetricKind::low_rank) return "1 + " + std::to_string(d) + " + r * " + std::to_string(d + 1);
  return std::to_string(kind == MetricKind::dense ? d * d : d);
}

void check_initial_positions(const NutsOptions& options, size_t d) {
  const auto& positions = options.initial_positions();
  const auto& inverse_metric = options.initial_inverse_metric();
  const auto fail = [](const std::string& what) { throw ArgumentError("sample_nuts: " + what); };
  if ((!positions.empty() || !inverse_metric.empty()) && !options.resume_from().empty()) {
    fail("initial_positions and initial_inverse_metric do not combine with resume_from");
  }
  if (!positions.empty() && static_cast<int>(positions.size()) != options.chains()) {
    fail("initial_positions has " + std::to_string(positions.size()) + " positions for " +
         std::to_string(options.chains()) + " chains");
  }
  for (const auto& position : positions) {
    if (position.size() != d) {
      fail("initial_positions has a position of " + std::to_string(position.size()) + " values, expected " +
           std::to_string(d));
    }
  }
  if (!inverse_metric.empty() && !metric_fits(options.metric(), inverse_metric, d)) {
    fail("initial_inverse_metric has " + std::to_string(inverse_metric.size()) + " values, expected " +
         metric_size_text(options.metric(), d));
  }
}

void check_resume(const NutsOptions& options, size_t d) {
  const auto& starts = options.resume_from();
  if (starts.empty()) return;
  const auto fail = [](const std::string& what) { throw ArgumentError("sample_nuts: resume_from " + what); };
  if (static_cast<int>(starts.size()) != options.chains()) {
    fail("has " + std::to_string(starts.size()) + " chain starts for " +
         std::to_string(options.chains()) + " chains");
  }
  if (options.warmup() != 0) fail("continues adapted chains: warmup must be 0");
  for (const auto& start : starts) {
    if (start.position.size() != d) {
      fail("position has " + std::to_string(start.position.size()) + " values, expected " + std::to_string(d));
    }
    if (!metric_fits(options.metric(), start.inverse_metric, d)) {
      fail("inverse metric has " + std::to_string(start.inverse_metric.size()) + " values, expected " +
           metric_size_text(options.metric(), d));
    }
  }
}

}  // namespace

double retained_draw_bytes(const NutsOptions& options, int64_t dimension) {
  // A position is a vector of its own: its values, the vector and the heap's bookkeeping.
  const double per_iteration = 8.0 * static_cast<double>(dimension) + sizeof(std::vector<double>) + 16 + sizeof(NutsResult);
  return static_cast<double>(options.chains()) * (options.warmup() + options.draws()) * per_iteration;
}

std::vector<ChainResult> sample_nuts(const UnconstrainedTarget& target, const NutsOptions& options,
                                     SampleObserver* observer, const std::atomic<bool>* stop,
                                     Lockstep* lockstep) {
  const size_t d = static_cast<size_t>(target.dimension());
  check_resume(options, d);
  check_initial_positions(options, d);
  check_memory(retained_draw_bytes(options, target.dimension()),
               "sample_nuts: " + std::to_string(options.chains()) + " chains of " +
                   std::to_string(options.warmup() + options.draws()) + " iterations of " + std::to_string(d) +
                   " parameters (every iteration's position is kept)",
               "run fewer chains or iterations");
  if (lockstep && options.batched_chains()) {
    throw ArgumentError("sample_nuts: batched chains cannot run in lockstep with other processes");
  }
  // Chain threads x intra-op threads (LibTorch's and OpenBLAS's) <= cores. In lockstep
  // every process must meet the chains in the same order: one chain at a time, with the
  // threads going to the chain's density.
  ThreadPlan plan = plan_threads(options.chains(), options.threads(), options.batched_chains());
  if (lockstep) plan = {1, std::max(1, options.threads() > 0 ? options.threads() : hardware_threads())};
  const int threads = plan.chain_threads;
  const IntraOpThreads intra_op(plan.intra_op_threads);

  std::unique_ptr<BatchedDensity> batched;
  if (options.batched_chains()) batched = std::make_unique<BatchedDensity>(target, options.chains());
  std::vector<ChainResult> results(options.chains());
  std::vector<std::exception_ptr> errors(options.chains());
  std::atomic<int> next_chain{0};
  const auto worker = [&] {
    for (int chain = next_chain++; chain < options.chains(); chain = next_chain++) {
      try {
        DensityFunction density = batched ? batched->for_chain(chain) : make_density_function(target);
        results[chain] = run_chain(std::move(density), d, options, chain, observer, stop, lockstep);
      } catch (...) {
        errors[chain] = std::current_exception();
        if (lockstep) break;  // the other processes stop too: no chain can go on
      }
      if (batched) batched->retire(chain);
    }
  };
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& thread : pool) thread.join();
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return results;
}

}  // namespace variate
