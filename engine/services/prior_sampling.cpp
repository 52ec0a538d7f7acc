#include "engine/services/prior_sampling.h"

#include <ATen/ATen.h>

#include "engine/core/argument_error.h"
#include "engine/core/random_stream.h"
#include "engine/model/compile.h"
#include "engine/workflow/prior_draws.h"

namespace variate::services {
namespace {

constexpr int kBatch = 100;  // draws handed to the observer at once

model::CompiledModel compile_for_simulation(const ModelSource& model, const Data& data) {
  if (!model.text()) throw ArgumentError("--prior simulates from a model's text; a model written in C++ has none");
  model::CompileResult compiled = model::compile_model(model::Source(model.name(), *model.text()), &data);
  if (!compiled.ok()) throw ArgumentError(compiled.report());
  try {
    workflow::check_simulable(*compiled.checked);
  } catch (const ArgumentError& e) {
    throw ArgumentError(std::string("--prior: ") + e.what());
  }
  return std::move(*compiled.model);
}

}  // namespace

std::vector<ChainResult> sample_prior(const ModelSource& model, const DataInput& data, const ParameterLayout& layout,
                                      int chains, int draws, uint64_t seed, SampleObserver* observer,
                                      const std::atomic<bool>* stop) {
  const Data values = data.read();
  const model::CompiledModel compiled = compile_for_simulation(model, values);
  std::vector<ChainResult> results;
  for (int c = 0; c < chains; ++c) {
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(
        RandomStream::for_chain(seed + 1, static_cast<uint64_t>(c) + 1).next());
    ChainResult chain;
    chain.chain = c;
    // No warmup: the draws that follow are sampling draws (no step size, no metric).
    if (observer) observer->on_adapted(c, 0.0, {});
    DrawBatch batch;
    batch.chain = c;
    const auto hand_over = [&] {
      if (observer && !batch.positions.empty()) observer->on_draws(batch);
      batch.first_iteration += static_cast<int>(batch.positions.size());
      batch.positions.clear();
      batch.stats.clear();
    };
    for (int i = 0; i < draws && !(stop && *stop); ++i) {
      workflow::PriorDraw draw;
      try {
        draw = workflow::draw_from_prior(compiled, values, generator);
      } catch (const ArgumentError& e) {
        throw ArgumentError(std::string("--prior: ") + e.what());
      }
      const at::Tensor position = layout.unconstrain(draw.parameters).contiguous();
      std::vector<double> q(position.data_ptr<double>(), position.data_ptr<double>() + position.numel());
      chain.positions.push_back(q);
      chain.stats.push_back(NutsResult{});
      batch.positions.push_back(std::move(q));
      batch.stats.push_back(NutsResult{});
      if (static_cast<int>(batch.positions.size()) == kBatch) hand_over();
    }
    hand_over();
    chain.stopped_early = static_cast<int>(chain.positions.size()) < draws;
    if (observer) observer->on_chain_finished(chain);
    results.push_back(std::move(chain));
  }
  return results;
}

}  // namespace variate::services
