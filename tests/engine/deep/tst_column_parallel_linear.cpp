// A model-parallel layer (engine/deep): the VAE decoder in miniature, z [16, 20] ->
// Linear(20, 400) -> relu -> Linear(400, 784) -> Bernoulli-logit log likelihood, with the
// output layer split by output units across 1, 2 and 3 ranks (3: an uneven split; ranks
// are threads of this process, each with its own c10d group over a TCP store on 127.0.0.1
// at a port the system picks). On the same weights every rank's loss, dL/dz and gradient
// of the first layer equal the unsplit decoder's, and each rank's gradient of its output
// shard equals the matching rows of the unsplit gradient (float32: 1e-5 relative to the
// largest entry); one rank with LocalCommunicator gives the same bits.

#include <future>

#include <QtTest/QtTest>
// Qt's `slots` keyword breaks LibTorch's jit headers, which the nn modules include
// (torch::jit::Object::slots()); the suite says Q_SLOTS instead.
#undef slots
#include <torch/nn/modules/linear.h>

#include "engine/core/argument_error.h"
#include "engine/deep/column_parallel_linear.h"
#include "engine/distributed/run_group.h"

namespace vd = variate::distributed;
using variate::deep::ColumnParallelLinear;
using variate::deep::column_shard;

namespace {

constexpr double kTolerance = 1e-5;

torch::nn::Linear copy_of(const torch::nn::Linear& layer) {
  return torch::nn::Linear(std::dynamic_pointer_cast<torch::nn::LinearImpl>(layer->clone()));
}

// What one rank owns: its own copies, so that the ranks' threads share no tensors.
struct Decoder {
  torch::nn::Linear hidden{nullptr};
  torch::nn::Linear output{nullptr};  // the full layer; a split decoder takes its shard
  at::Tensor z;
  at::Tensor x;  // the data, in [0, 1]

  Decoder copy() const { return {copy_of(hidden), copy_of(output), z.clone(), x.clone()}; }
};

Decoder make_decoder() {
  torch::manual_seed(11);
  return {torch::nn::Linear(20, 400), torch::nn::Linear(400, 784), at::randn({16, 20}), at::rand({16, 784})};
}

struct Outcome {
  at::Tensor loss, dz, dhidden_weight, dhidden_bias;
  at::Tensor doutput_weight, doutput_bias;  // of the rows this rank holds
  std::pair<int64_t, int64_t> units;
};

// The Bernoulli-logit log likelihood sum(x l - softplus(l)), and its gradients.
Outcome run_decoder(Decoder d, const std::function<at::Tensor(const at::Tensor&)>& output_layer) {
  d.z.requires_grad_(true);
  const at::Tensor logits = output_layer(at::relu(d.hidden->forward(d.z)));
  const at::Tensor loss = (d.x * logits - at::softplus(logits)).sum();
  loss.backward();
  return {loss.detach(), d.z.grad(), d.hidden->weight.grad(), d.hidden->bias.grad(), {}, {}, {}};
}

Outcome unsplit(Decoder d) {
  Outcome out = run_decoder(d, [&](const at::Tensor& h) { return d.output->forward(h); });
  out.doutput_weight = d.output->weight.grad();
  out.doutput_bias = d.output->bias.grad();
  out.units = {0, 784};
  return out;
}

Outcome split(const Decoder& d, std::shared_ptr<vd::Communicator> communicator) {
  ColumnParallelLinear output(d.output, std::move(communicator));
  Outcome out = run_decoder(d, [&](const at::Tensor& h) { return output->forward(h); });
  out.doutput_weight = output->weight.grad();
  out.doutput_bias = output->bias.grad();
  out.units = output->units();
  return out;
}

Outcome run_rank(const Decoder& d, int rank, int world, uint16_t port, vd::RunGroup* group0) {
  std::unique_ptr<vd::RunGroup> own;
  vd::RunGroup* group = group0;
  if (!group) {
    vd::RendezvousSpec spec;
    spec.port = port;
    spec.rank = rank;
    spec.world_size = world;
    spec.timeout = std::chrono::seconds(60);
    own = std::make_unique<vd::RunGroup>(spec);
    group = own.get();
  }
  group->join();
  return split(d, group->communicator("decoder"));
}

// Every rank's outcome, ranks running as threads.
std::vector<Outcome> run_world(const Decoder& d, int world) {
  std::vector<Decoder> copies;
  for (int r = 0; r < world; ++r) copies.push_back(d.copy());
  vd::RendezvousSpec spec;
  spec.world_size = world;
  spec.timeout = std::chrono::seconds(60);
  vd::RunGroup group0(spec);
  std::vector<std::future<Outcome>> others;
  for (int r = 1; r < world; ++r) {
    others.push_back(std::async(std::launch::async, run_rank, std::cref(copies[r]), r, world, group0.port(), nullptr));
  }
  std::vector<Outcome> result{run_rank(copies[0], 0, world, 0, &group0)};
  for (auto& other : others) result.push_back(other.get());
  return result;
}

// A rank of a run that never calls a collective: enough to build a layer.
class OneRankOf final : public vd::Communicator {
 public:
  OneRankOf(int rank, int size) : rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void allgather(const at::Tensor&, at::Tensor&) override { throw std::logic_error("no collectives here"); }
  void allreduce_sum(at::Tensor&) override { throw std::logic_error("no collectives here"); }
  void barrier() override { throw std::logic_error("no collectives here"); }

 private:
  int rank_, size_;
};

// The largest difference, relative to the largest entry of the reference.
double relative_difference(const at::Tensor& a, const at::Tensor& reference) {
  return (a - reference).abs().max().item<double>() / std::max(1e-30, reference.abs().max().item<double>());
}

}  // namespace

class TestColumnParallelLinear : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void shardsAreContiguousAndNearlyEqual_data() {
    QTest::addColumn<int>("units");
    QTest::addColumn<int>("size");
    QTest::addColumn<QList<int>>("edges");
    QTest::newRow("one rank") << 784 << 1 << QList<int>{0, 784};
    QTest::newRow("even") << 784 << 2 << QList<int>{0, 392, 784};
    QTest::newRow("uneven") << 784 << 3 << QList<int>{0, 261, 522, 784};
    QTest::newRow("one unit each") << 3 << 3 << QList<int>{0, 1, 2, 3};
  }

  void shardsAreContiguousAndNearlyEqual() {
    QFETCH(int, units);
    QFETCH(int, size);
    QFETCH(QList<int>, edges);
    for (int r = 0; r < size; ++r) {
      const auto [first, last] = column_shard(units, r, size);
      QCOMPARE(first, int64_t{edges[r]});
      QCOMPARE(last, int64_t{edges[r + 1]});
    }
  }

  void oneRankGivesTheSameBits() {
    const Decoder d = make_decoder();
    const Outcome reference = unsplit(d.copy());
    const Outcome one = split(d.copy(), std::make_shared<vd::LocalCommunicator>());
    QVERIFY(at::equal(one.loss, reference.loss));
    QVERIFY(at::equal(one.dz, reference.dz));
    QVERIFY(at::equal(one.dhidden_weight, reference.dhidden_weight));
    QVERIFY(at::equal(one.doutput_weight, reference.doutput_weight));
    QVERIFY(at::equal(one.doutput_bias, reference.doutput_bias));
  }

  void splitDecoderMatchesTheUnsplitOne_data() {
    QTest::addColumn<int>("world");
    QTest::newRow("2 ranks") << 2;
    QTest::newRow("3 ranks, uneven") << 3;
  }

  void splitDecoderMatchesTheUnsplitOne() {
    QFETCH(int, world);
    const Decoder d = make_decoder();
    const Outcome reference = unsplit(d.copy());
    const std::vector<Outcome> ranks = run_world(d, world);
    for (int r = 0; r < world; ++r) {
      const Outcome& rank = ranks[r];
      const auto [first, last] = rank.units;
      QCOMPARE(rank.units, column_shard(784, r, world));
      QCOMPARE(rank.doutput_weight.sizes().vec(), (std::vector<int64_t>{last - first, 400}));
      const std::vector<std::pair<const char*, double>> differences = {
          {"loss", relative_difference(rank.loss, reference.loss)},
          {"dL/dz", relative_difference(rank.dz, reference.dz)},
          {"dL/d hidden weight", relative_difference(rank.dhidden_weight, reference.dhidden_weight)},
          {"dL/d hidden bias", relative_difference(rank.dhidden_bias, reference.dhidden_bias)},
          {"dL/d output weight rows",
           relative_difference(rank.doutput_weight, reference.doutput_weight.narrow(0, first, last - first))},
          {"dL/d output bias rows",
           relative_difference(rank.doutput_bias, reference.doutput_bias.narrow(0, first, last - first))},
      };
      for (const auto& [what, difference] : differences) {
        qInfo("rank %d of %d: %s differs by %.3g relative", r, world, what, difference);
        QVERIFY2(difference <= kTolerance, qPrintable(QString("rank %1 of %2: %3 differs by %4 relative")
                                                         .arg(r).arg(world).arg(what).arg(difference)));
      }
    }
  }

  void holdsItsRowsOfTheFullLayer() {
    torch::nn::Linear full(4, 5);
    ColumnParallelLinear layer(full, std::make_shared<OneRankOf>(1, 2));
    QCOMPARE(layer->units(), (std::pair<int64_t, int64_t>{2, 5}));
    QVERIFY(at::equal(layer->weight, full->weight.narrow(0, 2, 3)));
    QVERIFY(at::equal(layer->bias, full->bias.narrow(0, 2, 3)));
    QCOMPARE(layer->parameters().size(), size_t{2});  // what an optimizer sees: the shard alone
  }

  void refusesFewerUnitsThanRanksAndAWrongWidth() {
    torch::nn::Linear narrow(4, 2);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, ColumnParallelLinear(narrow, std::make_shared<OneRankOf>(0, 3)));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, ColumnParallelLinear(narrow, nullptr));
    ColumnParallelLinear layer(narrow, std::make_shared<vd::LocalCommunicator>());
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, layer->forward(at::zeros({2, 3})));
  }
};

QTEST_APPLESS_MAIN(TestColumnParallelLinear)
#include "tst_column_parallel_linear.moc"
