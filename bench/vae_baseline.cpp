// variate-bench-vae: the hand-written LibTorch VAE that Variate's deep models are measured
// against (the reference for "no overhead"): latent 20, MLP 784-400-20-400-784 with ReLU,
// Bernoulli likelihood on pixel intensities (logits), a Gaussian encoder, the analytic
// KL to N(0, I), one reparameterized draw per image, Adam (learning rate 1e-3), batches
// of 128 shuffled each epoch from --seed. Prints seconds per epoch (training only), the
// training ELBO of the epoch and the held-out ELBO per image (one draw per test image).
//
//   variate-bench-vae [--epochs 10] [--limit N] [--threads 1] [--seed 1] [--data DIR]

#include <chrono>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <torch/nn/functional/loss.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/adam.h>

#include <variate/io/idx_file.h>

namespace {

struct Vae : torch::nn::Module {
  Vae()
      : encode_hidden(register_module("encode_hidden", torch::nn::Linear(784, 400))),
        encode_mean(register_module("encode_mean", torch::nn::Linear(400, 20))),
        encode_log_scale(register_module("encode_log_scale", torch::nn::Linear(400, 20))),
        decode_hidden(register_module("decode_hidden", torch::nn::Linear(20, 400))),
        decode_logits(register_module("decode_logits", torch::nn::Linear(400, 784))) {}

  /// The ELBO of each image of `x` [B, 784], with one draw of z per image.
  at::Tensor elbo(const at::Tensor& x) {
    const at::Tensor h = at::relu(encode_hidden(x));
    const at::Tensor mean = encode_mean(h);
    const at::Tensor log_scale = encode_log_scale(h);
    const at::Tensor z = mean + at::exp(log_scale) * at::randn_like(mean);
    const at::Tensor logits = decode_logits(at::relu(decode_hidden(z)));
    // log Bernoulli(x | logits) = x * logits - softplus(logits), summed over pixels.
    const at::Tensor log_likelihood = (x * logits - at::softplus(logits)).sum(1);
    const at::Tensor kl = 0.5 * (mean.square() + at::exp(2 * log_scale) - 1 - 2 * log_scale).sum(1);
    return log_likelihood - kl;
  }

  torch::nn::Linear encode_hidden, encode_mean, encode_log_scale, decode_hidden, decode_logits;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The hand-written LibTorch VAE on Fashion-MNIST (the baseline of Variate's deep models)",
               "variate-bench-vae"};
  int epochs = 10, threads = 1;
  int64_t limit = 0, seed = 1;
  std::string data = "/usr/share/datasets/fashion-mnist";
  app.add_option("--epochs", epochs, "Epochs")->capture_default_str();
  app.add_option("--limit", limit, "Training images (0: all 60,000)")->capture_default_str();
  app.add_option("--threads", threads, "LibTorch intra-op threads")->capture_default_str();
  app.add_option("--seed", seed, "Seed of the weights, the batches and the draws")->capture_default_str();
  app.add_option("--data", data, "Folder of the Fashion-MNIST IDX files (Debian's dataset-fashion-mnist)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  at::set_num_threads(threads);
  torch::manual_seed(static_cast<uint64_t>(seed));
  const auto train = variate::io::read_image_set(data + "/train-images-idx3-ubyte.gz",
                                                 data + "/train-labels-idx1-ubyte.gz",
                                                 limit > 0 ? std::optional<int64_t>(limit) : std::nullopt);
  const auto test = variate::io::read_image_set(data + "/t10k-images-idx3-ubyte.gz", data + "/t10k-labels-idx1-ubyte.gz");
  const at::Tensor x_train = train.images.to(at::kFloat), x_test = test.images.to(at::kFloat);
  const int64_t n = x_train.size(0), batch = 128;

  Vae vae;
  torch::optim::Adam adam(vae.parameters(), torch::optim::AdamOptions(1e-3));
  std::printf("hand-written LibTorch VAE: %lld training images, %lld test images, batch %lld, %d thread(s)\n",
              static_cast<long long>(n), static_cast<long long>(x_test.size(0)), static_cast<long long>(batch), threads);
  std::printf("epoch  seconds  train ELBO  held-out ELBO (per image)\n");
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    const at::Tensor order = at::randperm(n, at::kLong);
    double elbo_sum = 0;
    for (int64_t first = 0; first < n; first += batch) {
      const at::Tensor x = x_train.index_select(0, order.slice(0, first, std::min(n, first + batch)));
      adam.zero_grad();
      const at::Tensor elbo = vae.elbo(x);
      (-elbo.mean()).backward();
      adam.step();
      elbo_sum += elbo.sum().item<double>();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    at::NoGradGuard no_grad;
    double held_out = 0;
    for (int64_t first = 0; first < x_test.size(0); first += 1000) {
      held_out += vae.elbo(x_test.slice(0, first, first + 1000)).sum().item<double>();
    }
    std::printf("%5d  %7.2f  %10.2f  %13.2f\n", epoch, seconds, elbo_sum / n, held_out / x_test.size(0));
    std::fflush(stdout);
  }
  return 0;
}
