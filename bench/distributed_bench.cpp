// variate-bench-distributed: a covertype-size Bayesian logistic regression (N = 581,012
// rows x 55 columns, synthetic) with its likelihood's rows split between ranks
// (engine/distributed), in float64 and float32: milliseconds per gradient and per NUTS
// leapfrog for 1 rank x 1 thread, 1 rank x 2 threads and 2 ranks x 1 thread (two
// processes on this host: this program starts the second), the time a gradient spends in
// its collective, the collective's bare latency, and a projection to 8 hosts from the
// measured compute and communication costs. Everything is measured in one run, side by
// side.
//
// Rank 1 is this program again, started with --child and the rendezvous in its
// environment (engine/distributed/child_ranks.h).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <CLI/CLI.hpp>

#include "engine/core/threading.h"
#include "engine/distributed/agreement.h"
#include "engine/distributed/child_ranks.h"
#include "engine/distributed/distributed_error.h"
#include "engine/distributed/run_group.h"
#include "engine/distributed/sharded_target.h"
#include "engine/io/data_file.h"
#include "engine/mcmc/hamiltonian.h"
#include "engine/mcmc/sample.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/select_target.h"

#include "gradient_timing.h"
#include "report.h"
#include "runtime_info.h"
#include "synthetic_logistic.h"
#include "timing.h"

namespace vd = variate::distributed;
using variate::bench::number;

namespace {

struct Options {
  int64_t rows = 581012;
  int64_t columns = 55;
  int repeats = 15;         // timed batches of gradients
  int nuts_iterations = 20;  // warmup and draws each, for ms per leapfrog
  int latency_calls = 300;
  /// "cpu", or "cuda": rank r computes on cuda:r (a CUDA build of LibTorch).
  std::string device = "cpu";
};

at::Device rank_device(const Options& options, int rank) {
  if (options.device == "cpu") return at::kCPU;
  return at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(rank));
}

// How long this rank spent in its collectives: what a gradient waits for the others and
// for the data to travel.
class TimedCommunicator final : public vd::Communicator {
 public:
  explicit TimedCommunicator(std::shared_ptr<vd::Communicator> inner) : inner_(std::move(inner)) {}
  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }
  void allgather(const at::Tensor& local, at::Tensor& gathered) override {
    const double start = variate::bench::now_seconds();
    inner_->allgather(local, gathered);
    ms_.push_back(1e3 * (variate::bench::now_seconds() - start));
  }
  void allreduce_sum(at::Tensor& buffer) override {
    const double start = variate::bench::now_seconds();
    inner_->allreduce_sum(buffer);
    ms_.push_back(1e3 * (variate::bench::now_seconds() - start));
  }
  void barrier() override { inner_->barrier(); }
  /// Milliseconds of each collective since reset().
  const std::vector<double>& ms() const { return ms_; }
  void reset() { ms_.clear(); }

 private:
  std::shared_ptr<vd::Communicator> inner_;
  std::vector<double> ms_;
};

struct Figures {
  double ms_per_gradient = variate::bench::kNotAvailable;
  double ms_in_collective = variate::bench::kNotAvailable;  // per gradient, mean
  double ms_in_collective_median = variate::bench::kNotAvailable;
  double ms_per_leapfrog = variate::bench::kNotAvailable;
  double latency_min_ms = variate::bench::kNotAvailable;     // bare collective, same buffer
  double latency_median_ms = variate::bench::kNotAvailable;
  std::string backend;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? variate::bench::kNotAvailable : values[values.size() / 2];
}

// The data and the model, the same on every rank.
struct Problem {
  variate::Data data;
  variate::model::CompileResult compiled;
};

Problem make_problem(const Options& options, at::ScalarType dtype, int rank = 0) {
  const auto synthetic = variate::bench::make_synthetic_logistic(options.rows, options.columns, 1);
  Problem problem;
  problem.data.set("N", options.rows)
      .set("D", options.columns)
      .set("X", synthetic.design(dtype, false))
      .set("y", synthetic.y);
  variate::model::CompileOptions compile;
  compile.dtype = dtype;
  compile.device = rank_device(options, rank);
  const std::string text = variate::io::read_text_file(std::string(VARIATE_BENCH_DIR) + "/logistic_regression.vmod");
  problem.compiled = variate::model::compile_model(variate::model::Source("logistic_regression.vmod", text),
                                                   &problem.data, compile);
  if (!problem.compiled.ok()) throw std::runtime_error(problem.compiled.report());
  return problem;
}

// The same schedule on every rank: gradients at fixed points, then a short NUTS run in
// lockstep, then bare collectives of the gradient's buffer size.
Figures run_rank(const Options& options, at::ScalarType dtype, int threads, std::shared_ptr<vd::Communicator> inner) {
  const variate::IntraOpThreads intra_op(threads);
  const Problem problem = make_problem(options, dtype, inner->rank());
  auto communicator = std::make_shared<TimedCommunicator>(std::move(inner));
  const vd::ShardedModel sharded =
      vd::compile_sharded(problem.compiled, problem.data, variate::tape::Backend::automatic, communicator);
  Figures figures;
  figures.backend = sharded.target.backend();
  const variate::DensityFunction density = variate::make_density_function(sharded.target);
  auto points = variate::bench::standard_normal_points(sharded.target.dimension(), 4, 3);
  for (auto& point : points) {
    for (double& x : point) x *= 0.1;  // where a posterior of this size lives
  }
  std::vector<double> gradient;
  const auto pass = [&] {
    for (const auto& q : points) density(q, gradient);
  };
  pass();  // untimed: caches, thread pools
  std::vector<double> per_gradient;
  communicator->reset();
  for (int r = 0; r < options.repeats; ++r) {
    const double start = variate::bench::now_seconds();
    pass();
    per_gradient.push_back(1e3 * (variate::bench::now_seconds() - start) / static_cast<double>(points.size()));
  }
  figures.ms_per_gradient = median(per_gradient);
  const std::vector<double>& waits = communicator->ms();
  figures.ms_in_collective = waits.empty() ? 0 : std::accumulate(waits.begin(), waits.end(), 0.0) / waits.size();
  figures.ms_in_collective_median = median(waits);

  vd::CommunicatorLockstep lockstep(communicator);
  const double start = variate::bench::now_seconds();
  const auto chains = variate::sample_nuts(sharded.target,
                                           variate::NutsOptions()
                                               .chains(1)
                                               .warmup(options.nuts_iterations)
                                               .draws(options.nuts_iterations)
                                               .seed(5)
                                               .threads(threads),
                                           nullptr, nullptr, &lockstep);
  const double seconds = variate::bench::now_seconds() - start;
  figures.ms_per_leapfrog = 1e3 * seconds / static_cast<double>(std::max(1L, chains[0].gradient_evaluations));

  if (communicator->size() > 1) {
    const int blocks = sharded.plan.max_blocks_per_rank();
    const at::Tensor local = at::zeros({blocks, sharded.target.dimension() + 1}, at::kDouble);
    at::Tensor gathered = at::zeros({communicator->size(), blocks, sharded.target.dimension() + 1}, at::kDouble);
    std::vector<double> latencies;
    for (int i = 0; i < options.latency_calls; ++i) {
      const double t = variate::bench::now_seconds();
      communicator->allgather(local, gathered);
      latencies.push_back(1e3 * (variate::bench::now_seconds() - t));
    }
    figures.latency_min_ms = *std::min_element(latencies.begin(), latencies.end());
    figures.latency_median_ms = median(latencies);
  }
  return figures;
}

// The one-process density the split one is compared with: all rows in one sum.
double unsplit_ms_per_gradient(const Options& options, at::ScalarType dtype, int threads) {
  const variate::IntraOpThreads intra_op(threads);
  const Problem problem = make_problem(options, dtype);
  const auto selected = variate::tape::select_target(*problem.compiled.model, variate::tape::Backend::automatic);
  const variate::DensityFunction density = variate::make_density_function(selected.target);
  auto points = variate::bench::standard_normal_points(selected.target.dimension(), 4, 3);
  for (auto& point : points) {
    for (double& x : point) x *= 0.1;
  }
  std::vector<double> gradient;
  variate::bench::TimingOptions timing;
  timing.repeats = options.repeats;
  return variate::bench::median_ms([&] {
           for (const auto& q : points) density(q, gradient);
         }, timing) / static_cast<double>(points.size());
}

std::vector<std::string> child_arguments(const Options& options, const char* dtype) {
  return {"variate-bench-distributed", "--child", dtype,
          "--rows", std::to_string(options.rows), "--columns", std::to_string(options.columns),
          "--repeats", std::to_string(options.repeats), "--nuts-iterations", std::to_string(options.nuts_iterations),
          "--latency-calls", std::to_string(options.latency_calls), "--device", options.device};
}

// Rank 0 of two processes on this host, each with one thread.
Figures two_ranks(const Options& options, const char* dtype_name, at::ScalarType dtype) {
  vd::RendezvousSpec spec;
  spec.world_size = 2;
  spec.timeout = std::chrono::minutes(5);
  vd::RunGroup group(spec);
  spec.port = group.port();
  vd::ChildRanks children(2, spec.address(), "", child_arguments(options, dtype_name));  // this program
  group.join([&] {
    if (const std::string failure = children.poll_failure(); !failure.empty()) throw vd::DistributedError(failure);
  });
  const Figures figures = run_rank(options, dtype, 1, group.communicator("bench"));
  if (const std::string failure = children.wait(std::chrono::minutes(2)); !failure.empty()) {
    throw vd::DistributedError(failure);
  }
  return figures;
}

int child(const Options& options, const std::string& dtype_name) {
  const std::optional<vd::RendezvousSpec> spec = vd::rendezvous_from_environment();
  if (!spec) {
    std::cerr << "--child runs as a rank started by the benchmark itself\n";
    return 2;
  }
  vd::follow_parent_rank();
  vd::RendezvousSpec s = *spec;
  s.timeout = std::chrono::minutes(5);
  vd::RunGroup group(s);
  group.join();
  const Figures figures =
      run_rank(options, dtype_name == "float32" ? at::kFloat : at::kDouble, 1, group.communicator("bench"));
  if (std::getenv("VARIATE_BENCH_VERBOSE")) {
    std::cerr << "rank 1: " << figures.ms_per_gradient << " ms/grad, " << figures.ms_in_collective_median
              << " ms in its collective (median)\n";
  }
  return 0;
}

void print_runtime() {
  const auto info = variate::bench::runtime_info();
  std::cout << "LibTorch " << info.torch_version << ", " << info.cores << " cores, load average "
            << number(info.load_average) << " at the start\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::optional<std::string> child_dtype;
  CLI::App app{"ms per gradient and per NUTS leapfrog of a covertype-size logistic regression split by rows "
               "between ranks (c10d/Gloo), side by side: 1 rank x 1 thread, 1 rank x 2 threads, 2 ranks x 1 thread",
               "variate-bench-distributed"};
  app.add_option("--rows", options.rows, "Rows N")->capture_default_str();
  app.add_option("--columns", options.columns, "Columns of X, the intercept's included")->capture_default_str();
  app.add_option("--repeats", options.repeats, "Timed batches of gradients (the median is reported)")->capture_default_str();
  app.add_option("--nuts-iterations", options.nuts_iterations, "Warmup and draws of the NUTS run that times leapfrogs")
      ->capture_default_str();
  app.add_option("--latency-calls", options.latency_calls, "Bare collectives timed")->capture_default_str();
  app.add_option("--device", options.device, "cpu, or cuda (rank r on cuda:r; 2 ranks need 2 GPUs)")
      ->capture_default_str()->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--child", child_dtype, "(internal) run as rank 1 in this dtype");
  CLI11_PARSE(app, argc, argv);
  try {
    if (child_dtype) return child(options, *child_dtype);
    print_runtime();
    std::cout << "device: " << options.device << "; N = " << options.rows << ", D = " << options.columns << "; rows split in "
              << vd::kDefaultRowBlocks << " blocks; ranks on this host talk over Gloo on 127.0.0.1\n\n";
    struct Dtype {
      const char* name;
      at::ScalarType type;
    };
    for (const Dtype dtype : {Dtype{"float64", at::kDouble}, Dtype{"float32", at::kFloat}}) {
      const double unsplit1 = unsplit_ms_per_gradient(options, dtype.type, 1);
      const double unsplit2 = unsplit_ms_per_gradient(options, dtype.type, 2);
      const Figures one = run_rank(options, dtype.type, 1, std::make_shared<vd::LocalCommunicator>());
      const Figures threads = run_rank(options, dtype.type, 2, std::make_shared<vd::LocalCommunicator>());
      const bool two_devices = options.device == "cpu" || at::detail::getCUDAHooks().getNumGPUs() >= 2;
      const Figures ranks = two_devices ? two_ranks(options, dtype.name, dtype.type) : Figures{};
      std::cout << dtype.name << " (density on " << one.backend << ")\n";
      variate::bench::row("", {"ms/grad", "ms/leapfrog", "in coll.", "(median)", "bare min", "(median)"}, 38, 12);
      variate::bench::row("one process, rows unsplit, 1 thread", {number(unsplit1), "", "", "", "", ""}, 38, 12);
      variate::bench::row("one process, rows unsplit, 2 threads", {number(unsplit2), "", "", "", "", ""}, 38, 12);
      for (const auto& [label, f] : {std::pair<const char*, const Figures&>{"1 rank x 1 thread", one},
                                     {"1 rank x 2 threads", threads},
                                     {"2 ranks x 1 thread", ranks}}) {
        variate::bench::row(label,
                            {number(f.ms_per_gradient), number(f.ms_per_leapfrog), number(f.ms_in_collective, 3),
                             number(f.ms_in_collective_median, 3), number(f.latency_min_ms, 3),
                             number(f.latency_median_ms, 3)},
                            38, 12);
      }
      const double efficiency = one.ms_per_gradient / (2 * ranks.ms_per_gradient);
      std::cout << "scaling efficiency, 2 ranks x 1 thread vs 1 rank x 1 thread per gradient: "
                << number(100 * efficiency, 1) << "% (speedup " << number(one.ms_per_gradient / ranks.ms_per_gradient)
                << "x); per leapfrog " << number(100 * one.ms_per_leapfrog / (2 * ranks.ms_per_leapfrog), 1) << "%\n";
      // 8 hosts, one rank each with its own memory bus: each computes N/8 rows at the
      // one-rank speed, then waits for one collective of 8 x (blocks/8) x (D+1) doubles.
      const double compute = one.ms_per_gradient - one.ms_in_collective;
      const double projected = compute / 8 + ranks.latency_min_ms;
      const double projected_median = compute / 8 + ranks.latency_median_ms;
      std::cout << "projection, 8 hosts x 1 rank x 1 thread: " << number(projected) << " ms per gradient with the "
                << "collective at its loopback minimum (" << number(100 * compute / (8 * projected), 0)
                << "% efficiency), " << number(projected_median) << " ms at its median ("
                << number(100 * compute / (8 * projected_median), 0) << "%)\n\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
