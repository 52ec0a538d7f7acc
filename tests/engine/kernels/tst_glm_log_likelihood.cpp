// The fused GLM likelihoods against the elementwise families differentiated by autograd:
// value and gradient agree to 1e-10 relative in float64 for every family, for empty,
// single-row and multi-chunk data, one point or a batch; float32 data agrees to float
// rounding; bad shapes throw.

#include <cmath>
#include <memory>

#include <ATen/Parallel.h>
#include <QtTest/QtTest>
#include <torch/csrc/autograd/autograd.h>

#include "engine/core/checks.h"
#include "engine/distributions/bernoulli.h"
#include "engine/distributions/binomial.h"
#include "engine/distributions/normal.h"
#include "engine/distributions/poisson.h"
#include "engine/kernels/glm_likelihood.h"
#include "engine/kernels/glm_log_likelihood.h"

Q_DECLARE_METATYPE(variate::kernels::GlmFamily)

namespace vk = variate::kernels;
namespace vd = variate::distributions;
using vk::GlmFamily;

namespace {

struct Problem {
  at::Tensor X;  // [N, K] float64
  at::Tensor y;  // [N]
  at::Tensor trials;  // binomial
};

// Data whose linear predictor spans a few units (and reaches +-45 with `extreme`).
Problem make_problem(GlmFamily family, int64_t N, int64_t K, uint64_t seed, bool extreme = false) {
  at::manual_seed(static_cast<int64_t>(seed));
  Problem p;
  p.X = at::randn({N, K}, at::kDouble) * (extreme ? 30.0 : 1.0) / std::sqrt(static_cast<double>(K));
  switch (family) {
    case GlmFamily::normal: p.y = at::randn({N}, at::kDouble) * 2; break;
    case GlmFamily::bernoulli_logit: p.y = at::randint(0, 2, {N}, at::kLong); break;
    case GlmFamily::poisson_log: p.y = at::randint(0, 9, {N}, at::kLong); break;
    case GlmFamily::binomial_logit:
      p.trials = at::randint(1, 12, {N}, at::kLong);
      p.y = at::floor(at::rand({N}, at::kDouble) * (p.trials + 1)).to(at::kLong);
      break;
  }
  return p;
}

// The same log likelihood through the engine's elementwise families and autograd.
at::Tensor reference(GlmFamily family, const Problem& p, const at::Tensor& alpha, const at::Tensor& beta,
                     const at::Tensor& sigma) {
  at::Tensor eta = beta.dim() == 1 ? at::mv(p.X, beta) : at::matmul(beta, p.X.t());
  if (alpha.defined()) eta = eta + (alpha.dim() == 1 ? alpha.unsqueeze(1) : alpha);
  variate::ValidationGuard no_checks(false);
  at::Tensor lp;
  switch (family) {
    case GlmFamily::normal:
      lp = vd::Normal(eta, sigma.dim() == 1 ? sigma.unsqueeze(1) : sigma).log_prob(p.y);
      break;
    case GlmFamily::bernoulli_logit: lp = vd::Bernoulli(variate::Logits{eta}).log_prob(p.y); break;
    case GlmFamily::poisson_log: lp = vd::Poisson(variate::LogRate{eta}).log_prob(p.y); break;
    case GlmFamily::binomial_logit:
      lp = vd::Binomial(p.trials.to(at::kDouble), variate::Logits{eta}).log_prob(p.y);
      break;
  }
  return lp.sum(-1);
}

struct Evaluated {
  at::Tensor lp;
  std::vector<at::Tensor> gradients;  // alpha, beta, sigma (undefined where absent)
};

template <class F>
Evaluated evaluate(const F& f, at::Tensor alpha, at::Tensor beta, at::Tensor sigma) {
  std::vector<at::Tensor> inputs;
  for (at::Tensor* t : {&alpha, &beta, &sigma}) {
    if (!t->defined()) continue;
    *t = t->detach().clone().requires_grad_(true);
    inputs.push_back(*t);
  }
  const at::Tensor lp = f(alpha, beta, sigma);
  const auto grads = torch::autograd::grad({lp.sum()}, inputs, {}, false, false, true);
  Evaluated result{lp.detach(), {}};
  size_t next = 0;
  for (const at::Tensor* t : {&alpha, &beta, &sigma}) {
    result.gradients.push_back(t->defined() ? grads[next++] : at::Tensor());
  }
  return result;
}

// max |a - b| <= tolerance * max(|b|, 1e-300), tensor-wise.
bool close(const at::Tensor& a, const at::Tensor& b, double tolerance) {
  if (a.numel() == 0 && b.numel() == 0) return true;
  const double scale = std::max(b.abs().max().item<double>(), 1e-300);
  return (a.to(at::kDouble) - b).abs().max().item<double>() <= tolerance * scale;
}

QString describe(const at::Tensor& a, const at::Tensor& b) {
  return QString("fused %1 vs autograd %2")
      .arg(QString::fromStdString(at::toString(a.scalar_type())))
      .arg((a.to(at::kDouble) - b).abs().max().item<double>(), 0, 'g', 6);
}

void add_families() {
  QTest::addColumn<GlmFamily>("family");
  QTest::newRow("normal") << GlmFamily::normal;
  QTest::newRow("bernoulli_logit") << GlmFamily::bernoulli_logit;
  QTest::newRow("poisson_log") << GlmFamily::poisson_log;
  QTest::newRow("binomial_logit") << GlmFamily::binomial_logit;
}

std::shared_ptr<const vk::GlmData> data_of(GlmFamily family, const Problem& p, at::ScalarType dtype = at::kDouble) {
  return std::make_shared<const vk::GlmData>(vk::GlmData::make(family, p.X.to(dtype), p.y, p.trials));
}

}  // namespace

class TestGlmLogLikelihood : public QObject {
  Q_OBJECT

 private slots:
  // Sizes: empty, one row, one chunk, several chunks with a partial last one; K not a
  // multiple of the kernel's four-column sweep; with and without intercept.
  void matchesAutograd_data() {
    QTest::addColumn<GlmFamily>("family");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::addColumn<bool>("intercept");
    QTest::addColumn<bool>("extreme");
    const std::vector<std::pair<const char*, GlmFamily>> families = {
        {"normal", GlmFamily::normal}, {"bernoulli", GlmFamily::bernoulli_logit},
        {"poisson", GlmFamily::poisson_log}, {"binomial", GlmFamily::binomial_logit}};
    for (const auto& [name, family] : families) {
      const std::string n(name);
      QTest::newRow((n + " N=0").c_str()) << family << 0 << 3 << true << false;
      QTest::newRow((n + " N=1").c_str()) << family << 1 << 3 << true << false;
      QTest::newRow((n + " N=1 no intercept").c_str()) << family << 1 << 1 << false << false;
      QTest::newRow((n + " N=300 K=7").c_str()) << family << 300 << 7 << true << false;
      QTest::newRow((n + " N=2000 K=70 chunks").c_str()) << family << 2000 << 70 << false << false;
    }
    QTest::newRow("bernoulli large logits") << GlmFamily::bernoulli_logit << 3000 << 5 << true << true;
    QTest::newRow("binomial large logits") << GlmFamily::binomial_logit << 3000 << 5 << true << true;
  }
  void matchesAutograd() {
    QFETCH(GlmFamily, family);
    QFETCH(int, rows);
    QFETCH(int, columns);
    QFETCH(bool, intercept);
    QFETCH(bool, extreme);
    const Problem p = make_problem(family, rows, columns, 3 + rows, extreme);
    const auto data = data_of(family, p);
    const at::Tensor alpha = intercept ? at::full({}, 0.3, at::kDouble) : at::Tensor();
    const at::Tensor beta = at::randn({columns}, at::kDouble) * 0.7;
    const at::Tensor sigma = family == GlmFamily::normal ? at::full({}, 1.7, at::kDouble) : at::Tensor();
    const auto fused = evaluate([&](auto a, auto b, auto s) { return vk::glm_log_likelihood(data, a, b, s); },
                                alpha, beta, sigma);
    const auto expected = evaluate([&](auto a, auto b, auto s) { return reference(family, p, a, b, s); },
                                   alpha, beta, sigma);
    QCOMPARE(fused.lp.dim(), 0);
    QCOMPARE(fused.lp.scalar_type(), at::kDouble);
    QVERIFY2(close(fused.lp, expected.lp, 1e-10), qPrintable(describe(fused.lp, expected.lp)));
    for (size_t i = 0; i < 3; ++i) {
      QCOMPARE(fused.gradients[i].defined(), expected.gradients[i].defined());
      if (!fused.gradients[i].defined()) continue;
      QCOMPARE(fused.gradients[i].sizes(), expected.gradients[i].sizes());
      QVERIFY2(close(fused.gradients[i], expected.gradients[i], 1e-10),
               qPrintable(QString("input %1: ").arg(i) + describe(fused.gradients[i], expected.gradients[i])));
    }
  }

  // B points at once: batched alpha, beta and sigma, and unbatched ones shared by all
  // points (their gradient sums over the batch).
  void batchMatchesAutograd_data() { add_families(); }
  void batchMatchesAutograd() {
    QFETCH(GlmFamily, family);
    const Problem p = make_problem(family, 700, 9, 17);
    const auto data = data_of(family, p);
    const int64_t B = 3;
    const bool normal = family == GlmFamily::normal;
    for (const bool shared_alpha : {false, true}) {
      const at::Tensor alpha = shared_alpha ? at::full({}, -0.2, at::kDouble) : at::randn({B}, at::kDouble);
      const at::Tensor beta = at::randn({B, 9}, at::kDouble) * 0.5;
      const at::Tensor sigma = normal ? (shared_alpha ? at::full({}, 2.0, at::kDouble) : at::rand({B}, at::kDouble) + 0.5)
                                      : at::Tensor();
      const auto fused = evaluate([&](auto a, auto b, auto s) { return vk::glm_log_likelihood(data, a, b, s); },
                                  alpha, beta, sigma);
      const auto expected = evaluate([&](auto a, auto b, auto s) { return reference(family, p, a, b, s); },
                                     alpha, beta, sigma);
      QCOMPARE(fused.lp.sizes(), expected.lp.sizes());
      QVERIFY2(close(fused.lp, expected.lp, 1e-10), qPrintable(describe(fused.lp, expected.lp)));
      for (size_t i = 0; i < 3; ++i) {
        if (!expected.gradients[i].defined()) continue;
        QCOMPARE(fused.gradients[i].sizes(), expected.gradients[i].sizes());
        QVERIFY2(close(fused.gradients[i], expected.gradients[i], 1e-10),
                 qPrintable(QString("input %1: ").arg(i) + describe(fused.gradients[i], expected.gradients[i])));
      }
    }
  }

  // float32 data is summed in float64: the value and gradient agree with float64 to the
  // rounding of the float32 data and linear predictor.
  void float32MatchesFloat64_data() { add_families(); }
  void float32MatchesFloat64() {
    QFETCH(GlmFamily, family);
    Problem p = make_problem(family, 5000, 12, 5);
    p.X = p.X.to(at::kFloat).to(at::kDouble);  // the same numbers in both dtypes
    const auto data32 = data_of(family, p, at::kFloat);
    const at::Tensor alpha = at::full({}, 0.1, at::kFloat);
    const at::Tensor beta = (at::randn({12}, at::kDouble) * 0.5).to(at::kFloat);
    const at::Tensor sigma = family == GlmFamily::normal ? at::full({}, 1.5, at::kFloat) : at::Tensor();
    const auto fused = evaluate([&](auto a, auto b, auto s) { return vk::glm_log_likelihood(data32, a, b, s); },
                                alpha, beta, sigma);
    const auto expected = evaluate(
        [&](auto a, auto b, auto s) {
          return reference(family, p, a.to(at::kDouble), b.to(at::kDouble), s.defined() ? s.to(at::kDouble) : s);
        },
        alpha, beta, sigma);
    QCOMPARE(fused.lp.scalar_type(), at::kDouble);
    QCOMPARE(fused.gradients[1].scalar_type(), at::kFloat);
    QVERIFY2(close(fused.lp, expected.lp, 1e-6), qPrintable(describe(fused.lp, expected.lp)));
    QVERIFY2(close(fused.gradients[1], expected.gradients[1], 1e-4),
             qPrintable(describe(fused.gradients[1], expected.gradients[1])));
  }

  // Results do not depend on the number of threads: chunks are summed in a fixed order.
  void independentOfThreadCount() {
    const Problem p = make_problem(GlmFamily::bernoulli_logit, 50000, 40, 9);
    const auto data = data_of(GlmFamily::bernoulli_logit, p);
    const at::Tensor beta = at::randn({40}, at::kDouble).requires_grad_(true);
    const int previous = at::get_num_threads();
    std::vector<std::pair<double, at::Tensor>> results;
    for (const int threads : {1, 2, 3}) {
      at::set_num_threads(threads);
      const at::Tensor lp = vk::glm_log_likelihood(data, {}, beta);
      const auto g = torch::autograd::grad({lp}, {beta});
      results.push_back({lp.item<double>(), g[0]});
    }
    at::set_num_threads(previous);
    for (const auto& [lp, g] : results) {
      QCOMPARE(lp, results[0].first);
      QVERIFY(at::equal(g, results[0].second));
    }
  }

  void distributionScoresOtherOutcomes() {
    const Problem p = make_problem(GlmFamily::poisson_log, 50, 4, 21);
    const auto data = data_of(GlmFamily::poisson_log, p);
    const at::Tensor beta = at::randn({4}, at::kDouble) * 0.3;
    const vk::GlmLikelihood likelihood(data, at::full({}, 0.5, at::kDouble), beta);
    QCOMPARE(likelihood.event_shape(), variate::Shape({50}));
    QVERIFY(likelihood.batch_shape().empty());
    const at::Tensor other = at::randint(0, 5, {2, 50}, at::kLong);
    const at::Tensor lp = likelihood.log_prob(other);
    QCOMPARE(lp.sizes(), at::IntArrayRef({2}));
    Problem q = p;
    q.y = other[1];
    const at::Tensor expected = reference(GlmFamily::poisson_log, q, at::full({}, 0.5, at::kDouble), beta, {});
    QVERIFY(close(lp[1], expected, 1e-10));
    const at::Tensor draws = likelihood.sample({3}, at::detail::getDefaultCPUGenerator());
    QCOMPARE(draws.sizes(), at::IntArrayRef({3, 50}));
    QVERIFY((draws >= 0).all().item<bool>());
  }

  void rejectsBadArguments() {
    const Problem p = make_problem(GlmFamily::normal, 10, 3, 1);
    const auto data = data_of(GlmFamily::normal, p);
    const at::Tensor sigma = at::ones({}, at::kDouble);
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vk::glm_log_likelihood(data, {}, at::zeros({4}, at::kDouble), sigma));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vk::glm_log_likelihood(data, {}, at::zeros({3}, at::kDouble)));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError,
                             vk::glm_log_likelihood(data, at::zeros({2}, at::kDouble), at::zeros({3, 3}, at::kDouble), sigma));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vk::GlmData::make(GlmFamily::normal, p.X, at::zeros({9})));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vk::GlmData::make(GlmFamily::binomial_logit, p.X, p.y));
  }

  // A column-major X is used where it lies; a row-major one is laid out once.
  void columnMajorDesignIsNotCopied() {
    const at::Tensor columns = at::randn({3, 20}, at::kDouble);
    const auto data = vk::GlmData::make(GlmFamily::normal, columns.t(), at::zeros({20}, at::kDouble));
    QCOMPARE(data.x_columns.data_ptr(), columns.data_ptr());
    const auto copied = vk::GlmData::make(GlmFamily::normal, columns.t().contiguous(), at::zeros({20}, at::kDouble));
    QVERIFY(copied.x_columns.is_contiguous());
    QVERIFY(at::equal(copied.x_columns, columns));
  }
};

QTEST_APPLESS_MAIN(TestGlmLogLikelihood)
#include "tst_glm_log_likelihood.moc"
