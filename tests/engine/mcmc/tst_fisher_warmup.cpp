// The warmup that adapts the metric from draws and gradients (fisher_warmup.h): the
// metric it learns on Gaussians with known answers, when it ends warmup, and a chain that
// starts where the gradients are enormous.

#include <cmath>

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/io/text_file.h"
#include "engine/mcmc/sample.h"
#include "engine/model/compile.h"
#include "engine/tape/compiler/select_target.h"
#include "engine/variate.h"

namespace vt = variate;

namespace {

vt::UnconstrainedTarget target_of(const std::function<void()>& model) {
  auto log_joint = vt::make_log_joint(model);
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

// Independent coordinates whose scales span four orders of magnitude.
vt::UnconstrainedTarget independent_scales() {
  return target_of([] { vt::Normal("x", 0.0, at::tensor({0.01, 1.0, 100.0}, at::kDouble)); });
}

// Correlation 0.9, standard deviations 1 and 2.
vt::UnconstrainedTarget correlated_gaussian() {
  const at::Tensor sigma = at::tensor({1.0, 1.8, 1.8, 4.0}, at::kDouble).reshape({2, 2});
  return target_of([sigma] { vt::MultiNormal("x", at::zeros({2}, at::kDouble), sigma); });
}

double sampling_variance(const vt::ChainResult& chain, size_t coordinate) {
  double n = 0, sum = 0, squares = 0;
  for (size_t i = static_cast<size_t>(chain.warmup_iterations); i < chain.positions.size(); ++i) {
    const double x = chain.positions[i][coordinate];
    ++n;
    sum += x;
    squares += x * x;
  }
  return squares / n - (sum / n) * (sum / n);
}

vt::NutsOptions fisher() { return vt::NutsOptions().adaptation(vt::Adaptation::fisher); }

QString values(const std::vector<double>& v) {
  QStringList text;
  for (const double x : v) text << QString::number(x);
  return text.join(", ");
}

}  // namespace

class TestFisherWarmup : public QObject {
  Q_OBJECT

 private slots:
  void learnsTheVariancesOfIndependentCoordinatesAndEndsEarly() {
    const auto chains = vt::sample_nuts(independent_scales(), fisher().chains(4).seed(11));
    const std::vector<double> variances{1e-4, 1.0, 1e4};
    for (const auto& chain : chains) {
      for (size_t i = 0; i < variances.size(); ++i) {
        const double ratio = chain.inverse_metric[i] / variances[i];
        QVERIFY2(ratio > 0.7 && ratio < 1.4, qPrintable("inverse metric " + values(chain.inverse_metric)));
        const double drawn = sampling_variance(chain, i) / variances[i];
        QVERIFY2(drawn > 0.8 && drawn < 1.25, qPrintable(QString("variance %1 of draws: %2").arg(i).arg(drawn)));
      }
      // Settled after two windows of 80 and 120 draws (after the early 100) and 50 more
      // for the step size: far below the cap of 1000.
      QVERIFY2(chain.warmup_iterations >= 350 && chain.warmup_iterations < 600,
               qPrintable(QString("warmup %1").arg(chain.warmup_iterations)));
      QCOMPARE(static_cast<int>(chain.positions.size()), chain.warmup_iterations + 1000);
    }
  }

  void learnsTheFisherOptimumOfACorrelatedGaussian() {
    // sqrt(Sigma_ii / (Sigma^-1)_ii): not the marginal variances 1 and 4 that Stan's
    // adaptation learns.
    const double det = 4.0 - 1.8 * 1.8;
    const std::vector<double> optimum{std::sqrt(1.0 / (4.0 / det)), std::sqrt(4.0 / (1.0 / det))};
    const auto chains = vt::sample_nuts(correlated_gaussian(), fisher().chains(4).seed(12));
    for (const auto& chain : chains) {
      for (size_t i = 0; i < 2; ++i) {
        const double ratio = chain.inverse_metric[i] / optimum[i];
        QVERIFY2(ratio > 0.75 && ratio < 1.33, qPrintable("inverse metric " + values(chain.inverse_metric)));
      }
      QVERIFY2(std::abs(sampling_variance(chain, 1) / 4.0 - 1) < 0.25,
               qPrintable(QString("variance of x[2]: %1").arg(sampling_variance(chain, 1))));
    }
  }

  void warmupRunsToTheCapWhenItCannotSettle() {
    // 150 transitions leave no room for two full windows after the early ones.
    const auto chains = vt::sample_nuts(independent_scales(), fisher().chains(2).warmup(150).draws(50).seed(13));
    for (const auto& chain : chains) {
      QCOMPARE(chain.warmup_iterations, 150);
      QCOMPARE(static_cast<int>(chain.positions.size()), 200);
    }
  }

  void stanAdaptationTakesTheWholeWarmup() {
    const auto chains = vt::sample_nuts(
        independent_scales(), vt::NutsOptions().chains(2).draws(50).seed(14).adaptation(vt::Adaptation::stan));
    for (const auto& chain : chains) QCOMPARE(chain.warmup_iterations, 1000);
  }

  void aChainStartedWhereGradientsAreEnormousRecovers() {
    // y ~ Normal(0, sigma): at log(sigma) = -15 the gradient is ~e^30 and the first
    // metric ~e^-30, right for the local scale there; the chain comes in and its metric
    // follows it to the posterior's.
    vt::Data data;
    data.set("y", at::tensor({1.2, -0.7, 0.3, 2.1, -1.5, 0.4, -0.2, 0.9}, at::kDouble));
    auto log_joint = vt::make_log_joint(
        [](const vt::Data& d) {
          auto sigma = vt::HalfNormal("sigma", 2.0);
          vt::Normal("y", 0.0, at::Tensor(sigma) * at::ones({8}, at::kDouble));
          (void)d;
        },
        data);
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    const auto chains = vt::sample_nuts(target, fisher().chains(2).seed(15).initial_positions({{-15.0}, {-15.0}}));
    for (const auto& chain : chains) {
      // The posterior of log(sigma) has a standard deviation of about 0.25.
      const double variance = sampling_variance(chain, 0);
      QVERIFY2(variance > 0.02 && variance < 0.15, qPrintable(QString("variance of log(sigma): %1").arg(variance)));
      QVERIFY2(chain.inverse_metric[0] > 0.01 && chain.inverse_metric[0] < 0.3,
               qPrintable("inverse metric " + values(chain.inverse_metric)));
      int deep = 0;
      for (size_t i = static_cast<size_t>(chain.warmup_iterations); i < chain.stats.size(); ++i) {
        deep += chain.stats[i].tree_depth >= 6;
      }
      QVERIFY2(deep == 0, qPrintable(QString("%1 sampling transitions of depth 6 or more").arg(deep)));
    }
  }

  void anArma11ChainStartedInItsExplosiveRegionRecovers() {
    // With seed 1 the fourth chain starts at theta = 1.79, where the moving-average
    // recurrence grows as 1.79^t over 200 steps: gradients of ~1e50, a first metric at the
    // clamp of 1e-20 and steps of 1e-44. Without beginning warmup again it crawls into the
    // typical set only as warmup ends, its metric still 1e-20, and samples at the maximum
    // tree depth.
    const std::string folder = QT_TESTCASE_SOURCEDIR "/data/reference/arma-arma11/";
    const auto data = vt::io::read_data_file(folder + "data.json");
    const auto compiled = vt::model::compile_model(
        vt::model::Source(folder + "model.vmod", vt::io::read_text_file(folder + "model.vmod")), &data);
    QVERIFY2(compiled.ok(), compiled.report().c_str());
    const auto selected = vt::tape::select_target(*compiled.model, vt::tape::Backend::automatic);
    const auto chains = vt::sample_nuts(selected.target, fisher().chains(4).seed(1));
    for (const auto& chain : chains) {
      for (const double v : chain.inverse_metric)
        QVERIFY2(v > 1e-6, qPrintable("inverse metric " + values(chain.inverse_metric)));
      int deepest = 0;
      for (size_t i = static_cast<size_t>(chain.warmup_iterations); i < chain.stats.size(); ++i) {
        deepest = std::max(deepest, chain.stats[i].tree_depth);
      }
      QVERIFY2(deepest < 8, qPrintable(QString("chain %1 sampled at tree depth %2").arg(chain.chain + 1).arg(deepest)));
    }
  }

  void threadsDoNotChangeTheDraws() {
    const auto target = correlated_gaussian();
    const auto one = vt::sample_nuts(target, fisher().chains(3).draws(100).seed(16).threads(1));
    const auto three = vt::sample_nuts(target, fisher().chains(3).draws(100).seed(16).threads(3));
    for (size_t c = 0; c < one.size(); ++c) {
      QCOMPARE(one[c].warmup_iterations, three[c].warmup_iterations);
      QVERIFY(one[c].positions == three[c].positions);
    }
  }
};

QTEST_APPLESS_MAIN(TestFisherWarmup)
#include "tst_fisher_warmup.moc"
