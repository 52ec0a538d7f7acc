#pragma once
/// A neural network in a model: a multilayer perceptron `mlp(input, 400, 784, activation =
/// relu)` whose weights are point parameters the fit learns. Layers are torch::nn::Linear
/// with the activation between them; the last layer is linear (logits, means, log scales).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Generator.h>
#include <torch/nn/modules/container/sequential.h>

#include "engine/model/network_call.h"

namespace variate::deep {

using model::Activation;

struct MlpSpec {
  int64_t input_width = 0;
  /// The output widths of the layers in order; the last is the network's output width.
  std::vector<int64_t> widths;
  Activation activation = Activation::relu;

  int64_t output_width() const { return widths.back(); }
  /// Weights and biases over all layers.
  int64_t parameter_count() const;
};

/// The network, its weights drawn as PyTorch's nn.Linear draws them (uniform within
/// ±1/sqrt(fan_in), weights and biases alike) from `generator`, so a seed fixes them.
torch::nn::Sequential make_mlp(const MlpSpec& spec, at::Generator& generator);

}  // namespace variate::deep
