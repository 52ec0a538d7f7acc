// Deep models in the language (model/network_call.h, guide statements) and their
// minibatch ELBO (engine/deep): located errors for wrong networks and guides; the ELBO of
// a row equals the same VAE computed by hand from the networks' weights (analytic KL for
// a Normal prior, a one-draw estimate otherwise); training raises the ELBO; a fit resumed
// from a checkpoint ends with the weights of one that never stopped; 2 ranks (threads,
// each with its own c10d group over a TCP store on 127.0.0.1 at a port the system picks)
// end with the bits of 1 rank computing the same two gradient shards, whether they
// allreduce the gradients or sum them in shared memory (across a resume too).

#include <future>

#include <QtTest/QtTest>
#undef slots  // Qt's keyword breaks LibTorch's jit headers, which the nn modules include
#include <torch/nn/modules/container/sequential.h>

#include "engine/deep/amortized_fit.h"
#include "engine/deep/amortized_model.h"
#include "engine/distributed/run_group.h"
#include "engine/model/compile.h"
#include "engine/model/model_error.h"

namespace vd = variate::distributed;
namespace vm = variate::model;
using variate::deep::AmortizedFit;
using variate::deep::AmortizedFitOptions;
using variate::deep::AmortizedModel;

namespace {

const char* kVae = R"(data N: int
data x: real[N, 12]
z[N, 3] ~ Normal(0, 1)
decoder = mlp(z, 8, 12, activation = tanh)
x ~ Bernoulli(logits = decoder)
encoder = mlp(x, 8, 6)
guide z ~ Normal(encoder[:, 1:3], exp(encoder[:, 4:6]))
)";

variate::Data images(int64_t n, uint64_t seed = 3) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  variate::Data data;
  data.set("x", at::rand({n, 12}, generator, at::kDouble));
  return data;
}

// Rows near one of two patterns: something an autoencoder can learn.
variate::Data patterns(int64_t n, uint64_t seed) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  const at::Tensor a = (at::arange(12) % 2).to(at::kDouble), b = (at::arange(12) < 6).to(at::kDouble);
  const at::Tensor which = at::rand({n, 1}, generator, at::kDouble) < 0.5;
  const at::Tensor clean = at::where(which, a, b);
  variate::Data data;
  data.set("x", (0.9 * clean + 0.05 + 0.04 * (at::rand({n, 12}, generator, at::kDouble) - 0.5)));
  return data;
}

std::shared_ptr<const vm::CheckedModel> checked(const std::string& text) {
  auto result = vm::compile_model(vm::Source("vae.vmod", text));
  if (!result.ok()) throw std::runtime_error(result.report());
  return result.checked;
}

// The first error's "line:column: message" of a model that does not check.
QString check_error(const std::string& text) {
  auto result = vm::compile_model(vm::Source("m.vmod", text));
  if (result.ok()) return "no error";
  const auto& d = result.diagnostics[0];
  const auto at = result.source->location(d.span.begin);
  return QString("%1:%2: %3").arg(at.line).arg(at.column).arg(QString::fromStdString(d.message));
}

// The error an AmortizedModel reports for a model that checks.
QString bind_error(const std::string& text, const variate::Data& data) {
  auto result = vm::compile_model(vm::Source("m.vmod", text));
  if (!result.ok()) return "check: " + QString::fromStdString(result.report());
  try {
    AmortizedModel model(result.checked, data);
    return "no error";
  } catch (const vm::ModelError& e) {
    const auto at = result.source->location(e.span().begin);
    return QString("%1:%2: %3").arg(at.line).arg(at.column).arg(e.what());
  }
}

std::vector<at::Tensor> weights(AmortizedModel& model) {
  std::vector<at::Tensor> result;
  for (const auto& p : model.networks().parameters()) result.push_back(p.detach().clone());
  return result;
}

bool same_bits(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!at::equal(a[i], b[i])) return false;
  }
  return true;
}

AmortizedFitOptions fit_options(int shards) {
  AmortizedFitOptions options;
  options.epochs = 100;
  options.batch_size = 16;
  options.seed = 5;
  options.max_steps = 40;
  options.gradient_shards = shards;
  return options;
}

}  // namespace

class TestAmortizedModel : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void networksAndGuidesCheck() {
    const auto model = checked(kVae);
    QVERIFY(model->is_deep());
    QCOMPARE(model->find("decoder")->kind, vm::NodeKind::network);
    QCOMPARE(model->find("encoder")->kind, vm::NodeKind::network);
    QCOMPARE(model->find("z")->kind, vm::NodeKind::latent);
    QVERIFY(model->find("z")->guide.has_value());
    // The guide comes before the prior that scores its draw, and before the decoder.
    const auto& order = model->evaluation_order;
    const auto position = [&](size_t s) { return std::find(order.begin(), order.end(), s) - order.begin(); };
    QVERIFY(position(*model->find("z")->guide) < position(*model->find("z")->distribution));
    QVERIFY(position(*model->find("z")->guide) < position(*model->find("decoder")->assignment));
  }

  void wrongNetworksAndGuidesAreLocated() {
    QCOMPARE(check_error("data x: real[3, 2]\nh = exp(mlp(x, 4))\n"),
             QString("2:9: mlp(...) declares a network: give it a statement of its own, as in "
                     "`h = mlp(x, 400, 20)`, and use its name here"));
    QCOMPARE(check_error("data x: real[3, 2]\nh = mlp(x, 4.5)\n"),
             QString("2:12: a layer width must be a positive whole number, as in mlp(x, 400, 20)"));
    QCOMPARE(check_error("data x: real[3, 2]\nh = mlp(x, 4, activation = relux)\n"),
             QString("2:28: the activation must be relu, tanh, sigmoid, softplus or elu"));
    QCOMPARE(check_error("data x: real[3, 2]\nh = mlp(x)\n"),
             QString("2:5: mlp takes an input and at least one layer width, as in mlp(x, 400, 20, activation = relu)"));
    QCOMPARE(check_error("data x: real[3, 2]\nguide x ~ Normal(0, 1)\n"),
             QString("2:7: 'x' is not a latent variable; a guide is the variational family of one, as in "
                     "`z[N, 20] ~ Normal(0, 1)` with `guide z ~ Normal(...)`"));
    // A guide with no prior (once a crash the fuzzer found).
    QCOMPARE(check_error("data N: int\nguide z ~ Normal(0, 1)\n"),
             QString("2:7: 'z' is not a latent variable; a guide is the variational family of one, as in "
                     "`z[N, 20] ~ Normal(0, 1)` with `guide z ~ Normal(...)`"));
    QCOMPARE(check_error("data N: int\nz[N] ~ Normal(0, 1)\nguide z ~ Cauchy(0, 1)\n"),
             QString("3:11: a guide is Normal(loc, scale) for now (its draws are reparameterized); 'Cauchy' is not"));
    QCOMPARE(check_error("data N: int\nmu ~ Normal(0, 1)\nz[N] ~ Normal(mu, 1)\nguide z ~ Normal(mu, 1)\n"),
             QString("4:18: a guide reads the data and networks only, but 'mu' is a latent variable"));
    QCOMPARE(check_error("data N: int\nz[N] ~ Normal(0, 1)\nguide z ~ Normal(0, 1)\nguide z ~ Normal(0, 2)\n"),
             QString("4:7: 'z' is already given a guide (line 3)"));
  }

  void wrongShapesAreLocatedWhenBound() {
    const auto data = images(5);
    // A decoder of 11 outputs for 12 pixels.
    std::string text = kVae;
    text.replace(text.find("8, 12,"), 6, "8, 11,");
    QCOMPARE(bind_error(text, data),
             QString("5:5: Bernoulli(...) for 'x' gives [N, 11] values, but it is [N, 12]"));
    // A guide of the wrong width.
    text = kVae;
    text.replace(text.find("Normal(encoder[:, 1:3], exp(encoder[:, 4:6]))"), 45,
                 "Normal(encoder[:, 1:2], exp(encoder[:, 4:5]))");
    QCOMPARE(bind_error(text, data), QString("7:11: the guide of 'z' gives [N, 2] values, but it is [N, 3]"));
    // Location and scale that do not broadcast.
    text = kVae;
    text.replace(text.find("encoder[:, 1:3]"), 15, "encoder[:, 1:2]");
    QVERIFY2(bind_error(text, data).startsWith("7:11: "), qPrintable(bind_error(text, data)));
    // A latent without a guide.
    variate::Data pairs;
    pairs.set("x", at::zeros({5, 2}, at::kDouble));
    QCOMPARE(bind_error("data N: int\ndata x: real[N, 2]\ns ~ HalfNormal(1)\nh = mlp(x, 2)\nx ~ Normal(h, s)\n", pairs),
             QString("3:1: 's' has no guide: in a model with networks every latent variable has one value per "
                     "observation and a guide, as in `guide s ~ Normal(loc, scale)`"));
    // Data outside [0, 1] for a Bernoulli likelihood.
    variate::Data counts;
    counts.set("x", at::full({4, 12}, 3.0, at::kDouble));
    QCOMPARE(bind_error(kVae, counts), QString("5:1: 'x' has values outside [0, 1], where a Bernoulli likelihood "
                                               "has none (intensities must be scaled to [0, 1])"));
  }

  void rowElboIsTheVaeComputedByHand() {
    const auto data = images(6);
    AmortizedModel model(checked(kVae), data);
    QCOMPARE(model.rows(), int64_t{6});
    QCOMPARE(model.noise_width(), int64_t{3});
    QVERIFY(model.latents().front().analytic_kl);
    const at::Tensor rows = at::tensor({4, 1, 5}, at::kLong);
    const at::Tensor noise = at::randn({3, 3}, at::kFloat);
    const at::Tensor elbo = model.row_elbo(rows, noise);

    auto children = model.networks().named_children();
    auto decoder = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(children["decoder"]);
    auto encoder = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(children["encoder"]);
    QVERIFY(decoder && encoder);
    at::NoGradGuard no_grad;
    const at::Tensor x = data["x"].index_select(0, rows).to(at::kFloat);
    const at::Tensor e = encoder->forward(x);
    const at::Tensor mean = e.slice(1, 0, 3), log_scale = e.slice(1, 3, 6);
    const at::Tensor z = mean + at::exp(log_scale) * noise;
    const at::Tensor logits = decoder->forward(z);
    const at::Tensor expected = (x * logits - at::softplus(logits)).sum(1) -
                                0.5 * (mean.square() + at::exp(2 * log_scale) - 1 - 2 * log_scale).sum(1);
    QVERIFY2(at::allclose(elbo, expected, 1e-5, 1e-4), qPrintable(QString("%1 vs %2")
                                                                      .arg(elbo.sum().item<double>())
                                                                      .arg(expected.sum().item<double>())));
  }

  void aNonNormalPriorUsesTheOneDrawEstimate() {
    std::string text = kVae;
    text.replace(text.find("z[N, 3] ~ Normal(0, 1)"), 22, "z[N, 3] ~ StudentT(4, 0, 1)");
    AmortizedModel model(checked(text), images(6));
    QVERIFY(!model.latents().front().analytic_kl);
    const at::Tensor rows = at::tensor({0, 2}, at::kLong);
    const at::Tensor noise = at::randn({2, 3}, at::kFloat);
    auto children = model.networks().named_children();
    auto decoder = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(children["decoder"]);
    auto encoder = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(children["encoder"]);
    at::NoGradGuard no_grad;
    const at::Tensor x = images(6)["x"].index_select(0, rows).to(at::kFloat);
    const at::Tensor e = encoder->forward(x);
    const at::Tensor mean = e.slice(1, 0, 3), scale = at::exp(e.slice(1, 3, 6));
    const at::Tensor z = mean + scale * noise;
    const at::Tensor logits = decoder->forward(z);
    // log StudentT(z | 4, 0, 1) and log Normal(z | mean, scale), elementwise.
    const double nu = 4;
    const at::Tensor log_prior = std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) - 0.5 * std::log(nu * M_PI) -
                                 (nu + 1) / 2 * at::log1p(z.square() / nu);
    const at::Tensor log_guide = -0.5 * ((z - mean) / scale).square() - at::log(scale) - 0.5 * std::log(2 * M_PI);
    const at::Tensor expected = (x * logits - at::softplus(logits)).sum(1) + (log_prior - log_guide).sum(1);
    QVERIFY(at::allclose(model.row_elbo(rows, noise), expected.to(at::kFloat), 1e-5, 1e-4));
  }

  void trainingRaisesTheElbo() {
    AmortizedModel model(checked(kVae), patterns(64, 1));
    model.bind_heldout(patterns(32, 9));
    AmortizedFitOptions options;
    options.epochs = 30;
    options.batch_size = 16;
    options.learning_rate = 1e-2;
    options.seed = 2;
    AmortizedFit fit(model, options);
    const double before = fit.heldout_elbo(1);
    const auto result = fit.run();
    QCOMPARE(result.epochs, 30);
    QCOMPARE(result.steps, int64_t{120});
    QVERIFY(result.heldout_elbo.has_value());
    QVERIFY2(*result.heldout_elbo > before + 1.0, qPrintable(QString("%1 -> %2").arg(before).arg(*result.heldout_elbo)));
    qInfo("held-out ELBO per row: %.3f before, %.3f after 30 epochs", before, *result.heldout_elbo);
    // Reconstructions are probabilities of the pixels.
    const at::Tensor images = model.reconstruct(at::arange(4, at::kLong));
    QCOMPARE(images.sizes().vec(), (std::vector<int64_t>{4, 12}));
    QVERIFY(((images >= 0) & (images <= 1)).all().item<bool>());
    QCOMPARE(model.sample_prior(at::randn({5, 3})).sizes().vec(), (std::vector<int64_t>{5, 12}));
    QCOMPARE(model.encode(at::arange(4, at::kLong)).sizes().vec(), (std::vector<int64_t>{4, 3}));
  }

  void aPausedFitWaitsBetweenSteps() {
    struct Counter : variate::deep::AmortizedFitObserver {
      std::atomic<int64_t> steps{0};
      void on_steps(const std::vector<variate::deep::TrainingStep>& s) override { steps += static_cast<int64_t>(s.size()); }
    } counter;
    AmortizedModel model(checked(kVae), images(40));
    AmortizedFit fit(model, fit_options(1));
    std::atomic<bool> pause{true}, stop{false};
    auto running = std::async(std::launch::async, [&] { return fit.run(&counter, &stop, &pause); });
    QTest::qWait(300);
    QCOMPARE(counter.steps.load(), int64_t{0});
    pause = false;
    QCOMPARE(running.get().steps, int64_t{40});
    QCOMPARE(counter.steps.load(), int64_t{40});
  }

  void aResumedFitEndsWithTheSameWeights() {
    const auto data = images(40);
    AmortizedModel whole(checked(kVae), data);
    AmortizedFit(whole, fit_options(1)).run();

    AmortizedModel first(checked(kVae), data);
    auto options = fit_options(1);
    options.max_steps = 13;  // stops mid-epoch (3 steps per epoch)
    AmortizedFit part(first, options);
    QCOMPARE(part.run().status, variate::deep::AmortizedFitStatus::max_steps);
    const auto checkpoint = part.checkpoint();
    QCOMPARE(checkpoint.step, int64_t{13});
    QCOMPARE(checkpoint.epoch, 5);
    QCOMPARE(checkpoint.epoch_step, int64_t{1});

    AmortizedModel second(checked(kVae), data);  // fresh weights, replaced by the checkpoint's
    AmortizedFit rest(second, fit_options(1));
    rest.resume(checkpoint);
    QCOMPARE(rest.run().steps, int64_t{40});
    QVERIFY(same_bits(weights(whole), weights(second)));
    QVERIFY(!same_bits(weights(whole), weights(first)));
  }

  void twoRanksGiveTheBitsOfOneWithTwoShards() {
    const auto data = images(40);
    AmortizedModel one(checked(kVae), data);
    AmortizedFit(one, fit_options(2)).run();
    AmortizedModel unsharded(checked(kVae), data);
    AmortizedFit(unsharded, fit_options(1)).run();

    vd::RendezvousSpec spec;
    spec.port = 0;
    spec.rank = 0;
    spec.world_size = 2;
    spec.timeout = std::chrono::seconds(60);
    vd::RunGroup group0(spec);
    const uint16_t port = group0.port();
    auto rank1 = std::async(std::launch::async, [&] {
      vd::RendezvousSpec s = spec;
      s.rank = 1;
      s.port = port;
      vd::RunGroup group(s);
      group.join();
      AmortizedModel model(checked(kVae), data);
      AmortizedFit(model, fit_options(0), group.communicator("fit")).run();
      return weights(model);
    });
    group0.join();
    AmortizedModel model(checked(kVae), data);
    AmortizedFit(model, fit_options(0), group0.communicator("fit")).run();
    const auto w1 = rank1.get();
    QVERIFY(same_bits(weights(model), w1));
    QVERIFY(same_bits(weights(model), weights(one)));
    // Shards are summed apart: the bits differ from one gradient of the whole batch, the
    // weights barely.
    QVERIFY(!same_bits(weights(one), weights(unsharded)));
    for (size_t i = 0; i < w1.size(); ++i) {
      QVERIFY(at::allclose(weights(one)[i], weights(unsharded)[i], 1e-3, 1e-4));
    }
  }

  // Ranks on one host share the weights and sum the gradient slots in memory; a training
  // stopped and resumed from rank 0's checkpoint in the middle ends the same.
  void twoRanksSharingMemoryGiveTheSameBitsAcrossAResume() {
    const auto data = images(40);
    AmortizedModel one(checked(kVae), data);
    AmortizedFit(one, fit_options(2)).run();

    vd::RendezvousSpec spec;
    spec.port = 0;
    spec.rank = 0;
    spec.world_size = 2;
    spec.timeout = std::chrono::seconds(60);
    vd::RunGroup group0(spec);
    const uint16_t port = group0.port();
    std::promise<variate::deep::TrainingCheckpoint> handed;
    auto handed_over = handed.get_future().share();
    const auto train = [&](vd::RunGroup& group) {
      group.join();
      const auto communicator = group.communicator("fit");
      auto options = fit_options(0);
      options.share_memory = true;
      options.max_steps = 13;
      AmortizedModel first(checked(kVae), data);
      AmortizedFit part(first, options, communicator);
      part.run();
      if (group.rank() == 0) handed.set_value(part.checkpoint());
      options.max_steps = 40;
      AmortizedModel second(checked(kVae), data);
      AmortizedFit rest(second, options, communicator);
      rest.resume(handed_over.get());
      rest.run();
      return weights(second);
    };
    auto rank1 = std::async(std::launch::async, [&] {
      vd::RendezvousSpec s = spec;
      s.rank = 1;
      s.port = port;
      vd::RunGroup group(s);
      return train(group);
    });
    const auto w0 = train(group0);
    QVERIFY(same_bits(w0, rank1.get()));
    QVERIFY(same_bits(w0, weights(one)));
  }
};

QTEST_GUILESS_MAIN(TestAmortizedModel)
#include "tst_amortized_model.moc"
