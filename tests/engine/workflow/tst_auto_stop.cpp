// Auto-stop: NUTS extended in rounds until R-hat and ESS meet the rule. It stops at the
// first round whose draws meet it (checked here independently), never before; the
// observer sees one continuous run per chain; the cap ends a run that does not converge.

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include <QtTest/QtTest>

#include "engine/variate.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/rhat.h"
#include "engine/diagnostics/thresholds.h"
#include "engine/workflow/auto_stop.h"

namespace vt = variate;
namespace wf = variate::workflow;

namespace {

// Independent, differently scaled, one of them constrained: NUTS mixes well here, so a
// few rounds reach any ESS asked for.
vt::LogJoint scaled_gaussians() {
  return vt::make_log_joint([] {
    vt::LogNormal("s", 0.0, 0.5);
    vt::Normal("z", at::zeros({3}, at::kDouble), at::tensor({1.0, 2.0, 3.0}, at::kDouble));
  });
}

struct Fixture {
  vt::LogJoint log_joint = scaled_gaussians();
  vt::ParameterLayout layout = vt::ParameterLayout::from_model(log_joint);
  vt::UnconstrainedTarget target{log_joint, layout};
  vt::DrawColumns columns{log_joint, layout};
};

// The rule, computed here from the chains' first `draws` sampling positions with the verdict
// every report gives (diagnostics/thresholds.h), under the rule's bounds.
bool rule_holds(const Fixture& f, const std::vector<vt::ChainResult>& chains, int draws,
                const vt::diagnostics::ConvergenceRule& rule) {
  std::vector<vt::diagnostics::Draws> by_column(f.columns.size(), vt::diagnostics::Draws(chains.size()));
  for (const auto& chain : chains) {
    const auto first = chain.positions.begin() + chain.warmup_iterations;
    for (const auto& row : f.columns.rows({first, first + draws})) {
      for (size_t c = 0; c < row.size(); ++c) by_column[c][chain.chain].push_back(row[c]);
    }
  }
  for (const auto& d : by_column) {
    const auto verdict = vt::diagnostics::convergence_verdict(vt::diagnostics::rhat(d), vt::diagnostics::ess_bulk(d),
                                                              vt::diagnostics::ess_tail(d), d.size(), rule);
    if (!verdict.converged()) return false;
  }
  return true;
}

class Recorder : public vt::SampleObserver {
 public:
  void on_draws(const vt::DrawBatch& batch) override {
    std::lock_guard<std::mutex> lock(mutex);
    int& next = next_iteration[batch.chain];
    if (batch.first_iteration != next) gaps = true;
    next = batch.first_iteration + static_cast<int>(batch.positions.size());
    warmup_seen[batch.chain] = batch.warmup_iterations;
  }
  void on_adapted(int chain, double, const std::vector<double>&) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++adapted[chain];
  }
  void on_chain_finished(const vt::ChainResult& result) override {
    std::lock_guard<std::mutex> lock(mutex);
    finished[result.chain] = static_cast<int>(result.positions.size());
  }

  std::mutex mutex;
  std::map<int, int> next_iteration, warmup_seen, adapted, finished;
  bool gaps = false;
};

}  // namespace

class TestAutoStop : public QObject {
  Q_OBJECT

 private slots:
  void stopsAtTheFirstRoundThatMeetsTheRule() {
    const Fixture f;
    wf::AutoStopRule rule;
    rule.convergence.min_ess_per_chain = 375;  // 1500 over the 4 chains
    rule.max_draws = 5000;  // a bound on the test's time should the rule never hold
    const auto options = vt::NutsOptions().chains(4).warmup(300).draws(100).seed(11);
    const wf::AutoStopRun run = wf::sample_until_converged(f.target, f.columns, options, rule);
    QVERIFY(run.converged);
    QVERIFY2(run.checks.size() >= 2, "100 draws per chain cannot give an ESS of 1500");
    int total = 0;
    for (size_t r = 0; r < run.checks.size(); ++r) {
      const wf::ConvergenceCheck& check = run.checks[r];
      QVERIFY(check.draws_per_chain > total);
      total = check.draws_per_chain;
      // Each round's verdict is the rule on the draws up to it, recomputed here.
      QCOMPARE(check.holds, rule_holds(f, run.chains, total, rule.convergence));
      QCOMPARE(check.holds, r + 1 == run.checks.size());
      QCOMPARE(check.holds, check.worst.empty());
    }
    for (const auto& chain : run.chains) {
      QCOMPARE(static_cast<int>(chain.positions.size()), 300 + total);
      QCOMPARE(static_cast<int>(chain.stats.size()), 300 + total);
      QCOMPARE(chain.warmup_iterations, 300);
    }
    const auto& last = run.checks.back();
    QVERIFY(last.max_rhat < 1.01 && last.min_ess_bulk >= 1500 && last.min_ess_tail >= 1500);
  }

  void theObserverSeesOneRunPerChain() {
    const Fixture f;
    wf::AutoStopRule rule;
    rule.convergence.min_ess_per_chain = 600;  // 1200 over the 2 chains
    rule.max_draws = 5000;
    Recorder recorder;
    int rounds = 0;
    const wf::AutoStopRun run = wf::sample_until_converged(
        f.target, f.columns, vt::NutsOptions().chains(2).warmup(200).draws(100).seed(3), rule, &recorder,
        nullptr, [&](const wf::ConvergenceCheck&, int) { ++rounds; });
    QCOMPARE(rounds, static_cast<int>(run.checks.size()));
    QVERIFY(rounds >= 2);
    QVERIFY(!recorder.gaps);
    for (int chain = 0; chain < 2; ++chain) {
      const int iterations = static_cast<int>(run.chains[chain].positions.size());
      QCOMPARE(recorder.next_iteration[chain], iterations);
      QCOMPARE(recorder.warmup_seen[chain], 200);
      QCOMPARE(recorder.adapted[chain], 1);
      QCOMPARE(recorder.finished[chain], iterations);
    }
  }

  void theCapEndsARunThatDoesNotConverge() {
    const Fixture f;
    wf::AutoStopRule rule;
    rule.convergence.min_ess_per_chain = 1e9;
    rule.max_draws = 250;
    const wf::AutoStopRun run =
        wf::sample_until_converged(f.target, f.columns, vt::NutsOptions().chains(2).warmup(200).draws(100).seed(5), rule);
    QVERIFY(!run.converged);
    QCOMPARE(run.checks.back().draws_per_chain, 250);  // the cap, exactly
    QVERIFY(!run.checks.back().worst.empty());
    for (const auto& chain : run.chains) QCOMPARE(static_cast<int>(chain.positions.size()), 450);
  }

  void nextRoundSizeFollowsTheEssRate() {
    wf::ConvergenceCheck check;
    check.draws_per_chain = 1000;
    check.chains = 4;
    check.min_ess_bulk = 200;
    check.min_ess_tail = 400;
    wf::AutoStopRule rule;
    rule.convergence.min_ess_per_chain = 100;  // 400 over the 4 chains
    QCOMPARE(wf::next_round_draws(check, rule), 1400);  // 1000 * 2 * 1.2 - 1000
    check.min_ess_bulk = 500;
    check.min_ess_tail = 500;
    QCOMPARE(wf::next_round_draws(check, rule), 250);  // R-hat alone: a quarter more
    rule.max_draws = 1100;
    QCOMPARE(wf::next_round_draws(check, rule), 100);
  }

  void constantQuantitiesDoNotBlockTheRule() {
    wf::AutoStopRule rule;
    rule.convergence.min_ess_per_chain = 5;
    std::vector<std::vector<double>> constant(2, std::vector<double>(50, 1.0));
    std::vector<std::vector<double>> mixing(2);
    for (int i = 0; i < 50; ++i) {
      mixing[0].push_back(std::sin(i * 1.7));
      mixing[1].push_back(std::cos(i * 2.3));
    }
    const auto check = wf::check_convergence({constant, mixing}, {"one", "x"}, rule);
    QVERIFY2(check.holds, qPrintable(QString::fromStdString(check.worst)));
    std::vector<std::vector<double>> stuck = {std::vector<double>(50, 0.0), std::vector<double>(50, 5.0)};
    stuck[0][3] = 0.1;
    stuck[1][7] = 5.1;
    const auto failed = wf::check_convergence({mixing, stuck}, {"x", "stuck"}, rule);
    QVERIFY(!failed.holds);
    QCOMPARE(QString::fromStdString(failed.worst), QString("stuck"));
  }

  // Auto-stop's check is the verdict the diagnostics give, with the same bounds: at the
  // edges (a bound equal to the ESS per chain passes, the next number above fails).
  void theCheckIsTheVerdictAtItsEdges() {
    std::vector<std::vector<double>> a(4), b(4);
    for (int c = 0; c < 4; ++c) {
      for (int i = 0; i < 200; ++i) {
        a[c].push_back(std::sin(i * 0.37 + c) + 0.01 * i);
        b[c].push_back(std::cos(i * 1.3 * (c + 1)));
      }
    }
    const std::vector<std::vector<std::vector<double>>> draws = {a, b};
    const double least = std::min({vt::diagnostics::ess_bulk(a), vt::diagnostics::ess_tail(a),
                                   vt::diagnostics::ess_bulk(b), vt::diagnostics::ess_tail(b)});
    const double worst_rhat = std::max(vt::diagnostics::rhat(a), vt::diagnostics::rhat(b));
    for (const double per_chain : {least / 4, std::nextafter(least / 4, 1e9)}) {
      for (const double max_rhat : {worst_rhat, std::nextafter(worst_rhat, 10.0)}) {
        wf::AutoStopRule rule;
        rule.convergence = {max_rhat, per_chain};
        bool verdict = true;
        for (const auto& d : draws) {
          verdict = verdict && vt::diagnostics::convergence_verdict(vt::diagnostics::rhat(d), vt::diagnostics::ess_bulk(d),
                                                                    vt::diagnostics::ess_tail(d), 4, rule.convergence)
                                   .converged();
        }
        QCOMPARE(wf::check_convergence(draws, {"a", "b"}, rule).holds, verdict);
      }
    }
    wf::AutoStopRule edge;
    edge.convergence = {std::nextafter(worst_rhat, 10.0), least / 4};
    QVERIFY(wf::check_convergence(draws, {"a", "b"}, edge).holds);  // an ESS equal to the bound is enough
    edge.convergence.max_rhat = worst_rhat;
    QVERIFY(!wf::check_convergence(draws, {"a", "b"}, edge).holds);  // an R-hat equal to the bound is not
  }

  void rejectsWhatItCannotDo() {
    const Fixture f;
    wf::AutoStopRule rule;
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, wf::sample_until_converged(f.target, f.columns,
                                                                           vt::NutsOptions().draws(5), rule));
    rule.max_draws = 50;
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, wf::sample_until_converged(f.target, f.columns,
                                                                           vt::NutsOptions().draws(100), rule));
    rule = {};
    rule.convergence.max_rhat = 1.0;
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, wf::sample_until_converged(f.target, f.columns, vt::NutsOptions(), rule));
  }
};

QTEST_GUILESS_MAIN(TestAutoStop)
#include "tst_auto_stop.moc"
