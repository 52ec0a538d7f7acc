#include "engine/mcmc/batched_density.h"

#include <cmath>
#include <limits>

#include <ATen/ATen.h>

namespace variate {

BatchedDensity::BatchedDensity(const UnconstrainedTarget& target, int chains)
    : target_(target), pending_(chains, nullptr), active_(chains, true), log_density_(chains),
      gradient_(chains), generation_(chains, 0), active_count_(chains) {}

DensityFunction BatchedDensity::for_chain(int chain) {
  return [this, chain](const std::vector<double>& q, std::vector<double>& gradient) {
    return submit(chain, q, gradient);
  };
}

double BatchedDensity::submit(int chain, const std::vector<double>& q, std::vector<double>& gradient) {
  std::unique_lock<std::mutex> lock(mutex_);
  pending_[chain] = &q;
  ++waiting_;
  const long generation = generation_[chain];
  if (waiting_ == active_count_) {
    evaluate_pending();
  } else {
    evaluated_.wait(lock, [&] { return generation_[chain] != generation; });
  }
  if (error_) std::rethrow_exception(error_);
  gradient = gradient_[chain];
  return log_density_[chain];
}

void BatchedDensity::retire(int chain) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!active_[chain]) return;
  active_[chain] = false;
  --active_count_;
  // The chains still waiting may have been waiting only for this one.
  if (waiting_ > 0 && waiting_ == active_count_) evaluate_pending();
}

void BatchedDensity::evaluate_pending() {
  std::vector<int> chains;
  std::vector<at::Tensor> rows;
  for (int c = 0; c < static_cast<int>(pending_.size()); ++c) {
    if (!pending_[c]) continue;
    chains.push_back(c);
    const auto& q = *pending_[c];
    rows.push_back(at::from_blob(const_cast<double*>(q.data()), {static_cast<int64_t>(q.size())},
                                 at::kDouble));
  }
  const double minus_infinity = -std::numeric_limits<double>::infinity();
  at::Tensor lp, gradient;
  try {
    std::tie(lp, gradient) = target_.log_density_and_gradient(at::stack(rows));
    lp = lp.contiguous();
    gradient = gradient.contiguous();
  } catch (const c10::Error&) {
    lp = at::full({static_cast<int64_t>(chains.size())}, minus_infinity, at::kDouble);
    gradient = at::zeros({static_cast<int64_t>(chains.size()), target_.dimension()}, at::kDouble);
  } catch (...) {
    // Not numerical trouble but an error of the model (a shape, an argument): every chain
    // of the batch fails with it, rather than the others waiting for one that left.
    error_ = std::current_exception();
    for (const int c : chains) {
      pending_[c] = nullptr;
      ++generation_[c];
    }
    waiting_ = 0;
    evaluated_.notify_all();
    return;
  }
  const int64_t d = target_.dimension();
  for (size_t i = 0; i < chains.size(); ++i) {
    const int c = chains[i];
    double value = lp[static_cast<int64_t>(i)].item<double>();
    const double* g = gradient.data_ptr<double>() + i * d;
    gradient_[c].assign(g, g + d);
    bool finite = std::isfinite(value);
    for (double x : gradient_[c]) finite = finite && std::isfinite(x);
    log_density_[c] = finite ? value : minus_infinity;
    if (!finite) std::fill(gradient_[c].begin(), gradient_[c].end(), 0.0);
    pending_[c] = nullptr;
    ++generation_[c];
  }
  waiting_ = 0;
  evaluated_.notify_all();
}

}  // namespace variate
