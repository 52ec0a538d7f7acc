// A deep model written in C++ (engine/deep/amortized_program.h): a model and a guide
// program of random variables calling torch::nn modules. On the networks of the same VAE
// written in the language its ELBO of every row equals AmortizedModel's, with the KL in
// closed form or (a StudentT prior) a one-draw estimate; AmortizedFit trains it; a model
// latent without a guide, a guide variable that is not Normal, not one value per row or
// not in the model are errors that name the variable.

#include <QtTest/QtTest>
#undef slots  // Qt's keyword breaks LibTorch's jit headers, which the nn modules include
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

#include "engine/core/argument_error.h"
#include "engine/deep/amortized_fit.h"
#include "engine/deep/amortized_model.h"
#include "engine/deep/amortized_program.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/normal.h"
#include "engine/distributions/student_t.h"
#include "engine/model/compile.h"

namespace vt = variate;
namespace vd = variate::deep;

namespace {

const char* kVae = R"(data N: int
data x: real[N, 12]
z[N, 3] ~ Normal(0, 1)
decoder = mlp(z, 8, 12, activation = tanh)
x ~ Bernoulli(logits = decoder)
encoder = mlp(x, 8, 6)
guide z ~ Normal(encoder[:, 1:3], exp(encoder[:, 4:6]))
)";

vt::Data images(int64_t n) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(11);
  vt::Data data;
  data.set("x", at::rand({n, 12}, generator, at::kDouble));
  return data;
}

std::shared_ptr<torch::nn::SequentialImpl> network(vd::AmortizedModel& model, const std::string& name) {
  return std::dynamic_pointer_cast<torch::nn::SequentialImpl>(model.networks().named_children()[name]);
}

// The VAE as C++ programs on `model`'s networks; `student` gives z a StudentT prior.
struct Programs {
  vd::BatchProgram model, guide;
};

Programs vae_programs(vd::AmortizedModel& language, bool student = false) {
  auto decoder = network(language, "decoder"), encoder = network(language, "encoder");
  return {[decoder, student](const vd::Batch& b) {
            const auto z = student ? vt::StudentT("z", 4.0, 0.0, 1.0, {b.size(), 3}) : vt::Normal("z", 0.0, 1.0, {b.size(), 3});
            vt::Bernoulli("x", vt::Logits{decoder->forward(z.value())});
          },
          [encoder](const vd::Batch& b) {
            const at::Tensor h = encoder->forward(b["x"]);
            vt::Normal("z", h.slice(1, 0, 3), at::exp(h.slice(1, 3, 6)));
          }};
}

std::shared_ptr<const variate::model::CheckedModel> checked(std::string text) {
  auto result = variate::model::compile_model(variate::model::Source("vae.vmod", std::move(text)));
  if (!result.ok()) throw std::runtime_error(result.report());
  return result.checked;
}

QString error_of(const vd::BatchProgram& model, const vd::BatchProgram& guide) {
  torch::nn::Module none;
  try {
    vd::AmortizedProgram program(model, guide, none, images(4));
    return "no error";
  } catch (const vt::ArgumentError& e) {
    return e.what();
  }
}

}  // namespace

class TestAmortizedProgram : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { at::set_num_threads(1); }

  void itsElboIsTheLanguageModels() {
    for (const bool student : {false, true}) {
      std::string text = kVae;
      if (student) text.replace(text.find("z[N, 3] ~ Normal(0, 1)"), 22, "z[N, 3] ~ StudentT(4, 0, 1)");
      vd::AmortizedModel language(checked(text), images(10));
      const Programs programs = vae_programs(language, student);
      vd::AmortizedProgram program(programs.model, programs.guide, language.networks(), images(10));
      QCOMPARE(program.rows(), int64_t{10});
      QCOMPARE(program.noise_width(), int64_t{3});
      QCOMPARE(program.latents().front().first, std::string("z"));
      const at::Tensor rows = at::tensor({3, 0, 7, 7}, at::kLong);
      const at::Tensor noise = at::randn({4, 3});
      const at::Tensor a = program.row_elbo(rows, noise, false), b = language.row_elbo(rows, noise, false);
      QVERIFY2(at::allclose(a, b, 1e-5, 1e-4), qPrintable(QString("%1 vs %2").arg(a.sum().item<double>()).arg(b.sum().item<double>())));
    }
  }

  void anAmortizedFitTrainsIt() {
    vd::AmortizedModel language(checked(kVae), images(48));
    const Programs programs = vae_programs(language);
    vd::AmortizedProgram program(programs.model, programs.guide, language.networks(), images(48));
    program.set_heldout(images(16));
    vd::AmortizedFitOptions options;
    options.epochs = 20;
    options.batch_size = 16;
    options.learning_rate = 1e-2;
    vd::AmortizedFit fit(program, options);
    const double before = fit.heldout_elbo(3);
    const auto result = fit.run();
    QCOMPARE(result.steps, int64_t{60});
    QVERIFY2(*result.heldout_elbo > before + 0.3, qPrintable(QString("%1 -> %2").arg(before).arg(*result.heldout_elbo)));
  }

  void mistakesNameTheVariable() {
    auto decoder = torch::nn::Sequential(torch::nn::Linear(3, 12));
    const vd::BatchProgram model = [decoder](const vd::Batch& b) mutable {
      const auto z = vt::Normal("z", 0.0, 1.0, {b.size(), 3});
      vt::Bernoulli("x", vt::Logits{decoder->forward(z.value())});
    };
    QCOMPARE(error_of(model, [](const vd::Batch&) {}),
             QString("the model's latent variable 'z' has no guide: give the guide a Normal variable of that name "
                     "with one value per row"));
    QCOMPARE(error_of(model, [](const vd::Batch& b) { vt::StudentT("z", 3.0, 0.0, 1.0, {b.size(), 3}); }),
             QString("the guide's variable 'z' is StudentT; guide variables are Normal (their draws are "
                     "reparameterized)"));
    QCOMPARE(error_of(model, [](const vd::Batch&) { vt::Normal("z", 0.0, 1.0, {3}); }),
             QString("the guide's variable 'z' has shape [3], not one value per row of the batch (2 rows first)"));
    QCOMPARE(error_of(model, [](const vd::Batch& b) {
               vt::Normal("z", 0.0, 1.0, {b.size(), 3});
               vt::Normal("w", 0.0, 1.0, {b.size()});
             }),
             QString("the guide's variable 'w' is not a latent variable of the model"));
    QCOMPARE(error_of(model, [](const vd::Batch& b) { vt::Normal("z", 0.0, 1.0, {b.size(), 4}); }),
             QString("'z' is [2, 3] in the model but [2, 4] in the guide"));
  }
};

QTEST_GUILESS_MAIN(TestAmortizedProgram)
#include "tst_amortized_program.moc"
