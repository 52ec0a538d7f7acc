#include "engine/remote/event_codec.h"

#include <stdexcept>

#include <ATen/ATen.h>

#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"

#include "engine/remote/limits.h"

namespace variate::remote {

std::vector<v1::DrawBatch> encode_draws(const DrawBatch& batch) {
  const int n = static_cast<int>(batch.positions.size());
  const int d = n ? static_cast<int>(batch.positions.front().size()) : 0;
  const int64_t row_bytes = 8 * (d + 8);
  const int per_message = static_cast<int>(std::max<int64_t>(1, kMaxDrawBatchBytes / row_bytes));
  std::vector<v1::DrawBatch> messages;
  for (int start = 0; start < n; start += per_message) {
    v1::DrawBatch& m = messages.emplace_back();
    m.set_chain(batch.chain);
    m.set_first_iteration(batch.first_iteration + start);
    m.set_warmup_iterations(batch.warmup_iterations);
    m.set_dimension(d);
    for (int i = start; i < std::min(n, start + per_message); ++i) {
      for (const double x : batch.positions[i]) m.add_positions(x);
      const NutsResult& s = batch.stats[i];
      m.add_step_sizes(s.step_size);
      m.add_log_densities(s.log_density);
      m.add_accept_stats(s.accept_stat);
      m.add_tree_depths(s.tree_depth);
      m.add_leapfrog_steps(s.leapfrog_steps);
      m.add_divergent(s.has_divergence);
      m.add_reached_max_depth(s.reached_max_depth);
      m.add_energies(s.energy);
    }
  }
  return messages;
}

DrawBatch decode_draws(const v1::DrawBatch& m) {
  const int n = m.step_sizes_size();
  const int d = m.dimension();
  if (d < 0 || m.positions_size() != static_cast<int64_t>(n) * d || m.log_densities_size() != n ||
      m.accept_stats_size() != n || m.tree_depths_size() != n || m.leapfrog_steps_size() != n ||
      m.divergent_size() != n || m.reached_max_depth_size() != n || m.energies_size() != n) {
    throw std::runtime_error("a batch of draws whose arrays disagree in length");
  }
  DrawBatch batch;
  batch.chain = m.chain();
  batch.first_iteration = m.first_iteration();
  batch.warmup_iterations = m.warmup_iterations();
  batch.positions.resize(n);
  batch.stats.resize(n);
  for (int i = 0; i < n; ++i) {
    batch.positions[i].assign(m.positions().begin() + static_cast<int64_t>(i) * d,
                              m.positions().begin() + static_cast<int64_t>(i + 1) * d);
    NutsResult& s = batch.stats[i];
    s.step_size = m.step_sizes(i);
    s.log_density = m.log_densities(i);
    s.accept_stat = m.accept_stats(i);
    s.tree_depth = m.tree_depths(i);
    s.leapfrog_steps = m.leapfrog_steps(i);
    s.has_divergence = m.divergent(i);
    s.reached_max_depth = m.reached_max_depth(i);
    s.energy = m.energies(i);
  }
  return batch;
}

v1::ChainFinished encode_chain_end(const ChainResult& r) {
  v1::ChainFinished m;
  m.set_chain(r.chain);
  m.set_warmup_iterations(r.warmup_iterations);
  m.set_step_size(r.step_size);
  m.set_dense_metric(r.metric == MetricKind::dense);
  m.set_low_rank_metric(r.metric == MetricKind::low_rank);
  for (const double x : r.inverse_metric) m.add_inverse_metric(x);
  m.set_seconds_warmup(r.seconds_warmup);
  m.set_seconds_sampling(r.seconds_sampling);
  m.set_gradient_evaluations(r.gradient_evaluations);
  m.set_stopped_early(r.stopped_early);
  return m;
}

ChainResult decode_chain_end(const v1::ChainFinished& m) {
  ChainResult r;
  r.chain = m.chain();
  r.warmup_iterations = m.warmup_iterations();
  r.step_size = m.step_size();
  r.metric = m.dense_metric() ? MetricKind::dense : m.low_rank_metric() ? MetricKind::low_rank : MetricKind::diagonal;
  r.inverse_metric.assign(m.inverse_metric().begin(), m.inverse_metric().end());
  r.seconds_warmup = m.seconds_warmup();
  r.seconds_sampling = m.seconds_sampling();
  r.gradient_evaluations = m.gradient_evaluations();
  r.stopped_early = m.stopped_early();
  return r;
}

v1::ElboEvaluation encode_evaluation(const ElboEvaluation& e) {
  v1::ElboEvaluation m;
  m.set_iteration(e.iteration);
  m.set_elbo(e.elbo);
  m.set_mean_relative_change(e.mean_relative_change);
  m.set_median_relative_change(e.median_relative_change);
  m.set_mean_converged(e.mean_converged);
  m.set_median_converged(e.median_converged);
  m.set_step_reduced(e.step_reduced);
  m.set_eta(e.eta);
  return m;
}

ElboEvaluation decode_evaluation(const v1::ElboEvaluation& m) {
  ElboEvaluation e;
  e.iteration = m.iteration();
  e.elbo = m.elbo();
  e.mean_relative_change = m.mean_relative_change();
  e.median_relative_change = m.median_relative_change();
  e.mean_converged = m.mean_converged();
  e.median_converged = m.median_converged();
  e.step_reduced = m.step_reduced();
  e.eta = m.eta();
  return e;
}

namespace {

AdviStatus status_from_string(const std::string& name) {
  for (const AdviStatus status : {AdviStatus::converged, AdviStatus::max_iterations, AdviStatus::stopped,
                                  AdviStatus::diverged, AdviStatus::adaptation_failed}) {
    if (to_string(status) == name) return status;
  }
  throw std::runtime_error("an unknown fit status '" + name + "'");
}

}  // namespace

v1::FitFinished encode_fit(const AdviFit& fit, const std::string& method) {
  v1::FitFinished m;
  const AdviResult& r = fit.result;
  m.set_method(method);
  m.set_status(to_string(r.status));
  m.set_iterations(r.iterations);
  m.set_elbo(r.elbo);
  m.set_eta(r.eta);
  m.set_eta_adapted(r.eta_adapted);
  m.set_gradient_evaluations(r.gradient_evaluations);
  m.set_seconds_adaptation(r.seconds_adaptation);
  m.set_seconds_optimization(r.seconds_optimization);
  m.set_restarts(r.restarts);
  m.set_step_reductions(r.step_reductions);
  m.set_initial_elbo(r.initial_elbo);
  if (fit.family) {
    for (const at::Tensor& parameter : fit.family->parameters()) {
      const at::Tensor values = parameter.detach().to(at::kCPU, at::kDouble).contiguous();
      v1::Tensor& t = *m.add_parameters();
      for (const int64_t size : values.sizes()) t.add_shape(size);
      t.mutable_values()->Add(values.data_ptr<double>(), values.data_ptr<double>() + values.numel());
    }
  }
  return m;
}

AdviFit decode_fit(const v1::FitFinished& m, const ParameterLayout& layout) {
  AdviFit fit;
  AdviResult& r = fit.result;
  r.status = status_from_string(m.status());
  r.iterations = m.iterations();
  r.elbo = m.elbo();
  r.eta = m.eta();
  r.eta_adapted = m.eta_adapted();
  r.gradient_evaluations = m.gradient_evaluations();
  r.seconds_adaptation = m.seconds_adaptation();
  r.seconds_optimization = m.seconds_optimization();
  r.restarts = m.restarts();
  r.step_reductions = m.step_reductions();
  r.initial_elbo = m.initial_elbo();
  if (m.parameters_size() == 0) return fit;  // a fit that never started
  if (m.method() == "fullrank") {
    fit.family = std::make_shared<FullRankGaussian>(layout);
  } else if (m.method() == "meanfield") {
    fit.family = std::make_shared<MeanFieldGaussian>(layout);
  } else {
    throw std::runtime_error("an unknown family '" + m.method() + "'");
  }
  const std::vector<at::Tensor> parameters = fit.family->parameters();
  if (static_cast<int>(parameters.size()) != m.parameters_size()) {
    throw std::runtime_error("the fitted family's parameters do not match the model");
  }
  at::NoGradGuard no_grad;
  for (size_t k = 0; k < parameters.size(); ++k) {
    const v1::Tensor& t = m.parameters(static_cast<int>(k));
    const std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
    if (parameters[k].sizes() != at::IntArrayRef(shape) || parameters[k].numel() != t.values_size()) {
      throw std::runtime_error("the fitted family's parameters do not match the model");
    }
    const at::Tensor values = at::tensor(std::vector<double>(t.values().begin(), t.values().end()), at::kDouble);
    parameters[k].detach().copy_(values.view(shape));
  }
  return fit;
}

}  // namespace variate::remote
