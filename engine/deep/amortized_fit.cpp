#include "engine/deep/amortized_fit.h"

#include <chrono>
#include <sstream>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/serialize/input-archive.h>
#include <torch/serialize/output-archive.h>

#include "engine/core/argument_error.h"
#include "engine/core/random_stream.h"
#include "engine/deep/flat_adam.h"
#include "engine/deep/shared_training_memory.h"

namespace variate::deep {
namespace {

using Clock = std::chrono::steady_clock;

// Flushes denormal floats to zero on this thread while it trains. As a fit converges,
// the tails of its gradients and Adam's second moments fall below float32's normal
// range, where every operation on them costs tens of cycles more: the VAE's epochs took
// twice as long from the third on. Zero for such values changes no weight visibly.
class FlushDenormals {
 public:
  FlushDenormals() {
#if defined(__SSE__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | 0x8040);  // FTZ and DAZ
#endif
  }
  ~FlushDenormals() {
#if defined(__SSE__)
    _mm_setcsr(saved_);
#endif
  }
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
  unsigned saved_ = 0;
};

// Every step allocates and frees the same tensors of a few MB (activations, gradients).
// glibc maps such blocks afresh and unmaps them on free, so each step pays their page
// faults and zeroing again (0.8 ms of the VAE's 5.5 ms step): keep freed memory for
// reuse instead (process-wide, as jemalloc-style allocators behave).
void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  static const bool done = [] {
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
  }();
  (void)done;
#endif
}

// Independent streams for each use of the seed.
enum class Stream : uint64_t { shuffle = 1, noise = 2, heldout = 3 };

at::Generator generator_for(uint64_t seed, Stream stream, uint64_t index) {
  const uint64_t base = RandomStream::for_chain(seed, static_cast<uint64_t>(stream)).next();
  return at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(base, index).next());
}

std::string serialized(const std::function<void(torch::serialize::OutputArchive&)>& write) {
  torch::serialize::OutputArchive archive;
  write(archive);
  std::ostringstream bytes;
  archive.save_to(bytes);
  return bytes.str();
}

void deserialize(const std::string& bytes, const char* what,
                 const std::function<void(torch::serialize::InputArchive&)>& read) {
  try {
    std::istringstream in(bytes);
    torch::serialize::InputArchive archive;
    archive.load_from(in);
    read(archive);
  } catch (const c10::Error& e) {
    throw ArgumentError(std::string("the checkpoint's ") + what + " do not fit this model: " +
                        e.what_without_backtrace());
  }
}

}  // namespace

const char* to_string(AmortizedFitStatus status) {
  switch (status) {
    case AmortizedFitStatus::finished: return "finished";
    case AmortizedFitStatus::stopped: return "stopped";
    case AmortizedFitStatus::max_steps: return "max_steps";
  }
  return "";
}

struct AmortizedFit::State {
  AmortizedObjective& model;
  AmortizedFitOptions options;
  std::shared_ptr<distributed::Communicator> communicator;
  // Every weight as a view into one buffer (one pass of Adam), and every gradient copied
  // into another (one collective per step), followed by the batch's ELBO sum and rank 0's
  // stop flag. With shared memory both are in the segment (the gradients in this rank's
  // slot), and Adam steps this rank's part of the weights.
  at::Tensor weights;
  at::Tensor flat;
  std::unique_ptr<SharedTrainingMemory> shared;
  std::unique_ptr<FlatAdam> adam;
  int64_t gradient_size = 0;
  int shards = 1;
  int64_t step = 0;
  int epoch = 1;
  int64_t epoch_step = 0;

  State(AmortizedObjective& m, const AmortizedFitOptions& o, std::shared_ptr<distributed::Communicator> c)
      : model(m), options(o), communicator(std::move(c)) {}

  // Points the networks' weights into `weights`, copying their values there when `copy`
  // (again after loading a checkpoint, which gives the parameters storage of their own).
  void bind_weights(bool copy) {
    at::NoGradGuard no_grad;
    int64_t offset = 0;
    for (auto& p : model.networks().parameters()) {
      const at::Tensor view = weights.narrow(0, offset, p.numel()).view_as(p);
      if (copy) view.copy_(p);
      p.set_data(view);
      offset += p.numel();
    }
  }

  int rank() const { return communicator->rank(); }
  int ranks() const { return communicator->size(); }

  // Adam over all the weights, for checkpoints: this rank's own, or the shared segment's
  // (whose moments every rank has stepped in part).
  FlatAdam whole_adam(bool shared_moments) const {
    const AdamOptions adam_options = AdamOptions().learning_rate(options.learning_rate);
    if (!shared) return FlatAdam(weights, adam_options);
    FlatAdam whole = shared_moments ? FlatAdam(weights, adam_options, shared->first_moment(), shared->second_moment())
                                    : FlatAdam(weights.clone(), adam_options);
    whole.set_steps(adam->steps());
    return whole;
  }

  // The batch's ELBO sum over the ranks' slots, and whether any rank asked to stop.
  std::pair<double, bool> shared_extras() const {
    double elbo = 0;
    bool stop = false;
    for (int r = 0; r < ranks(); ++r) {
      const at::Tensor slot = shared->slot(r);
      elbo += slot[gradient_size].item<double>();
      stop = stop || slot[gradient_size + 1].item<double>() > 0;
    }
    return {elbo, stop};
  }

  // Moves the gradients autograd left on the weights into `flat` (a copy, where gradients
  // accumulated into views of `flat` would cost a zeroing and a pass more).
  void collect_gradients() {
    int64_t offset = 0;
    for (auto& p : model.networks().parameters()) {
      at::Tensor& g = p.mutable_grad();
      at::Tensor part = flat.narrow(0, offset, p.numel());
      if (g.defined()) {
        part.copy_(g.reshape(-1));
        g.reset();
      } else {
        part.zero_();  // a weight nothing read
      }
      offset += p.numel();
    }
  }

  // Computes this rank's shards of one batch into `flat`, sums over ranks, and steps.
  // Returns the batch's mean ELBO per row and whether rank 0 asked to stop.
  std::pair<double, bool> train_step(const at::Tensor& rows, bool stop_requested) {
    const int64_t b = rows.size(0);
    at::Generator noise_generator = generator_for(options.seed, Stream::noise, static_cast<uint64_t>(step + 1));
    const at::Tensor noise =
        at::randn({b, model.noise_width()}, noise_generator, at::TensorOptions(model.dtype()));
    const double scale = static_cast<double>(model.rows()) / static_cast<double>(b);
    const int per_rank = shards / ranks();
    double elbo_sum = 0;
    for (int k = rank() * per_rank; k < (rank() + 1) * per_rank; ++k) {
      const int64_t first = b * k / shards, last = b * (k + 1) / shards;
      if (last == first) continue;
      const at::Tensor elbo = model.row_elbo(rows.slice(0, first, last), noise.slice(0, first, last), false).sum();
      (-scale * elbo).backward();
      elbo_sum += elbo.item<double>();
    }
    collect_gradients();
    flat[gradient_size] = elbo_sum;
    flat[gradient_size + 1] = stop_requested && rank() == 0 ? 1.0 : 0.0;
    if (shared) {
      shared->barrier();  // every slot is written
      const auto [elbo, stop] = shared_extras();
      // This rank's part of every slot, added in rank order as Adam reads it.
      const auto [first, last] = shared->segment();
      std::vector<at::Tensor> parts;
      for (int r = 0; r < ranks(); ++r) parts.push_back(shared->slot(r).narrow(0, first, last - first));
      adam->step_on_sum(parts);
      shared->barrier();  // every part of the weights is stepped; the slots may be reused
      return {elbo / static_cast<double>(b), stop};
    }
    communicator->allreduce_sum(flat);
    adam->step(flat);
    return {flat[gradient_size].item<double>() / static_cast<double>(b), flat[gradient_size + 1].item<double>() > 0};
  }
};

AmortizedFit::AmortizedFit(AmortizedObjective& model, const AmortizedFitOptions& options,
                           std::shared_ptr<distributed::Communicator> communicator)
    : state_(std::make_unique<State>(model, options,
                                     communicator ? std::move(communicator)
                                                  : std::make_shared<distributed::LocalCommunicator>())) {
  State& s = *state_;
  keep_freed_memory_for_reuse();
  if (options.epochs < 1 || options.batch_size < 1 || !(options.learning_rate > 0)) {
    throw ArgumentError("AmortizedFit: the epochs, the batch size and the learning rate must be positive");
  }
  s.shards = options.gradient_shards > 0 ? options.gradient_shards : s.ranks();
  if (s.shards % s.ranks() != 0) {
    throw ArgumentError("AmortizedFit: " + std::to_string(s.shards) + " gradient shards cannot be split evenly "
                        "between " + std::to_string(s.ranks()) + " ranks");
  }
  for (const auto& p : model.networks().parameters()) s.gradient_size += p.numel();
  const auto dtype = at::TensorOptions(model.dtype());
  const AdamOptions adam_options = AdamOptions().learning_rate(options.learning_rate);
  if (options.share_memory && s.ranks() > 1) {
    s.shared = std::make_unique<SharedTrainingMemory>(*s.communicator, s.gradient_size, s.gradient_size + 2,
                                                      model.dtype(), options.rank_timeout);
    s.weights = s.shared->weights();
    s.flat = s.shared->slot(s.rank());
    s.bind_weights(s.rank() == 0);  // the same initial weights on every rank: one copies them
    s.shared->barrier();
    const auto [first, last] = s.shared->segment();
    s.adam = std::make_unique<FlatAdam>(s.weights.narrow(0, first, last - first), adam_options,
                                        s.shared->first_moment().narrow(0, first, last - first),
                                        s.shared->second_moment().narrow(0, first, last - first));
  } else {
    s.weights = at::empty({s.gradient_size}, dtype);
    s.flat = at::zeros({s.gradient_size + 2}, dtype);
    s.bind_weights(true);
    s.adam = std::make_unique<FlatAdam>(s.weights, adam_options);
  }
}

AmortizedFit::~AmortizedFit() {
  // Shared weights go with the segment: the networks, which outlive the training, keep
  // their values in storage of their own.
  if (!state_->shared) return;
  at::NoGradGuard no_grad;
  for (auto& p : state_->model.networks().parameters()) p.set_data(p.detach().clone());
}

void AmortizedFit::resume(const TrainingCheckpoint& checkpoint) {
  State& s = *state_;
  deserialize(checkpoint.weights, "weights", [&](auto& archive) { s.model.networks().load(archive); });
  // With shared memory rank 0 writes the weights and moments there for all.
  const bool writes = !s.shared || s.rank() == 0;
  s.bind_weights(writes);
  if (s.shared) {
    FlatAdam whole = s.whole_adam(writes);
    deserialize(checkpoint.optimizer, "optimizer state", [&](auto& archive) { whole.load(archive); });
    s.adam->set_steps(whole.steps());
    s.shared->barrier();
  } else {
    deserialize(checkpoint.optimizer, "optimizer state", [&](auto& archive) { s.adam->load(archive); });
  }
  s.step = checkpoint.step;
  s.epoch = checkpoint.epoch;
  s.epoch_step = checkpoint.epoch_step;
}

TrainingCheckpoint AmortizedFit::checkpoint() const {
  const State& s = *state_;
  TrainingCheckpoint checkpoint;
  checkpoint.step = s.step;
  checkpoint.epoch = s.epoch;
  checkpoint.epoch_step = s.epoch_step;
  checkpoint.weights = serialized([&](auto& archive) { s.model.networks().save(archive); });
  if (s.shared) {
    const FlatAdam whole = s.whole_adam(true);
    checkpoint.optimizer = serialized([&](auto& archive) { whole.save(archive); });
  } else {
    checkpoint.optimizer = serialized([&](auto& archive) { s.adam->save(archive); });
  }
  return checkpoint;
}

double AmortizedFit::heldout_elbo(uint64_t seed) {
  State& s = *state_;
  const int64_t m = s.model.heldout_rows();
  at::NoGradGuard no_grad;
  at::Generator generator = generator_for(seed, Stream::heldout, 0);
  const at::Tensor noise = at::randn({m, s.model.noise_width()}, generator, at::TensorOptions(s.model.dtype()));
  const int64_t first = m * s.rank() / s.ranks(), last = m * (s.rank() + 1) / s.ranks();
  at::Tensor sum = at::zeros({1}, at::kDouble);
  for (int64_t from = first; from < last; from += s.options.heldout_batch) {
    const int64_t to = std::min(last, from + s.options.heldout_batch);
    sum += s.model.row_elbo(at::arange(from, to, at::kLong), noise.slice(0, from, to), true).sum().to(at::kDouble);
  }
  s.communicator->allreduce_sum(sum);
  return sum.item<double>() / static_cast<double>(m);
}

AmortizedFitResult AmortizedFit::run(AmortizedFitObserver* observer, const std::atomic<bool>* stop,
                                     const std::atomic<bool>* pause) {
  State& s = *state_;
  FlushDenormals flush_denormals;
  const bool reports = observer && s.rank() == 0;
  const int64_t n = s.model.rows(), b = s.options.batch_size;
  const int64_t steps_per_epoch = (n + b - 1) / b;
  AmortizedFitResult result;
  std::vector<TrainingStep> pending;
  auto last_report = Clock::now();
  const auto flush = [&] {
    if (reports && !pending.empty()) observer->on_steps(pending);
    pending.clear();
    last_report = Clock::now();
  };
  const auto hand_over_checkpoint = [&] {
    if (reports) observer->on_checkpoint(checkpoint());
  };
  const auto start = Clock::now();
  int64_t rows_trained = 0;
  while (s.epoch <= s.options.epochs) {
    at::Generator shuffle = generator_for(s.options.seed, Stream::shuffle, static_cast<uint64_t>(s.epoch));
    const at::Tensor order = at::randperm(n, shuffle, at::kLong);
    auto epoch_start = Clock::now();
    double elbo_sum = 0;
    int64_t rows_done = 0;
    bool stopped = false;
    while (s.epoch_step < steps_per_epoch && !stopped) {
      const int64_t first = s.epoch_step * b;
      const at::Tensor rows = order.slice(0, first, std::min(n, first + b));
      if (pause && pause->load()) {
        flush();
        const auto paused_at = Clock::now();
        while (pause->load() && !(stop && stop->load())) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        epoch_start += Clock::now() - paused_at;  // an epoch's seconds are its training's
      }
      const auto [elbo, stop_now] = s.train_step(rows, stop && stop->load());
      ++s.step;
      ++s.epoch_step;
      elbo_sum += elbo * static_cast<double>(rows.size(0));
      rows_done += rows.size(0);
      pending.push_back({s.step, s.epoch, elbo});
      if (Clock::now() - last_report > std::chrono::milliseconds(100)) flush();
      const bool at_limit = s.options.max_steps && s.step >= *s.options.max_steps;
      if (stop_now || at_limit) {
        result.status = stop_now ? AmortizedFitStatus::stopped : AmortizedFitStatus::max_steps;
        stopped = true;
      } else if (s.options.checkpoint_every > 0 && s.step % s.options.checkpoint_every == 0 &&
                 s.epoch_step < steps_per_epoch) {
        flush();
        hand_over_checkpoint();
      }
    }
    flush();
    const double seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();
    result.training_seconds += seconds;
    rows_trained += rows_done;
    if (rows_done > 0) result.train_elbo = elbo_sum / static_cast<double>(rows_done);
    if (s.epoch_step == steps_per_epoch) {  // the epoch is complete
      EpochReport report{s.epoch, s.step, result.train_elbo, std::nullopt, seconds,
                         seconds > 0 ? static_cast<double>(rows_done) / seconds : 0};
      if (s.model.heldout_rows() > 0) report.heldout_elbo = heldout_elbo(s.options.seed + static_cast<uint64_t>(s.epoch));
      result.heldout_elbo = report.heldout_elbo;
      if (reports) observer->on_epoch(report);
      ++s.epoch;
      s.epoch_step = 0;
    }
    hand_over_checkpoint();
    if (stopped) break;
  }
  result.epochs = s.epoch - 1;
  result.steps = s.step;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (result.training_seconds > 0) result.rows_per_second = static_cast<double>(rows_trained) / result.training_seconds;
  return result;
}

}  // namespace variate::deep
