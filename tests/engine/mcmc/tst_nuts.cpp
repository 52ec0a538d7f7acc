// NUTS with Stan's warmup on targets with known answers: a correlated Gaussian, eight
// schools (centered, with its divergences), reproducibility, threads, streaming, stopping.

#include <cmath>
#include <mutex>

#include <QtTest/QtTest>

#include "engine/variate.h"
#include "engine/mcmc/sample.h"

namespace vt = variate;

namespace {

// x ~ MultiNormal(mu, Sigma) in two dimensions with correlation 0.9.
vt::UnconstrainedTarget correlated_gaussian() {
  const at::Tensor mu = at::tensor({1.0, -2.0}, at::kDouble);
  const at::Tensor sigma = at::tensor({1.0, 1.8, 1.8, 4.0}, at::kDouble).reshape({2, 2});
  auto log_joint = vt::make_log_joint([mu, sigma] { vt::MultiNormal("x", mu, sigma); });
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

vt::UnconstrainedTarget eight_schools_centered() {
  vt::Data data;
  data.set("J", int64_t{8})
      .set("y", at::tensor({28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0}, at::kDouble))
      .set("sigma", at::tensor({15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0}, at::kDouble));
  auto log_joint = vt::make_log_joint(
      [](const vt::Data& d) {
        auto mu = vt::Normal("mu", 0.0, 5.0);
        auto tau = vt::HalfCauchy("tau", 5.0);
        auto theta = vt::Normal("theta", at::Tensor(mu), at::Tensor(tau), {d.dim("J")});
        vt::Normal("y", theta, d["sigma"]);
      },
      data);
  return vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint));
}

std::vector<std::vector<double>> sampling_draws(const vt::ChainResult& chain) {
  return {chain.positions.begin() + chain.warmup_iterations, chain.positions.end()};
}

class Recorder : public vt::SampleObserver {
 public:
  void on_draws(const vt::DrawBatch& batch) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& rows = positions[batch.chain];
    QCOMPARE(static_cast<int>(rows.size()), batch.first_iteration);  // in order, no gaps
    rows.insert(rows.end(), batch.positions.begin(), batch.positions.end());
    ++batches;
    if (stop_after > 0 && static_cast<int>(rows.size()) >= stop_after) stop = true;
  }
  std::map<int, std::vector<std::vector<double>>> positions;
  int batches = 0;
  int stop_after = 0;
  std::atomic<bool> stop{false};

 private:
  std::mutex mutex_;
};

}  // namespace

class TestNuts : public QObject {
  Q_OBJECT

 private slots:
  void recoversCorrelatedGaussian() {
    const auto target = correlated_gaussian();
    const auto chains = vt::sample_nuts(target, vt::NutsOptions().chains(4).seed(3));
    double n = 0, m0 = 0, m1 = 0, s00 = 0, s11 = 0, s01 = 0, accept = 0;
    for (const auto& chain : chains) {
      QCOMPARE(chain.warmup_iterations, 1000);
      QCOMPARE(static_cast<int>(chain.positions.size()), 2000);
      for (const auto& q : sampling_draws(chain)) {
        ++n;
        m0 += q[0];
        m1 += q[1];
        s00 += q[0] * q[0];
        s11 += q[1] * q[1];
        s01 += q[0] * q[1];
      }
      // The step size is tuned by dual averaging in the warmup's last fast interval.
      for (int i = 950; i < chain.warmup_iterations; ++i) accept += chain.stats[i].accept_stat;
    }
    m0 /= n;
    m1 /= n;
    const double v0 = s00 / n - m0 * m0, v1 = s11 / n - m1 * m1;
    const double correlation = (s01 / n - m0 * m1) / std::sqrt(v0 * v1);
    // About 4000 draws with ESS in the thousands: generous but meaningful bounds.
    QVERIFY2(std::abs(m0 - 1.0) < 0.1, qPrintable(QString("mean 0: %1").arg(m0)));
    QVERIFY2(std::abs(m1 + 2.0) < 0.2, qPrintable(QString("mean 1: %1").arg(m1)));
    QVERIFY2(std::abs(v0 - 1.0) < 0.15, qPrintable(QString("variance 0: %1").arg(v0)));
    QVERIFY2(std::abs(v1 - 4.0) < 0.6, qPrintable(QString("variance 1: %1").arg(v1)));
    QVERIFY2(std::abs(correlation - 0.9) < 0.03, qPrintable(QString("correlation %1").arg(correlation)));
    // Dual averaging aims at an average acceptance of 0.8 while it adapts.
    accept /= 4 * 50;
    QVERIFY2(std::abs(accept - 0.8) < 0.1, qPrintable(QString("acceptance %1").arg(accept)));
  }

  void denseMetricLearnsTheCovariance() {
    const auto target = correlated_gaussian();
    const auto chains = vt::sample_nuts(
        target, vt::NutsOptions().chains(1).seed(4).metric(vt::MetricKind::dense).draws(10));
    const auto& m = chains[0].inverse_metric;
    QCOMPARE(m.size(), size_t{4});
    QVERIFY2(std::abs(m[0] - 1.0) < 0.3 && std::abs(m[3] - 4.0) < 1.2 && std::abs(m[1] - 1.8) < 0.6,
             qPrintable(QString("inverse metric %1 %2 %3 %4").arg(m[0]).arg(m[1]).arg(m[2]).arg(m[3])));
    QCOMPARE(m[1], m[2]);
  }

  void continuesAFinishedRunWithItsAdaptation() {
    const auto target = correlated_gaussian();
    const auto first = vt::sample_nuts(target, vt::NutsOptions().chains(2).warmup(500).draws(200).seed(5));
    std::vector<vt::ChainStart> starts;
    for (const auto& chain : first) {
      starts.push_back({chain.positions.back(), chain.step_size, chain.inverse_metric});
    }
    const auto more = vt::NutsOptions().chains(2).warmup(0).draws(1000).seed(5).resume_from(starts);
    const auto second = vt::sample_nuts(target, more);
    double n = 0, m0 = 0, s00 = 0;
    for (int chain = 0; chain < 2; ++chain) {
      QCOMPARE(second[chain].warmup_iterations, 0);
      QCOMPARE(second[chain].positions.size(), size_t{1000});
      QCOMPARE(second[chain].step_size, first[chain].step_size);  // no adaptation
      QVERIFY(second[chain].inverse_metric == first[chain].inverse_metric);
      for (const auto& q : second[chain].positions) {
        ++n;
        m0 += q[0];
        s00 += q[0] * q[0];
      }
    }
    m0 /= n;
    const double v0 = s00 / n - m0 * m0;
    QVERIFY2(std::abs(m0 - 1.0) < 0.15 && std::abs(v0 - 1.0) < 0.25,
             qPrintable(QString("mean %1 variance %2").arg(m0).arg(v0)));
    // A continuation is not a replay of the first run's random numbers.
    QVERIFY(second[0].positions.front() != first[0].positions[500]);

    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError,
                             vt::sample_nuts(target, vt::NutsOptions(more).warmup(10)));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError,
                             vt::sample_nuts(target, vt::NutsOptions(more).chains(3)));
    starts[1].inverse_metric.pop_back();
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError,
                             vt::sample_nuts(target, vt::NutsOptions(more).resume_from(starts)));
  }

  void sameSeedSameDrawsDifferentSeedDifferent() {
    const auto target = correlated_gaussian();
    const auto options = vt::NutsOptions().chains(2).warmup(100).draws(100).seed(11);
    const auto a = vt::sample_nuts(target, options);
    const auto b = vt::sample_nuts(target, options);
    const auto c = vt::sample_nuts(target, vt::NutsOptions(options).seed(12));
    for (int chain = 0; chain < 2; ++chain) {
      QVERIFY(a[chain].positions == b[chain].positions);
      QVERIFY(a[chain].positions != c[chain].positions);
    }
    QVERIFY(a[0].positions != a[1].positions);  // chains have their own streams
  }

  void threadCountDoesNotChangeDraws() {
    const auto target = eight_schools_centered();
    const auto options = vt::NutsOptions().chains(4).warmup(150).draws(50).seed(5);
    const auto one = vt::sample_nuts(target, vt::NutsOptions(options).threads(1));
    const auto four = vt::sample_nuts(target, vt::NutsOptions(options).threads(4));
    for (int chain = 0; chain < 4; ++chain) QVERIFY(one[chain].positions == four[chain].positions);
  }

  // Each chain's points go through one batched evaluation per round; for an elementwise
  // model batched arithmetic rounds exactly as single points do, so nothing may change.
  void batchedChainsGiveEachChainItsOwnResults() {
    const auto target = eight_schools_centered();
    const auto options = vt::NutsOptions().chains(4).warmup(150).draws(50).seed(8);
    const auto separate = vt::sample_nuts(target, options);
    const auto batched = vt::sample_nuts(target, vt::NutsOptions(options).batched_chains(true));
    for (int chain = 0; chain < 4; ++chain) QVERIFY(separate[chain].positions == batched[chain].positions);
  }

  void batchedChainsSurviveAFailingChain() {
    // Chains stop at different times; the others must not wait for a stopped one.
    const auto target = correlated_gaussian();
    Recorder stopper;
    stopper.stop_after = 40;
    const auto chains = vt::sample_nuts(
        target, vt::NutsOptions().chains(3).warmup(20).draws(200).seed(2).batch_size(8).batched_chains(true),
        &stopper, &stopper.stop);
    QCOMPARE(chains.size(), size_t{3});
    for (const auto& chain : chains) QVERIFY(chain.positions.size() >= 1);
  }

  void batchedChainsReportAModelError() {
    // An error of the model (not numerical trouble) in a batched evaluation fails every
    // chain with its message; none is left waiting for the batch.
    auto log_joint = vt::make_log_joint([] {
      auto x = vt::Normal("x", 0.0, 1.0);
      if (x.value().dim() > 0) throw vt::ArgumentError("this model takes one point at a time");
    });
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    try {
      vt::sample_nuts(target, vt::NutsOptions().chains(3).warmup(10).draws(10).seed(1).batched_chains(true));
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("this model takes one point at a time"));
    }
  }

  void centeredEightSchoolsDivergesWithoutFailing() {
    const auto target = eight_schools_centered();
    const auto chains = vt::sample_nuts(target, vt::NutsOptions().chains(2).seed(1));
    int divergences = 0;
    for (const auto& chain : chains) {
      for (size_t i = chain.warmup_iterations; i < chain.stats.size(); ++i) {
        divergences += chain.stats[i].has_divergence;
      }
    }
    QVERIFY2(divergences > 0, "the centered parameterization should show divergences");
  }

  void streamsEveryDrawInOrderAndStopsOnRequest() {
    const auto target = correlated_gaussian();
    Recorder recorder;
    const auto chains = vt::sample_nuts(
        target, vt::NutsOptions().chains(2).warmup(50).draws(150).seed(2).batch_size(16), &recorder);
    QVERIFY(recorder.batches >= 2 * 200 / 16);
    for (const auto& chain : chains) QVERIFY(recorder.positions[chain.chain] == chain.positions);

    Recorder stopper;
    stopper.stop_after = 64;
    const auto stopped = vt::sample_nuts(
        target, vt::NutsOptions().chains(1).warmup(50).draws(1000).seed(2).batch_size(16),
        &stopper, &stopper.stop);
    QVERIFY(stopped[0].stopped_early);
    QVERIFY(stopped[0].positions.size() >= 64 && stopped[0].positions.size() < 1050);
    QVERIFY(stopper.positions[0] == stopped[0].positions);  // nothing kept back
  }

  void maxTreeDepthIsReported() {
    const auto target = correlated_gaussian();
    const auto chains =
        vt::sample_nuts(target, vt::NutsOptions().chains(1).warmup(0).draws(50).max_tree_depth(1).seed(9));
    int hits = 0;
    for (const auto& s : chains[0].stats) {
      QVERIFY(s.tree_depth <= 1);
      hits += s.reached_max_depth;
    }
    QVERIFY(hits > 0);
  }

  // The search for a first step size doubles or halves from the option (Stan's stepsize):
  // without warmup, the chain's step size is the option times a power of two.
  void initialStepSizeIsWhereTheSearchStarts() {
    const auto target = correlated_gaussian();
    for (const double start : {1.0, 1e-3, 7.0}) {
      const auto chains =
          vt::sample_nuts(target, vt::NutsOptions().chains(1).warmup(0).draws(1).seed(4).step_size(start));
      const double doublings = std::log2(chains[0].step_size / start);
      QVERIFY2(doublings == std::round(doublings), qPrintable(QString::number(chains[0].step_size)));
    }
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::NutsOptions().step_size(0));
  }

  void densityThatIsNanEverywhereFailsToInitialize() {
    auto log_joint = vt::make_log_joint([] {
      const auto x = vt::Normal("x", 0.0, 1.0);
      vt::Normal("y", at::Tensor(x) * std::nan(""), 1.0);
    }, vt::Data().set("y", 1.0));
    const vt::UnconstrainedTarget target(log_joint, vt::ParameterLayout::from_model(log_joint));
    try {
      vt::sample_nuts(target, vt::NutsOptions().chains(1));
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith("chain 1: no initial point with a finite log density"), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestNuts)
#include "tst_nuts.moc"
