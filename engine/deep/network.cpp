#include "engine/deep/network.h"

#include <cmath>

#include <ATen/ATen.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/linear.h>

#include "engine/core/argument_error.h"

namespace variate::deep {
namespace {

void add_activation(torch::nn::Sequential& network, Activation activation) {
  switch (activation) {
    case Activation::relu: network->push_back(torch::nn::ReLU()); return;
    case Activation::tanh: network->push_back(torch::nn::Tanh()); return;
    case Activation::sigmoid: network->push_back(torch::nn::Sigmoid()); return;
    case Activation::softplus: network->push_back(torch::nn::Softplus()); return;
    case Activation::elu: network->push_back(torch::nn::ELU()); return;
  }
}

}  // namespace

int64_t MlpSpec::parameter_count() const {
  int64_t count = 0, in = input_width;
  for (const int64_t out : widths) {
    count += (in + 1) * out;
    in = out;
  }
  return count;
}

torch::nn::Sequential make_mlp(const MlpSpec& spec, at::Generator& generator) {
  if (spec.input_width <= 0 || spec.widths.empty()) {
    throw ArgumentError("make_mlp: a network needs a positive input width and at least one layer");
  }
  torch::nn::Sequential network;
  int64_t in = spec.input_width;
  at::NoGradGuard no_grad;
  for (size_t l = 0; l < spec.widths.size(); ++l) {
    const int64_t out = spec.widths[l];
    if (out <= 0) throw ArgumentError("make_mlp: layer widths must be positive");
    torch::nn::Linear layer(in, out);
    const double bound = 1.0 / std::sqrt(static_cast<double>(in));
    layer->weight.uniform_(-bound, bound, generator);
    layer->bias.uniform_(-bound, bound, generator);
    network->push_back(layer);
    if (l + 1 < spec.widths.size()) add_activation(network, spec.activation);
    in = out;
  }
  return network;
}

}  // namespace variate::deep
