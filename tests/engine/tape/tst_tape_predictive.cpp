// The posterior predictive columns on the tape (tape::TapePredictive): on every model the
// project ships (but the one named below), the pointwise log likelihood equals LibTorch's
// tracer's to 1e-12 relative at 20 draws and the columns are laid out as its are; each family's replicated draws have
// the family's distribution (Kolmogorov-Smirnov against its CDF, or the moments of the
// discrete ones); a chain's stream gives the same values whether its rows come in one batch
// or several; and the services pick the tape where the draw columns are on it.

#include <cmath>
#include <random>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/io/data_file.h"
#include "engine/model/compile.h"
#include "engine/services/predictive_columns.h"
#include "engine/tape/compiler/tape_predictive.h"
#include "engine/tape/program/unsupported.h"
#include "engine/workflow/posterior_predictive.h"
#include "tests/support/shipped_models.h"
#include "tests/support/statistics.h"

namespace vm = variate::model;
namespace vt = variate::testing;
using variate::tape::TapePredictive;

namespace {

constexpr double kPi = 3.14159265358979323846;

// Shipped models whose predictive stays on LibTorch, with what the tape's reason names.
const std::map<QString, std::string> kNotOnTape = {};

const char* const kNormals = "Mixture([0.3, 0.7], Normal([-1, 2], [0.5, 1]))";
const char* const kPoissons = "Mixture([0.4, 0.6], Poisson([1.5, 6]))";

// As tst_tape_models: gp_pois_regr's Cholesky of a covariance with condition number ~1e10
// differs between the backends by ~1e-10, and so does its latent f.
double tolerance(const QString& name) { return name.contains("gp_pois_regr") ? 1e-9 : 1e-12; }

vm::CompiledModel compile(const std::string& name, const std::string& text, const variate::Data* data) {
  auto result = vm::compile_model(vm::Source(name, text), data);
  if (!result.ok()) qFatal("%s", result.report().c_str());
  return std::move(*result.model);
}

// 20 draws as a run records them (parameters column-major, then derived quantities), from
// standard-normal unconstrained points.
std::vector<std::vector<double>> draws(const vm::CompiledModel& model) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(20261206);
  std::vector<std::vector<double>> positions;
  for (int i = 0; i < 20; ++i) {
    const at::Tensor point = at::randn({model.layout().dimension()}, generator, at::kDouble);
    positions.emplace_back(point.data_ptr<double>(), point.data_ptr<double>() + point.numel());
  }
  return model.draw_columns().rows(positions);
}

// One replicated draw of `count` values of `family` at fixed arguments: a model without
// parameters whose data y (`count` copies of `y`) is observed.
std::vector<double> replicated(const std::string& family, bool integer, double y, int64_t count = 20000) {
  variate::Data data;
  data.set("N", count).set("y", at::full({count}, y, at::kDouble));
  const std::string text =
      "data N: int\ndata y: " + std::string(integer ? "int" : "real") + "[N]\ny ~ " + family + "\n";
  const vm::CompiledModel model = compile(family, text, &data);
  std::mt19937_64 random(7);
  return TapePredictive(model).rows({{}}, random).at(0).replicated;
}

double student_t_cdf(double t, double nu) {
  const double tail = 0.5 * vt::incomplete_beta(0.5 * nu, 0.5, nu / (nu + t * t));
  return t > 0 ? 1 - tail : tail;
}

}  // namespace

class TestTapePredictive : public QObject {
  Q_OBJECT

 private slots:
  void logLikAgreesWithTorch_data() {
    QTest::addColumn<QString>("name");
    for (const auto& [name, files] : vt::shipped_models()) QTest::newRow(qPrintable(name)) << name;
  }
  void logLikAgreesWithTorch() {
    QFETCH(QString, name);
    const vt::ShippedModel files = vt::shipped_models().at(name);
    const variate::Data data = variate::io::read_data_file(files.data);
    const vm::CompiledModel model = compile(files.model, variate::io::read_text_file(files.model), &data);
    const variate::workflow::PosteriorPredictive torch(model.log_joint(), model.layout());
    std::optional<TapePredictive> tape;
    try {
      tape.emplace(model);
    } catch (const variate::tape::Unsupported& e) {
      const auto reason = kNotOnTape.find(name);
      QVERIFY2(reason != kNotOnTape.end(), e.what());
      QVERIFY2(std::string(e.what()).find(reason->second) != std::string::npos, e.what());
      return;
    }
    QVERIFY(kNotOnTape.count(name) == 0);
    QCOMPARE(tape->observed().size(), torch.observed().size());
    for (size_t i = 0; i < torch.observed().size(); ++i) {
      QCOMPARE(tape->observed()[i].name, torch.observed()[i].name);
      QCOMPARE(tape->observed()[i].shape, torch.observed()[i].shape);
      QCOMPARE(tape->observed()[i].log_lik_shape, torch.observed()[i].log_lik_shape);
    }
    const auto rows = draws(model);
    std::mt19937_64 random(1);
    const auto got = tape->rows(rows, random);
    QCOMPARE(got.size(), rows.size());
    size_t compared = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      // LibTorch refuses to draw a truncation whose interval holds almost no mass (at these
      // standard-normal points, export/language's y may sit far in its family's tail),
      // where the tape's draws are NaN: such rows have no log likelihood to compare.
      variate::workflow::PredictiveRows want;
      try {
        want = torch.rows({rows[r]}, variate::workflow::chain_generator(1, 1));
      } catch (const variate::ArgumentError& e) {
        QVERIFY2(std::string(e.what()).find("too little") != std::string::npos, e.what());
        continue;
      }
      ++compared;
      QCOMPARE(got[r].log_lik.size(), want.log_lik[0].size());
      QCOMPARE(got[r].replicated.size(), want.replicated[0].size());
      for (size_t i = 0; i < got[r].log_lik.size(); ++i) {
        const double a = got[r].log_lik[i];
        const double b = want.log_lik[0][i];
        if (std::isinf(b)) {
          QCOMPARE(a, b);
          continue;
        }
        QVERIFY2(std::abs(a - b) <= tolerance(name) * std::max(1.0, std::abs(b)),
                 qPrintable(QString("draw %1, log_lik.%2: tape %3, LibTorch %4")
                                .arg(r + 1)
                                .arg(i + 1)
                                .arg(a, 0, 'g', 17)
                                .arg(b, 0, 'g', 17)));
      }
    }
    QVERIFY2(compared >= rows.size() / 2,
             qPrintable(QString("%1 of %2 draws compared").arg(compared).arg(rows.size())));
  }

  // Each family's pointwise log density at values across its support (data outside it is
  // refused when the model is compiled), against LibTorch's log_prob through the tracer.
  void familyLogLikAgreesWithTorch_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<bool>("integer");
    QTest::addColumn<QList<double>>("y");
    const QList<double> real = {-1.5, 0.3, 2.5, 40.0};
    const QList<double> positive = {0.3, 2.5, 40.0, 1e-3};
    for (const char* f :
         {"Normal(1.5, 2)", "Cauchy(1, 0.5)", "StudentT(4, -1, 2)", "Laplace(1, 2)", "Logistic(-1, 0.5)"}) {
      QTest::newRow(f) << QString(f) << false << real;
    }
    for (const char* f : {"HalfNormal(2)", "HalfCauchy(3)", "HalfStudentT(3, 2)", "Exponential(2.5)", "Gamma(2.5, 4)",
                          "InvGamma(3, 2)", "LogNormal(0.5, 0.8)", "Weibull(1.5, 2)"}) {
      QTest::newRow(f) << QString(f) << false << positive;
    }
    QTest::newRow("Beta") << "Beta(2, 5)" << false << QList<double>{0.05, 0.5, 0.99, 1e-6};
    QTest::newRow("Uniform") << "Uniform(-1, 2)" << false << QList<double>{-0.5, 1.9, -0.999};
    const QList<double> counts = {0, 3, 17, 40};
    QTest::newRow("Poisson") << "Poisson(3.5)" << true << counts;
    QTest::newRow("Poisson, log rate") << "Poisson(log_rate = 1.2)" << true << counts;
    QTest::newRow("NegBinomial2") << "NegBinomial2(4, 2.5)" << true << counts;
    QTest::newRow("NegBinomial2, large phi") << "NegBinomial2(4, 250)" << true << counts;
    QTest::newRow("Binomial") << "Binomial(10, 0.35)" << true << QList<double>{0, 4, 10, 7};
    QTest::newRow("Binomial, logits") << "Binomial(10, logits = -0.4)" << true << QList<double>{0, 4, 10, 7};
    QTest::newRow("Bernoulli") << "Bernoulli(0.3)" << true << QList<double>{0, 1, 1};
    QTest::newRow("Bernoulli, logits") << "Bernoulli(logits = -0.4)" << true << QList<double>{0, 1, 1};
    QTest::newRow("Mixture of Normals") << kNormals << false << real;
    QTest::newRow("Mixture of Poissons") << kPoissons << true << counts;
    QTest::newRow("Categorical") << "Categorical([0.2, 0.5, 0.3])" << true << QList<double>{1, 3, 2, 2};
    QTest::newRow("Categorical, logits") << "Categorical(logits = [0.1, -0.4, 1.2])" << true
                                         << QList<double>{1, 3, 2, 2};
    QTest::newRow("truncated Normal") << "Normal(1.5, 2) T[0, ]" << false << positive;
    QTest::newRow("truncated Cauchy") << "Cauchy(1, 0.5) T[-2, 3]" << false << QList<double>{-1.5, 0.3, 2.5, -2.0};
    QTest::newRow("truncated Logistic") << "Logistic(-1, 0.5) T[, 1]" << false << QList<double>{-1.5, 0.3, 1.0};
    QTest::newRow("truncated Exponential") << "Exponential(2.5) T[, 0.5]" << false << QList<double>{0.3, 1e-3, 0.5};
  }
  void familyLogLikAgreesWithTorch() {
    QFETCH(QString, family);
    QFETCH(bool, integer);
    QFETCH(QList<double>, y);
    const std::vector<double> values(y.begin(), y.end());
    variate::Data data;
    data.set("N", static_cast<int64_t>(y.size())).set("y", at::tensor(values, at::kDouble));
    const std::string text =
        "data N: int\ndata y: " + std::string(integer ? "int" : "real") + "[N]\ny ~ " + family.toStdString() + "\n";
    const vm::CompiledModel model = compile(family.toStdString(), text, &data);
    std::mt19937_64 random(1);
    const std::vector<double> got = TapePredictive(model).rows({{}}, random).at(0).log_lik;
    const variate::workflow::PosteriorPredictive torch(model.log_joint(), model.layout());
    const std::vector<double> want = torch.rows({{}}, variate::workflow::chain_generator(1, 1)).log_lik.at(0);
    QCOMPARE(got.size(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      const QString where =
          QString("y = %1: tape %2, LibTorch %3").arg(values[i]).arg(got[i], 0, 'g', 17).arg(want[i], 0, 'g', 17);
      if (!std::isfinite(want[i])) {
        QVERIFY2(got[i] == want[i], qPrintable(where));
        continue;
      }
      QVERIFY2(std::abs(got[i] - want[i]) <= 1e-12 * std::max(1.0, std::abs(want[i])), qPrintable(where));
    }
  }

  void continuousDrawsFollowTheirFamily_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<double>("y");  // a value in the support, for the model to compile
    QTest::addColumn<std::function<double(double)>>("cdf");
    const auto normal = [](double mu, double sigma) {
      return [=](double x) { return vt::normal_cdf((x - mu) / sigma); };
    };
    QTest::newRow("Normal") << "Normal(1.5, 2)" << 0.5 << std::function<double(double)>(normal(1.5, 2));
    QTest::newRow("HalfNormal") << "HalfNormal(2)" << 0.5 << std::function<double(double)>([](double x) {
      return 2 * vt::normal_cdf(x / 2) - 1;
    });
    QTest::newRow("Cauchy") << "Cauchy(1, 0.5)" << 0.5 << std::function<double(double)>([](double x) {
      return 0.5 + std::atan((x - 1) / 0.5) / kPi;
    });
    QTest::newRow("HalfCauchy") << "HalfCauchy(3)" << 0.5
                                << std::function<double(double)>([](double x) { return 2 / kPi * std::atan(x / 3); });
    QTest::newRow("StudentT") << "StudentT(4, -1, 2)" << 0.5
                              << std::function<double(double)>([](double x) { return student_t_cdf((x + 1) / 2, 4); });
    QTest::newRow("HalfStudentT") << "HalfStudentT(3, 2)" << 0.5 << std::function<double(double)>([](double x) {
      return 2 * student_t_cdf(x / 2, 3) - 1;
    });
    QTest::newRow("Laplace") << "Laplace(1, 2)" << 0.5 << std::function<double(double)>([](double x) {
      const double z = (x - 1) / 2;
      return z < 0 ? 0.5 * std::exp(z) : 1 - 0.5 * std::exp(-z);
    });
    QTest::newRow("Logistic") << "Logistic(-1, 0.5)" << 0.5 << std::function<double(double)>([](double x) {
      return 1 / (1 + std::exp(-(x + 1) / 0.5));
    });
    QTest::newRow("Exponential") << "Exponential(2.5)" << 0.5
                                 << std::function<double(double)>([](double x) { return 1 - std::exp(-2.5 * x); });
    QTest::newRow("Gamma") << "Gamma(2.5, 4)" << 0.5
                           << std::function<double(double)>([](double x) { return vt::incomplete_gamma(2.5, 4 * x); });
    QTest::newRow("Gamma, shape below 1")
        << "Gamma(0.4, 1)" << 0.5
        << std::function<double(double)>([](double x) { return vt::incomplete_gamma(0.4, x); });
    QTest::newRow("InvGamma") << "InvGamma(3, 2)" << 0.5 << std::function<double(double)>([](double x) {
      return 1 - vt::incomplete_gamma(3, 2 / x);
    });
    QTest::newRow("LogNormal") << "LogNormal(0.5, 0.8)" << 0.5 << std::function<double(double)>([](double x) {
      return vt::normal_cdf((std::log(x) - 0.5) / 0.8);
    });
    QTest::newRow("Weibull") << "Weibull(1.5, 2)" << 0.5 << std::function<double(double)>([](double x) {
      return 1 - std::exp(-std::pow(x / 2, 1.5));
    });
    QTest::newRow("Beta") << "Beta(2, 5)" << 0.5
                          << std::function<double(double)>([](double x) { return vt::incomplete_beta(2, 5, x); });
    QTest::newRow("Uniform") << "Uniform(-1, 2)" << 0.5
                             << std::function<double(double)>([](double x) { return (x + 1) / 3; });
    QTest::newRow("Mixture of Normals") << kNormals << 0.5 << std::function<double(double)>([](double x) {
      return 0.3 * vt::normal_cdf((x + 1) / 0.5) + 0.7 * vt::normal_cdf(x - 2);
    });
    QTest::newRow("truncated Normal") << "Normal(1, 2) T[0, 3]" << 0.5 << std::function<double(double)>([](double x) {
      const double below = vt::normal_cdf(-0.5), mass = vt::normal_cdf(1) - below;
      return (vt::normal_cdf((x - 1) / 2) - below) / mass;
    });
    QTest::newRow("truncated Exponential")
        << "Exponential(2.5) T[, 0.5]" << 0.3
        << std::function<double(double)>([](double x) { return (1 - std::exp(-2.5 * x)) / (1 - std::exp(-1.25)); });
  }
  void continuousDrawsFollowTheirFamily() {
    QFETCH(QString, family);
    QFETCH(double, y);
    QFETCH(std::function<double(double)>, cdf);
    const std::vector<double> values = replicated(family.toStdString(), false, y);
    const auto ks = vt::ks_test(at::tensor(values, at::kDouble), cdf);
    QVERIFY2(ks.p_value > 1e-3, qPrintable(QString("KS statistic %1, p = %2").arg(ks.statistic).arg(ks.p_value)));
  }

  // The check has the power to tell: a scale 5% off, or a location a twentieth of a scale
  // off, is rejected.
  void continuousCheckRejectsAnotherDistribution() {
    const at::Tensor values = at::tensor(replicated("Normal(1.5, 2)", false, 0.5), at::kDouble);
    QVERIFY(vt::ks_test(values, [](double x) { return vt::normal_cdf((x - 1.5) / 2.1); }).p_value < 1e-3);
    QVERIFY(vt::ks_test(values, [](double x) { return vt::normal_cdf((x - 1.6) / 2); }).p_value < 1e-3);
  }

  void discreteDrawsFollowTheirFamily_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("variance");
    const double p = 1 / (1 + std::exp(0.4));  // sigmoid(-0.4)
    QTest::newRow("Poisson") << "Poisson(3.5)" << 3.5 << 3.5;
    QTest::newRow("Poisson, log rate") << "Poisson(log_rate = 1.2)" << std::exp(1.2) << std::exp(1.2);
    QTest::newRow("Bernoulli") << "Bernoulli(0.3)" << 0.3 << 0.21;
    QTest::newRow("Bernoulli, logits") << "Bernoulli(logits = -0.4)" << p << p * (1 - p);
    QTest::newRow("Binomial") << "Binomial(10, 0.35)" << 3.5 << 10 * 0.35 * 0.65;
    QTest::newRow("Binomial, logits") << "Binomial(10, logits = -0.4)" << 10 * p << 10 * p * (1 - p);
    QTest::newRow("NegBinomial2") << "NegBinomial2(4, 2.5)" << 4.0 << 4 + 16 / 2.5;
    // E = sum w mu; Var = E[Var] + Var[E] = 4.2 + (0.4 * 1.5^2 + 0.6 * 6^2 - 4.2^2).
    QTest::newRow("Mixture of Poissons") << kPoissons << 4.2 << 4.2 + 0.9 + 21.6 - 17.64;
    // 1, 2, 3 with 0.2, 0.5, 0.3: E = 2.1, E[X^2] = 4.9.
    QTest::newRow("Categorical") << "Categorical([0.2, 0.5, 0.3])" << 2.1 << 4.9 - 2.1 * 2.1;
    QTest::newRow("Categorical, logits") << "Categorical(logits = [0.5, 1.41629073187415511, 0.905465108108164])" << 2.1
                                         << 4.9 - 2.1 * 2.1;
  }
  void discreteDrawsFollowTheirFamily() {
    QFETCH(QString, family);
    QFETCH(double, mean);
    QFETCH(double, variance);
    const std::vector<double> values = replicated(family.toStdString(), true, 1);
    for (const double v : values) QVERIFY(v >= 0 && v == std::floor(v));
    const std::string off = vt::check_moments(at::tensor(values, at::kDouble), at::scalar_tensor(mean, at::kDouble),
                                              at::scalar_tensor(variance, at::kDouble));
    QVERIFY2(off.empty(), off.c_str());
  }

  // MultiNormal rows, with a covariance or its Cholesky factor: the sample's means and
  // covariances within 5 standard errors of the family's.
  void multiNormalDrawsHaveTheirMoments_data() {
    QTest::addColumn<QString>("family");
    QTest::newRow("Sigma") << "MultiNormal([1, -2], [[2, 0.6], [0.6, 1]])";
    // L L^T = [[2, 0.6], [0.6, 1]].
    const double l11 = std::sqrt(2.0), l21 = 0.6 / std::sqrt(2.0), l22 = std::sqrt(1 - 0.18);
    QTest::newRow("scale_tril") << QString("MultiNormal([1, -2], scale_tril = [[%1, 0], [%2, %3]])")
                                       .arg(l11, 0, 'g', 17)
                                       .arg(l21, 0, 'g', 17)
                                       .arg(l22, 0, 'g', 17);
  }
  void multiNormalDrawsHaveTheirMoments() {
    QFETCH(QString, family);
    constexpr int64_t N = 20000;
    variate::Data data;
    data.set("N", N).set("Y", at::zeros({N, 2}, at::kDouble));
    const vm::CompiledModel model =
        compile("m", "data N: int\ndata Y: real[N, 2]\nY ~ " + family.toStdString() + "\n", &data);
    const TapePredictive tape(model);
    QCOMPARE(tape.observed()[0].log_lik_shape, variate::Shape{N});
    std::mt19937_64 random(11);
    const std::vector<double> y = tape.rows({{}}, random).at(0).replicated;  // column-major: Y[, 1] then Y[, 2]
    const double mean[2] = {1, -2}, sigma[2][2] = {{2, 0.6}, {0.6, 1}};
    double m[2] = {0, 0}, c[2][2] = {{0, 0}, {0, 0}};
    for (int a = 0; a < 2; ++a) {
      for (int64_t i = 0; i < N; ++i) m[a] += y[a * N + i] / N;
    }
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) {
        for (int64_t i = 0; i < N; ++i) c[a][b] += (y[a * N + i] - m[a]) * (y[b * N + i] - m[b]) / (N - 1);
      }
    }
    for (int a = 0; a < 2; ++a) {
      QVERIFY2(std::abs(m[a] - mean[a]) < 5 * std::sqrt(sigma[a][a] / N), qPrintable(QString::number(m[a])));
      for (int b = 0; b < 2; ++b) {
        const double se = std::sqrt((sigma[a][a] * sigma[b][b] + sigma[a][b] * sigma[a][b]) / N);
        QVERIFY2(std::abs(c[a][b] - sigma[a][b]) < 5 * se, qPrintable(QString::number(c[a][b])));
      }
    }
  }

  // A chain's stream is consumed row by row: two batches give what one gives.
  void batchesGiveTheSameValues() {
    const vt::ShippedModel files = vt::shipped_models().at("projects/eight_schools");
    const variate::Data data = variate::io::read_data_file(files.data);
    const vm::CompiledModel model = compile(files.model, variate::io::read_text_file(files.model), &data);
    const TapePredictive tape(model);
    const auto rows = draws(model);
    std::mt19937_64 whole(5), parts(5), other(6);
    const auto all = tape.rows(rows, whole);
    auto first = tape.rows({rows.begin(), rows.begin() + 7}, parts);
    const auto rest = tape.rows({rows.begin() + 7, rows.end()}, parts);
    first.insert(first.end(), rest.begin(), rest.end());
    for (size_t r = 0; r < rows.size(); ++r) {
      QCOMPARE(first[r].replicated, all[r].replicated);
      QCOMPARE(first[r].log_lik, all[r].log_lik);
    }
    QVERIFY(tape.rows(rows, other)[0].replicated != all[0].replicated);
  }

  // The services put the predictive on the tape where the draw columns are, and keep
  // LibTorch's when asked for it.
  void servicesChooseTheTape() {
    const vt::ShippedModel files = vt::shipped_models().at("projects/eight_schools");
    const variate::Data data = variate::io::read_data_file(files.data);
    const vm::CompiledModel model = compile(files.model, variate::io::read_text_file(files.model), &data);
    const variate::services::PredictiveColumns on_tape(model, true);
    const variate::services::PredictiveColumns on_torch(model, false);
    QCOMPARE(QString::fromStdString(on_tape.backend()), QStringLiteral("tape"));
    QCOMPARE(QString::fromStdString(on_torch.backend()), QStringLiteral("torch"));
    QCOMPARE(on_tape.replicated_names(variate::NameStyle::StanCsv),
             on_torch.replicated_names(variate::NameStyle::StanCsv));
    const auto rows = draws(model);
    auto stream = variate::services::PredictiveColumns::chain_stream(3, 2);
    auto again = variate::services::PredictiveColumns::chain_stream(3, 2);
    QCOMPARE(on_tape.rows(rows, stream).replicated, on_tape.rows(rows, again).replicated);
  }
};

QTEST_APPLESS_MAIN(TestTapePredictive)
#include "tst_tape_predictive.moc"
