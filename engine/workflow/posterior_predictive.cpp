#include "engine/workflow/posterior_predictive.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/argument_error.h"
#include "engine/core/checks.h"
#include "engine/core/random_stream.h"

namespace variate::workflow {
namespace {

Shape shape_of(const at::Tensor& tensor) { return Shape(tensor.sizes().begin(), tensor.sizes().end()); }

// Appends `value`'s elements in CmdStan's column-major order.
void append_column_major(const at::Tensor& value, std::vector<double>& row) {
  const at::Tensor flat = value.reshape(-1).to(at::kCPU, at::kDouble).contiguous();
  const double* data = flat.data_ptr<double>();
  for (int64_t offset : column_major_order(shape_of(value))) row.push_back(data[offset]);
}

}  // namespace

PosteriorPredictive::PosteriorPredictive(LogJoint log_joint, ParameterLayout layout)
    : log_joint_(std::move(log_joint)), layout_(std::move(layout)) {
  for (const auto& p : layout_.parameters()) parameter_columns_ += numel(p.shape);
  at::NoGradGuard no_grad;
  const ValueMap zero = layout_.constrain(at::zeros({layout_.dimension()}, at::kDouble)).values;
  for (const Observation& o : draw(zero, at::make_generator<at::CPUGeneratorImpl>(0))) {
    observed_.push_back({o.name, shape_of(o.replicated), shape_of(o.log_lik)});
    replicated_size_ += o.replicated.numel();
    log_lik_size_ += o.log_lik.numel();
  }
}

std::vector<std::string> PosteriorPredictive::replicated_names(NameStyle style) const {
  std::vector<std::string> names;
  for (const auto& o : observed_) {
    const auto block = element_names(o.name + "_rep", o.shape, style);
    names.insert(names.end(), block.begin(), block.end());
  }
  return names;
}

std::vector<std::string> PosteriorPredictive::log_lik_names(NameStyle style) const {
  return element_names("log_lik", {log_lik_size_}, style);
}

std::vector<Observation> PosteriorPredictive::draw(const ValueMap& parameters,
                                                   at::Generator generator) const {
  for (const auto& p : layout_.parameters()) {
    const auto it = parameters.find(p.name);
    if (it == parameters.end()) {
      throw ArgumentError("posterior_predictive: no value for parameter '" + p.name + "'");
    }
    if (it->second.sizes() != c10::IntArrayRef(p.shape)) {
      throw ArgumentError("posterior_predictive: value of '" + p.name + "' has shape " +
                          to_string(it->second.sizes()) + ", expected " + to_string(p.shape));
    }
  }
  at::NoGradGuard no_grad;
  // With validation on, a compiled model scores every observed variable through its
  // distribution (a fused GLM kernel gives only a total, and cannot draw).
  ValidationGuard validation(true);
  PredictiveTracer tracer(parameters, log_joint_.observed(), std::move(generator));
  {
    TracerScope scope(tracer);
    log_joint_.model()();
  }
  return tracer.observations();
}

ValueMap PosteriorPredictive::parameters_of(const std::vector<double>& row) const {
  if (static_cast<int64_t>(row.size()) < parameter_columns_) {
    throw ArgumentError("posterior_predictive: a draw has " + std::to_string(row.size()) +
                        " values, expected at least " + std::to_string(parameter_columns_) +
                        " (the parameters' columns)");
  }
  ValueMap values;
  size_t column = 0;
  for (const auto& p : layout_.parameters()) {
    const std::vector<int64_t> order = column_major_order(p.shape);
    std::vector<double> flat(order.size());
    for (int64_t offset : order) flat[static_cast<size_t>(offset)] = row[column++];
    values[p.name] = at::tensor(flat, at::kDouble).reshape(p.shape);
  }
  return values;
}

at::Generator chain_generator(uint64_t seed, uint64_t chain) {
  return at::make_generator<at::CPUGeneratorImpl>(RandomStream::for_chain(seed, chain).next());
}

PredictiveRows PosteriorPredictive::rows(const std::vector<std::vector<double>>& draws, uint64_t seed,
                                         uint64_t chain) const {
  return rows(draws, chain_generator(seed, chain));
}

PredictiveRows PosteriorPredictive::rows(const std::vector<std::vector<double>>& draws,
                                         at::Generator generator) const {
  PredictiveRows result;
  result.replicated.reserve(draws.size());
  result.log_lik.reserve(draws.size());
  for (const auto& row : draws) {
    std::vector<double> replicated, log_lik;
    replicated.reserve(static_cast<size_t>(replicated_size_));
    log_lik.reserve(static_cast<size_t>(log_lik_size_));
    for (const Observation& o : draw(parameters_of(row), generator)) {
      append_column_major(o.replicated, replicated);
      append_column_major(o.log_lik, log_lik);
    }
    // A model whose observed shapes depend on its parameters has no fixed columns.
    if (static_cast<int64_t>(replicated.size()) != replicated_size_ ||
        static_cast<int64_t>(log_lik.size()) != log_lik_size_) {
      throw ArgumentError("posterior_predictive: a draw gave " + std::to_string(replicated.size()) +
                          " replicated values and " + std::to_string(log_lik.size()) +
                          " log likelihoods, expected " + std::to_string(replicated_size_) + " and " +
                          std::to_string(log_lik_size_));
    }
    result.replicated.push_back(std::move(replicated));
    result.log_lik.push_back(std::move(log_lik));
  }
  return result;
}

std::vector<diagnostics::Draws> log_lik_by_observation(const std::vector<PredictiveRows>& chains) {
  const size_t observations = chains.empty() || chains[0].log_lik.empty() ? 0 : chains[0].log_lik[0].size();
  std::vector<diagnostics::Draws> log_lik(observations, diagnostics::Draws(chains.size()));
  for (size_t c = 0; c < chains.size(); ++c) {
    for (const auto& draw : chains[c].log_lik) {
      for (size_t i = 0; i < observations; ++i) log_lik[i][c].push_back(draw[i]);
    }
  }
  return log_lik;
}

}  // namespace variate::workflow
