// ADVI on posteriors with known answers: conjugate normal models (mean-field and
// full-rank), two posteriordb references (kidiq, sblrc) against their NUTS reference means,
// and the ELBO trace: it rises, converges and stops by the tolerance rule, the same seed
// gives the same trace, the observer sees it all and the stop flag ends a run.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "engine/variate.h"
#include "engine/vi/advi.h"
#include "engine/vi/variational_draws.h"
#include "engine/vi/variational_fullrank.h"
#include "engine/vi/variational_meanfield.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vt = variate;
namespace vm = variate::model;
using json = nlohmann::json;

namespace {

const at::TensorOptions kDouble = at::TensorOptions(at::kDouble);

// y[j, i] ~ Normal(mu[j], 2), mu[j] ~ Normal(0, 10): each mu[j]'s posterior is normal with
// precision 1/100 + n/4 and mean (sum_i y[j, i] / 4) / precision.
struct Conjugate {
  vt::UnconstrainedTarget target;
  at::Tensor mean, sd;
};

Conjugate conjugate_normal() {
  const int64_t n = 50;
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(11);
  const at::Tensor truth = at::tensor({5.0, -8.0, 12.0}, at::kDouble);
  // y is [3, n]: mu[:, None] broadcasts against it for one point or a batch of points.
  const at::Tensor y = truth.unsqueeze(1) + 2.0 * at::normal(0.0, 1.0, {3, n}, generator, kDouble);
  vt::Data data;
  data.set("y", y);
  auto log_joint = vt::make_log_joint(
      [](const vt::Data& d) {
        auto mu = vt::Normal("mu", 0.0, 10.0, {3});
        vt::Normal("y", at::Tensor(mu).unsqueeze(-1) + at::zeros_like(d["y"]), 2.0);
      },
      data);
  const double precision = 1.0 / 100 + n / 4.0;
  return {vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint)),
          y.sum(1) / 4.0 / precision, at::full({3}, 1 / std::sqrt(precision), kDouble)};
}

// y_i ~ MultiNormal(x, Sigma) (correlation 0.9), x ~ MultiNormal(0, 100 I): the posterior
// of x is normal with precision n Sigma^-1 + I / 100.
struct CorrelatedPosterior {
  vt::UnconstrainedTarget target;
  at::Tensor mean, covariance;
};

CorrelatedPosterior correlated_posterior() {
  const int64_t n = 20;
  const at::Tensor sigma = at::tensor({1.0, 1.8, 1.8, 4.0}, kDouble).reshape({2, 2});
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(12);
  const at::Tensor noise = at::normal(0.0, 1.0, {n, 2}, generator, kDouble);
  const at::Tensor y = at::tensor({3.0, -6.0}, kDouble) + at::matmul(noise, at::linalg_cholesky(sigma).t());
  vt::Data data;
  data.set("y", y);
  auto log_joint = vt::make_log_joint(
      [sigma](const vt::Data& d) {
        auto x = vt::MultiNormal("x", at::zeros({2}, kDouble), 100.0 * at::eye(2, kDouble));
        vt::MultiNormal("y", at::Tensor(x).unsqueeze(-2) + at::zeros_like(d["y"]), sigma);
      },
      data);
  const at::Tensor precision = n * at::inverse(sigma) + at::eye(2, kDouble) / 100.0;
  const at::Tensor covariance = at::inverse(precision);
  return {vt::UnconstrainedTarget(log_joint, vt::ParameterLayout::from_model(log_joint)),
          at::matmul(covariance, at::matmul(at::inverse(sigma), y.sum(0))), covariance};
}

QString reference_folder(const QString& name) {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name + "/";
}

vm::CompiledModel compile_reference(const QString& name) {
  const std::string folder = reference_folder(name).toStdString();
  const auto data = vt::io::read_data_file(folder + "data.json");
  auto result = vm::compile_model(
      vm::Source(folder + "model.vmod", vt::io::read_text_file(folder + "model.vmod")), &data);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return *result.model;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Everything a run reports, as a UI would collect it.
class Recorder : public vt::AdviObserver {
 public:
  void on_eta_trial(const vt::EtaTrial& trial) override { trials.push_back(trial); }
  void on_eta_chosen(double eta, bool adapted) override {
    chosen.push_back(eta);
    iterations.clear();  // a restart counts from 1 again
    evaluations.clear();
  }
  void on_iterations(const vt::ElboIterations& batch) override {
    QCOMPARE(batch.first_iteration, static_cast<int>(iterations.size()) + 1);  // no gaps
    iterations.insert(iterations.end(), batch.elbo.begin(), batch.elbo.end());
  }
  void on_evaluation(const vt::ElboEvaluation& e) override {
    QCOMPARE(e.iteration, static_cast<int>(iterations.size()));  // after its iterations
    evaluations.push_back(e);
    if (stop_at > 0 && e.iteration >= stop_at) stop = true;
  }
  std::vector<vt::EtaTrial> trials;
  std::vector<double> chosen;
  std::vector<double> iterations;
  std::vector<vt::ElboEvaluation> evaluations;
  int stop_at = 0;
  std::atomic<bool> stop{false};
};

}  // namespace

class TestAdvi : public QObject {
  Q_OBJECT

 private slots:
  void meanFieldRecoversConjugateNormal() {
    const auto problem = conjugate_normal();
    const auto start = std::chrono::steady_clock::now();
    const auto fit = vt::advi(problem.target, vt::AdviOptions().seed(1));
    const auto& q = dynamic_cast<const vt::MeanFieldGaussian&>(*fit.family);
    qInfo("%s after %d iterations (eta %g) in %.2f s", vt::to_string(fit.result.status).c_str(),
          fit.result.iterations, fit.result.eta, seconds_since(start));
    QCOMPARE(fit.result.status, vt::AdviStatus::converged);
    for (int j = 0; j < 3; ++j) {
      const double m = q.mu()[j].item<double>(), m0 = problem.mean[j].item<double>();
      const double s = q.scale()[j].item<double>(), s0 = problem.sd[j].item<double>();
      qInfo("  mu[%d]: mean %.4f vs exact %.4f (%.2f%%), sd %.4f vs %.4f (%.1f%%)", j + 1, m, m0,
            100 * std::abs(m / m0 - 1), s, s0, 100 * std::abs(s / s0 - 1));
      QVERIFY(std::abs(m / m0 - 1) < 0.02);
      QVERIFY(std::abs(s / s0 - 1) < 0.10);
    }
  }

  void fullRankRecoversCorrelatedPosterior() {
    const auto problem = correlated_posterior();
    const auto start = std::chrono::steady_clock::now();
    const auto fit = vt::advi(problem.target, vt::AdviOptions().method(vt::AdviMethod::fullrank).seed(2));
    const auto& q = dynamic_cast<const vt::FullRankGaussian&>(*fit.family);
    const at::Tensor c = q.covariance(), c0 = problem.covariance;
    const auto correlation = [](const at::Tensor& m) {
      return (m[0][1] / (m[0][0] * m[1][1]).sqrt()).item<double>();
    };
    qInfo("%s after %d iterations (eta %g) in %.2f s; correlation %.4f vs exact %.4f",
          vt::to_string(fit.result.status).c_str(), fit.result.iterations, fit.result.eta,
          seconds_since(start), correlation(c), correlation(c0));
    QCOMPARE(fit.result.status, vt::AdviStatus::converged);
    QVERIFY(std::abs(correlation(c) - correlation(c0)) < 0.05);
    QVERIFY(std::abs(correlation(c0) - 0.9) < 0.01);  // the posterior is the one asked for
    for (int j = 0; j < 2; ++j) {
      const double m = q.mu()[j].item<double>(), m0 = problem.mean[j].item<double>();
      const double s = c[j][j].sqrt().item<double>(), s0 = c0[j][j].sqrt().item<double>();
      qInfo("  x[%d]: mean %.4f vs %.4f, sd %.4f vs %.4f", j + 1, m, m0, s, s0);
      QVERIFY(std::abs(m / m0 - 1) < 0.02);
      QVERIFY(std::abs(s / s0 - 1) < 0.10);
    }
  }

  // The reference posteriors are NUTS runs (posteriordb, 10,000 draws); a mean-field
  // approximation cannot match their sds (it misses correlations) but its means should
  // sit within half a posterior sd of theirs.
  void meanFieldMatchesReferenceMeans_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("iterations");
    // kidiq's intercept and IQ slope lie on a ridge (correlation -0.99) along which the
    // ELBO changes by 0.5 nats per posterior sd, about its Monte Carlo noise: the
    // tolerance rule stops after 1000-6000 iterations, often before the end of the ridge
    // (means up to 3.7 sd off over five seeds), so the test runs 8000 iterations instead.
    QTest::newRow("kidiq") << "kidiq-kidscore_momhsiq" << 8000;
    QTest::newRow("sblrc") << "sblrc-blr" << 0;  // the defaults, tol_rel_obj = 0.01
  }
  void meanFieldMatchesReferenceMeans() {
    QFETCH(QString, name);
    QFETCH(int, iterations);
    const auto model = compile_reference(name);
    vt::AdviOptions options = vt::AdviOptions().seed(1);
    if (iterations > 0) options.iter(iterations).tol_rel_obj(1e-9);
    const auto start = std::chrono::steady_clock::now();
    const auto fit = vt::advi(model.target(), options);
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(5);
    const auto draws = vt::sample_approximation(model.target(), *fit.family, 1000, generator);
    const auto constrained = model.layout().constrain(draws.unconstrained).values;
    qInfo("%s after %d iterations (eta %g), ELBO %.2f, in %.2f s",
          vt::to_string(fit.result.status).c_str(), fit.result.iterations, fit.result.eta,
          fit.result.elbo, seconds_since(start));
    QCOMPARE(fit.result.status, iterations > 0 ? vt::AdviStatus::max_iterations : vt::AdviStatus::converged);
    QFile file(reference_folder(name) + "reference.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const json reference = json::parse(file.readAll().toStdString())["parameters"];
    QStringList failures;
    for (const auto& [parameter, r] : reference.items()) {
      const auto bracket = parameter.find('[');
      at::Tensor values = constrained.at(parameter.substr(0, bracket));
      if (bracket != std::string::npos) {
        values = values.select(1, std::stoi(parameter.substr(bracket + 1)) - 1);
      }
      const double mean = values.mean().item<double>(), sd = values.std().item<double>();
      const double ref_mean = r["mean"], ref_sd = r["sd"];
      const double z = (mean - ref_mean) / ref_sd;
      qInfo("  %s: mean %.5g vs %.5g (%+.3f sd); sd %.4g vs %.4g", parameter.c_str(), mean,
            ref_mean, z, sd, ref_sd);
      if (!(std::abs(z) < 0.5)) failures << QString::fromStdString(parameter);
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(", ")));
  }

  void elboTraceRisesConvergesAndStopsByTheRule() {
    const auto model = compile_reference("sblrc-blr");
    Recorder recorder;
    const auto options = vt::AdviOptions().seed(3);
    const auto fit = vt::advi(model.target(), options, &recorder);
    const auto& result = fit.result;
    QCOMPARE(result.status, vt::AdviStatus::converged);
    QVERIFY(result.iterations < options.iter());
    // The rule (or a stall) found a plateau step_reductions times, each time dividing eta
    // by 10; the run ended at the first firing of the rule after the last reduction.
    QCOMPARE(result.step_reductions, options.step_reductions());
    int reductions = 0;
    double eta = result.eta;
    for (const auto& e : result.trace) {
      QCOMPARE(e.eta, eta);
      if (e.step_reduced) ++reductions, eta /= 10;
      if (&e != &result.trace.back()) QVERIFY(!e.converged() || e.step_reduced);
    }
    QCOMPARE(reductions, result.step_reductions);
    QCOMPARE(result.trace.back().iteration, result.iterations);
    QVERIFY(result.trace.back().converged() && !result.trace.back().step_reduced);
    QVERIFY(result.trace.back().mean_relative_change < options.tol_rel_obj() ||
            result.trace.back().median_relative_change < options.tol_rel_obj());

    // Smoothed (means of 100 iterations), the per-iteration estimates rise: each third of
    // the run is higher on average than the one before, and the run ends within 5% of
    // the best smoothed value.
    std::vector<double> smoothed;
    for (size_t i = 0; i + 100 <= recorder.iterations.size(); i += 100) {
      double sum = 0;
      for (size_t k = i; k < i + 100; ++k) sum += recorder.iterations[k];
      smoothed.push_back(sum / 100);
    }
    QVERIFY(smoothed.size() >= 9);
    const size_t third = smoothed.size() / 3;
    const auto mean_of = [&](size_t from, size_t to) {
      double sum = 0;
      for (size_t i = from; i < to; ++i) sum += smoothed[i];
      return sum / static_cast<double>(to - from);
    };
    const double first = mean_of(0, third), middle = mean_of(third, 2 * third),
                 last = mean_of(2 * third, smoothed.size());
    const double best = *std::max_element(smoothed.begin(), smoothed.end());
    qInfo("smoothed ELBO by thirds %.4g, %.4g, %.4g; best %.4g, last %.4g; %d iterations",
          first, middle, last, best, smoothed.back(), result.iterations);
    QVERIFY(first < middle && middle < last);
    QVERIFY(std::abs(smoothed.back() - best) <= 0.05 * std::abs(best));
    // The evaluations end at the best of them, to within their noise.
    double best_evaluation = -std::numeric_limits<double>::infinity();
    for (const auto& e : result.trace) best_evaluation = std::max(best_evaluation, e.elbo);
    QVERIFY(std::abs(result.elbo - best_evaluation) <= 0.01 * std::abs(best_evaluation));
  }

  void sameSeedGivesSameTrace() {
    const auto problem = conjugate_normal();
    Recorder a, b, c;
    const auto first = vt::advi(problem.target, vt::AdviOptions().seed(7), &a);
    const auto second = vt::advi(problem.target, vt::AdviOptions().seed(7), &b);
    const auto other = vt::advi(problem.target, vt::AdviOptions().seed(8), &c);
    QVERIFY(!a.iterations.empty());
    QCOMPARE(b.iterations, a.iterations);
    QCOMPARE(second.result.trace.size(), first.result.trace.size());
    for (size_t i = 0; i < first.result.trace.size(); ++i) {
      QCOMPARE(second.result.trace[i].elbo, first.result.trace[i].elbo);
    }
    for (size_t i = 0; i < first.family->parameters().size(); ++i) {
      QVERIFY(at::equal(second.family->parameters()[i], first.family->parameters()[i]));
    }
    QVERIFY(c.iterations != a.iterations);
  }

  void observerSeesAdaptationIterationsAndEvaluations() {
    const auto problem = conjugate_normal();
    Recorder recorder;
    const auto fit = vt::advi(problem.target, vt::AdviOptions().seed(4), &recorder);
    const auto& result = fit.result;
    QCOMPARE(recorder.trials.size(), result.eta_trials.size());
    QVERIFY(result.eta_trials.size() >= 2);
    QCOMPARE(recorder.trials.front().eta, 100.0);
    QCOMPARE(static_cast<int>(recorder.chosen.size()), result.restarts + 1);
    QCOMPARE(recorder.chosen.back(), result.eta);
    // The eta chosen is the one whose trial ended with the best ELBO.
    double best = -std::numeric_limits<double>::infinity(), best_eta = 0;
    for (const auto& trial : result.eta_trials) {
      if (trial.elbo > best) best = trial.elbo, best_eta = trial.eta;
    }
    QCOMPARE(result.eta, best_eta / std::pow(10.0, result.restarts));
    QVERIFY(best > result.initial_elbo);
    QCOMPARE(static_cast<int>(recorder.iterations.size()), result.iterations);
    QCOMPARE(recorder.evaluations.size(), result.trace.size());
    // One model gradient per draw per step, adaptation included (a trial ends early at a
    // step that is not finite).
    QVERIFY(result.gradient_evaluations > result.iterations);
    QVERIFY(result.gradient_evaluations <=
            static_cast<long>(result.iterations + 50 * result.eta_trials.size()));
  }

  void stopFlagEndsTheRunKeepingTheFit() {
    const auto problem = conjugate_normal();
    Recorder recorder;
    recorder.stop_at = 200;
    const auto options = vt::AdviOptions().seed(5).tol_rel_obj(1e-9);
    const auto fit = vt::advi(problem.target, options, &recorder, &recorder.stop);
    QCOMPARE(fit.result.status, vt::AdviStatus::stopped);
    QCOMPARE(fit.result.iterations, 200);
    QCOMPARE(static_cast<int>(fit.result.trace.size()), 2);
    const auto& q = dynamic_cast<const vt::MeanFieldGaussian&>(*fit.family);
    QVERIFY(at::isfinite(q.mu()).all().item<bool>());
  }

  void optionsValidate() {
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().iter(0));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().grad_samples(0));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().eta(0));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().tol_rel_obj(-1));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().adam_beta2(1));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::AdviOptions().step_reductions(-1));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::advi_method_from_string("laplace"));
    QCOMPARE(vt::advi_method_from_string("fullrank"), vt::AdviMethod::fullrank);
    QCOMPARE(vt::to_string(vt::AdviMethod::meanfield), std::string("meanfield"));
    const auto defaults = vt::AdviOptions();  // CmdStan's
    QCOMPARE(defaults.iter(), 10000);
    QCOMPARE(defaults.grad_samples(), 1);
    QCOMPARE(defaults.elbo_samples(), 100);
    QCOMPARE(defaults.adapt_iter(), 50);
    QCOMPARE(defaults.tol_rel_obj(), 0.01);
    QCOMPARE(defaults.eval_elbo(), 100);
  }

  void divergedRunStartsOverWithSmallerSteps() {
    const auto problem = conjugate_normal();
    Recorder recorder;
    const auto fit = vt::advi(problem.target, vt::AdviOptions().seed(6).adapt_engaged(false).eta(1e3),
                              &recorder);
    qInfo("eta 1000: %d restarts, then %s with eta %g", fit.result.restarts,
          vt::to_string(fit.result.status).c_str(), fit.result.eta);
    QVERIFY(fit.result.restarts >= 1);
    QCOMPARE(fit.result.eta, 1e3 / std::pow(10.0, fit.result.restarts));
    QCOMPARE(static_cast<int>(recorder.chosen.size()), fit.result.restarts + 1);
    QCOMPARE(fit.result.status, vt::AdviStatus::converged);
  }

  void divergenceIsAStatusNotAnException() {
    const auto problem = conjugate_normal();
    const auto fit = vt::advi(problem.target, vt::AdviOptions().seed(6).adapt_engaged(false).eta(1e9));
    QCOMPARE(fit.result.status, vt::AdviStatus::diverged);
    QCOMPARE(fit.result.restarts, 3);
  }
};

QTEST_APPLESS_MAIN(TestAdvi)
#include "tst_advi.moc"
