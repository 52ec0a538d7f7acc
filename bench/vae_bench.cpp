// variate-bench-vae: Variate's VAE (projects/fashion_vae/fashion_vae.vmod, trained by
// AmortizedFit) beside a hand-written LibTorch VAE of the same architecture, trained the
// same way, epoch by epoch in turn in one process (so both see the same machine): latent
// 20, MLP 784-400-20-400-784 with ReLU, Bernoulli likelihood on pixel intensities
// (logits), a Gaussian encoder, the analytic KL to N(0, I), one reparameterized draw per
// image, the batch's ELBO scaled by N / batch size, Adam (learning rate 1e-3), batches of
// 128 shuffled each epoch. Prints seconds per epoch (training only) for both, their
// ratio, and the held-out ELBO per image (one draw per test image). The hand-written
// epochs run inside the fit's epoch callback, on its thread, so both train with
// denormal floats flushed to zero as AmortizedFit trains (without, the hand-written
// VAE's epochs slow from 2 s to 2.8 s once its gradients' tails go denormal).
//
//   variate-bench-vae [--epochs 10] [--limit N] [--threads 1] [--seed 1] [--data DIR]

#include <chrono>
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/optim/adam.h>

#include "engine/core/threading.h"
#include "engine/deep/amortized_fit.h"
#include "engine/deep/amortized_model.h"
#include "engine/io/data_file.h"
#include "engine/io/idx_file.h"
#include "engine/model/compile.h"

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

struct EpochFigures {
  double seconds = 0;
  double heldout = 0;
};

// One epoch of the hand-written VAE.
EpochFigures hand_written_epoch(Vae& vae, torch::optim::Adam& adam, const at::Tensor& train, const at::Tensor& test) {
  const int64_t n = train.size(0), batch = 128;
  const auto start = std::chrono::steady_clock::now();
  const at::Tensor order = at::randperm(n, at::kLong);
  for (int64_t first = 0; first < n; first += batch) {
    const at::Tensor x = train.index_select(0, order.slice(0, first, std::min(n, first + batch)));
    adam.zero_grad();
    const at::Tensor elbo = vae.elbo(x);
    (-static_cast<double>(n) / static_cast<double>(x.size(0)) * elbo.sum()).backward();
    adam.step();
  }
  EpochFigures figures;
  figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  at::NoGradGuard no_grad;
  for (int64_t first = 0; first < test.size(0); first += 1000) {
    figures.heldout += vae.elbo(test.slice(0, first, first + 1000)).sum().item<double>();
  }
  figures.heldout /= static_cast<double>(test.size(0));
  return figures;
}

// Runs a hand-written epoch after each of Variate's, and prints both.
class SideBySide : public variate::deep::AmortizedFitObserver {
 public:
  SideBySide(Vae& vae, torch::optim::Adam& adam, const at::Tensor& train, const at::Tensor& test)
      : vae_(vae), adam_(adam), train_(train), test_(test) {}

  void on_epoch(const variate::deep::EpochReport& report) override {
    const EpochFigures hand = hand_written_epoch(vae_, adam_, train_, test_);
    variate_seconds_ += report.seconds;
    hand_seconds_ += hand.seconds;
    std::printf("%5d  %14.2f  %14.2f  %6.3f  %16.2f  %16.2f\n", report.epoch, report.seconds, hand.seconds,
                report.seconds / hand.seconds, report.heldout_elbo.value_or(NAN), hand.heldout);
    std::fflush(stdout);
    last_variate_ = report.heldout_elbo.value_or(NAN);
    last_hand_ = hand.heldout;
  }

  void summary() const {
    std::printf("\nseconds per epoch, all epochs: Variate / hand-written = %.3f\n", variate_seconds_ / hand_seconds_);
    std::printf("held-out ELBO per image after the last epoch: Variate %.2f, hand-written %.2f (difference %.2f nats)\n",
                last_variate_, last_hand_, last_variate_ - last_hand_);
  }

 private:
  Vae& vae_;
  torch::optim::Adam& adam_;
  const at::Tensor& train_;
  const at::Tensor& test_;
  double variate_seconds_ = 0, hand_seconds_ = 0, last_variate_ = NAN, last_hand_ = NAN;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Variate's VAE beside a hand-written LibTorch VAE on Fashion-MNIST", "variate-bench-vae"};
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

  // LibTorch's and OpenBLAS's threads both (at::set_num_threads leaves OpenBLAS's own).
  variate::IntraOpThreads intra_op(threads);
  torch::manual_seed(static_cast<uint64_t>(seed));
  const auto train = variate::io::read_image_set(data + "/train-images-idx3-ubyte.gz",
                                                 data + "/train-labels-idx1-ubyte.gz",
                                                 limit > 0 ? std::optional<int64_t>(limit) : std::nullopt);
  const auto test = variate::io::read_image_set(data + "/t10k-images-idx3-ubyte.gz", data + "/t10k-labels-idx1-ubyte.gz");
  const at::Tensor x_train = train.images.to(at::kFloat), x_test = test.images.to(at::kFloat);

  const std::string model_path = std::string(VARIATE_SOURCE_DIR) + "/projects/fashion_vae/fashion_vae.vmod";
  auto compiled = variate::model::compile_model(
      variate::model::Source(model_path, variate::io::read_text_file(model_path)));
  if (!compiled.ok()) {
    std::cerr << compiled.report();
    return 1;
  }
  variate::Data train_data, test_data;
  train_data.set("x", train.images);
  test_data.set("x", test.images);
  variate::deep::AmortizedOptions model_options;
  model_options.seed = static_cast<uint64_t>(seed);
  variate::deep::AmortizedModel model(compiled.checked, train_data, model_options);
  model.bind_heldout(test_data);
  variate::deep::AmortizedFitOptions fit_options;
  fit_options.epochs = epochs;
  fit_options.seed = static_cast<uint64_t>(seed);
  variate::deep::AmortizedFit fit(model, fit_options);

  Vae vae;
  torch::optim::Adam adam(vae.parameters(), torch::optim::AdamOptions(1e-3));
  std::printf("VAE 784-400-20-400-784 on Fashion-MNIST: %lld training images, %lld test images, batch 128, "
              "%d thread(s), float32\n",
              static_cast<long long>(x_train.size(0)), static_cast<long long>(x_test.size(0)), threads);
  std::printf("epoch  Variate s/epoch  hand-written s  ratio  Variate held-out  hand held-out (ELBO per image)\n");
  SideBySide side_by_side(vae, adam, x_train, x_test);
  fit.run(&side_by_side);
  side_by_side.summary();
  return 0;
}
