// The paper's model-parallel VAE in miniature: the Fashion-MNIST VAE (784-400-20-400-784)
// written in C++ (deep::AmortizedProgram), with its decoder's output layer split by
// output units between 2 ranks (deep::ColumnParallelLinear; ranks are threads, each with
// its own c10d group over a TCP store on 127.0.0.1 at a port the system picks). On the
// same weights, rows and noise, every rank's ELBO of each row equals the unsplit VAE's,
// and so do the gradients of the encoder's and the decoder's hidden layer; each rank's
// gradient of its output units equals those rows of the unsplit gradient (float32:
// 1e-5 relative to the largest entry).

#include <future>

#include <QtTest/QtTest>
#undef slots  // Qt's keyword breaks LibTorch's jit headers, which the nn modules include
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

#include "engine/deep/amortized_program.h"
#include "engine/deep/column_parallel_linear.h"
#include "engine/distributed/run_group.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/normal.h"

namespace vt = variate;
namespace vd = variate::deep;
namespace vdist = variate::distributed;

namespace {

constexpr int64_t kRows = 16;

// The weights every rank starts from, and the data and noise of the batch.
struct Weights {
  torch::nn::Linear encode_hidden{784, 400}, encode_out{400, 40}, decode_hidden{20, 400}, decode_out{400, 784};
  at::Tensor x = at::rand({kRows, 784});
  at::Tensor noise = at::randn({kRows, 20});
};

torch::nn::Linear copy_of(const torch::nn::Linear& layer) {
  return torch::nn::Linear(std::dynamic_pointer_cast<torch::nn::LinearImpl>(layer->clone()));
}

struct Outcome {
  at::Tensor elbo;  // [rows]
  std::map<std::string, at::Tensor> gradients;
  std::pair<int64_t, int64_t> units{0, 784};
};

// The VAE on copies of `w`, its output layer split over `communicator` when given.
Outcome run_vae(const Weights& w, std::shared_ptr<vdist::Communicator> communicator) {
  auto encode_hidden = copy_of(w.encode_hidden), encode_out = copy_of(w.encode_out);
  auto decode_hidden = copy_of(w.decode_hidden), decode_out = copy_of(w.decode_out);
  torch::nn::Module networks;
  networks.register_module("encode_hidden", encode_hidden);
  networks.register_module("encode_out", encode_out);
  networks.register_module("decode_hidden", decode_hidden);
  vd::ColumnParallelLinear split{nullptr};
  if (communicator) {
    split = vd::ColumnParallelLinear(decode_out, communicator);
    networks.register_module("decode_out", split);
  } else {
    networks.register_module("decode_out", decode_out);
  }
  vd::AmortizedProgram vae(
      [&](const vd::Batch& b) {
        auto z = vt::Normal("z", 0.0, 1.0, {b.size(), 20});
        const at::Tensor h = at::relu(decode_hidden->forward(z.value()));
        vt::Bernoulli("x", vt::Logits{communicator ? split->forward(h) : decode_out->forward(h)});
      },
      [&](const vd::Batch& b) {
        const at::Tensor h = encode_out->forward(at::relu(encode_hidden->forward(b["x"])));
        vt::Normal("z", h.slice(1, 0, 20), at::exp(h.slice(1, 20, 40)));
      },
      networks, [&] { vt::Data d; d.set("x", w.x); return d; }());
  Outcome out;
  out.elbo = vae.row_elbo(at::arange(kRows, at::kLong), w.noise, false);
  out.elbo.sum().backward();
  for (const auto& item : networks.named_parameters()) out.gradients[item.key()] = item.value().grad().clone();
  if (communicator) out.units = split->units();
  out.elbo = out.elbo.detach();
  return out;
}

double relative_difference(const at::Tensor& a, const at::Tensor& reference) {
  return (a - reference).abs().max().item<double>() / std::max(1e-30, reference.abs().max().item<double>());
}

}  // namespace

class TestModelParallelVae : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void theSplitVaeComputesTheUnsplitElboAndGradients() {
    torch::manual_seed(5);
    const Weights w;
    const Outcome whole = run_vae(w, nullptr);

    vdist::RendezvousSpec spec;
    spec.world_size = 2;
    spec.timeout = std::chrono::seconds(60);
    vdist::RunGroup group0(spec);
    const uint16_t port = group0.port();
    auto rank1 = std::async(std::launch::async, [&] {
      vdist::RendezvousSpec s = spec;
      s.rank = 1;
      s.port = port;
      vdist::RunGroup group(s);
      group.join();
      return run_vae(w, group.communicator("vae"));
    });
    group0.join();
    const std::vector<Outcome> ranks{run_vae(w, group0.communicator("vae")), rank1.get()};

    QCOMPARE(ranks[0].units, (std::pair<int64_t, int64_t>{0, 392}));
    QCOMPARE(ranks[1].units, (std::pair<int64_t, int64_t>{392, 784}));
    for (const Outcome& rank : ranks) {
      QVERIFY2(relative_difference(rank.elbo, whole.elbo) < 1e-5,
               qPrintable(QString::number(relative_difference(rank.elbo, whole.elbo))));
      for (const char* name : {"encode_hidden.weight", "encode_hidden.bias", "encode_out.weight", "decode_hidden.weight"}) {
        const double d = relative_difference(rank.gradients.at(name), whole.gradients.at(name));
        QVERIFY2(d < 1e-5, qPrintable(QString("%1: %2").arg(name).arg(d)));
      }
      const auto [first, last] = rank.units;
      for (const char* name : {"decode_out.weight", "decode_out.bias"}) {
        const at::Tensor expected = whole.gradients.at(name).slice(0, first, last);
        QCOMPARE(rank.gradients.at(name).sizes(), expected.sizes());
        const double d = relative_difference(rank.gradients.at(name), expected);
        QVERIFY2(d < 1e-5, qPrintable(QString("%1: %2").arg(name).arg(d)));
      }
    }
    qInfo("ELBO of the batch: %.3f unsplit, %.3f on rank 0 of 2", whole.elbo.sum().item<double>(),
          ranks[0].elbo.sum().item<double>());
  }
};

QTEST_GUILESS_MAIN(TestModelParallelVae)
#include "tst_model_parallel_vae.moc"
