// `variate logp` on every reference model at three points, against log densities written
// out by hand here in double arithmetic (all normalizing constants), with and without the
// Jacobian; gradients against finite differences of the hand-written densities.

#include <cmath>
#include <functional>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

using Vec = std::vector<double>;
using Params = std::map<std::string, Vec>;  // scalars are 1-element vectors
using Density = std::function<double(const Params&, const json& data)>;

const double kLog2Pi = std::log(2 * M_PI);

double normal(double x, double mu, double sigma) {
  const double z = (x - mu) / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * kLog2Pi;
}
double half_cauchy(double x, double s) {
  return std::log(2.0) - std::log(M_PI * s) - std::log1p((x / s) * (x / s));
}
double half_normal(double x, double s) { return std::log(2.0) + normal(x, 0, s); }
double student_t(double x, double nu, double mu, double s) {
  const double z = (x - mu) / s;
  return std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2) - 0.5 * std::log(nu * M_PI) -
         std::log(s) - (nu + 1) / 2 * std::log1p(z * z / nu);
}
double gamma_rate(double x, double a, double b) {
  return a * std::log(b) - std::lgamma(a) + (a - 1) * std::log(x) - b * x;
}
double poisson_log(double k, double f) { return k * f - std::exp(f) - std::lgamma(k + 1); }

Vec numbers(const json& j) {
  if (j.is_number()) return {j.get<double>()};
  Vec v;
  for (const auto& x : j) v.push_back(x.get<double>());
  return v;
}

double eight_schools(const Params& p, const json& d) {
  const Vec y = numbers(d["y"]), sigma = numbers(d["sigma"]);
  const double mu = p.at("mu")[0], tau = p.at("tau")[0];
  double lp = normal(mu, 0, 5) + half_cauchy(tau, 5);
  for (size_t j = 0; j < y.size(); ++j) {
    const double t = p.at("theta_trans")[j];
    lp += normal(t, 0, 1) + normal(y[j], t * tau + mu, sigma[j]);
  }
  return lp;
}

double ar_k(const Params& p, const json& d) {
  const Vec y = numbers(d["y"]);
  const int K = d["K"], T = d["T"];
  const double alpha = p.at("alpha")[0], sigma = p.at("sigma")[0];
  const Vec& beta = p.at("beta");
  double lp = normal(alpha, 0, 10) + half_cauchy(sigma, 2.5);
  for (double b : beta) lp += normal(b, 0, 10);
  for (int t = K; t < T; ++t) {  // 0-based: y[t] given y[t-1..t-K]
    double mean = alpha;
    for (int k = 1; k <= K; ++k) mean += beta[k - 1] * y[t - k];
    lp += normal(y[t], mean, sigma);
  }
  return lp;
}

double diamonds(const Params& p, const json& d) {
  const int N = d["N"], K = d["K"];
  const Vec Y = numbers(d["Y"]);
  const Vec& b = p.at("b");
  const double intercept = p.at("Intercept")[0], sigma = p.at("sigma")[0];
  Vec means(K - 1, 0.0);
  for (int n = 0; n < N; ++n)
    for (int k = 1; k < K; ++k) means[k - 1] += d["X"][n][k].get<double>() / N;
  double lp = student_t(intercept, 3, 8, 10) + std::log(2.0) + student_t(sigma, 3, 0, 10);
  for (double bk : b) lp += normal(bk, 0, 1);
  for (int n = 0; n < N; ++n) {
    double mean = intercept;
    for (int k = 1; k < K; ++k) mean += (d["X"][n][k].get<double>() - means[k - 1]) * b[k - 1];
    lp += normal(Y[n], mean, sigma);
  }
  return lp;
}

double earnings(const Params& p, const json& d) {
  const Vec earn = numbers(d["earn"]), height = numbers(d["height"]), male = numbers(d["male"]);
  const Vec& b = p.at("beta");
  double lp = 0;  // flat priors
  for (size_t n = 0; n < earn.size(); ++n) {
    const double mean = b[0] + b[1] * height[n] + b[2] * male[n] + b[3] * height[n] * male[n];
    lp += normal(std::log(earn[n]), mean, p.at("sigma")[0]);
  }
  return lp;
}

double earn_height(const Params& p, const json& d) {
  const Vec earn = numbers(d["earn"]), height = numbers(d["height"]);
  const Vec& b = p.at("beta");
  double lp = 0;  // flat priors
  for (size_t n = 0; n < earn.size(); ++n) lp += normal(earn[n], b[0] + b[1] * height[n], p.at("sigma")[0]);
  return lp;
}

double gp_pois_regr(const Params& p, const json& d) {
  const Vec x = numbers(d["x"]), k = numbers(d["k"]);
  const size_t N = x.size();
  const double rho = p.at("rho")[0], alpha = p.at("alpha")[0];
  const Vec& f_tilde = p.at("f_tilde");
  std::vector<Vec> L(N, Vec(N, 0.0));
  for (size_t i = 0; i < N; ++i) {
    for (size_t j = 0; j <= i; ++j) {
      double c = alpha * alpha * std::exp(-0.5 * (x[i] - x[j]) * (x[i] - x[j]) / (rho * rho));
      if (i == j) c += 1e-10;
      for (size_t q = 0; q < j; ++q) c -= L[i][q] * L[j][q];
      L[i][j] = i == j ? std::sqrt(c) : c / L[j][j];
    }
  }
  double lp = gamma_rate(rho, 25, 4) + half_normal(alpha, 2);
  for (size_t i = 0; i < N; ++i) {
    lp += normal(f_tilde[i], 0, 1);
    double f = 0;
    for (size_t j = 0; j <= i; ++j) f += L[i][j] * f_tilde[j];
    lp += poisson_log(k[i], f);
  }
  return lp;
}

double kidiq(const Params& p, const json& d) {
  const Vec score = numbers(d["kid_score"]), iq = numbers(d["mom_iq"]), hs = numbers(d["mom_hs"]);
  const Vec& b = p.at("beta");
  const double sigma = p.at("sigma")[0];
  double lp = half_cauchy(sigma, 2.5);
  for (size_t n = 0; n < score.size(); ++n) lp += normal(score[n], b[0] + b[1] * hs[n] + b[2] * iq[n], sigma);
  return lp;
}

double kidiq_interaction(const Params& p, const json& d) {
  const Vec score = numbers(d["kid_score"]), iq = numbers(d["mom_iq"]), hs = numbers(d["mom_hs"]);
  const Vec& b = p.at("beta");
  const double sigma = p.at("sigma")[0];
  double lp = half_cauchy(sigma, 2.5);
  for (size_t n = 0; n < score.size(); ++n) {
    lp += normal(score[n], b[0] + b[1] * hs[n] + b[2] * iq[n] + b[3] * hs[n] * iq[n], sigma);
  }
  return lp;
}

double kilpisjarvi(const Params& p, const json& d) {
  const Vec x = numbers(d["x"]), y = numbers(d["y"]);
  const double alpha = p.at("alpha")[0], beta = p.at("beta")[0], sigma = p.at("sigma")[0];
  double lp = normal(alpha, d["pmualpha"].get<double>(), d["psalpha"].get<double>()) +
              normal(beta, d["pmubeta"].get<double>(), d["psbeta"].get<double>());  // sigma: flat
  for (size_t n = 0; n < y.size(); ++n) lp += normal(y[n], alpha + beta * x[n], sigma);
  return lp;
}

double mesquite(const Params& p, const json& d) {
  const Vec w = numbers(d["weight"]), d1 = numbers(d["diam1"]), d2 = numbers(d["diam2"]),
            ch = numbers(d["canopy_height"]), th = numbers(d["total_height"]),
            dens = numbers(d["density"]), group = numbers(d["group"]);
  const Vec& b = p.at("beta");
  double lp = 0;
  for (size_t n = 0; n < w.size(); ++n) {
    const double mean = b[0] + b[1] * std::log(d1[n] * d2[n] * ch[n]) + b[2] * std::log(d1[n] * d2[n]) +
                        b[3] * std::log(d1[n] / d2[n]) + b[4] * std::log(th[n]) +
                        b[5] * std::log(dens[n]) + b[6] * group[n];
    lp += normal(std::log(w[n]), mean, p.at("sigma")[0]);
  }
  return lp;
}

double mesquite_raw(const Params& p, const json& d) {
  const Vec w = numbers(d["weight"]), d1 = numbers(d["diam1"]), d2 = numbers(d["diam2"]),
            ch = numbers(d["canopy_height"]), th = numbers(d["total_height"]),
            dens = numbers(d["density"]), group = numbers(d["group"]);
  const Vec& b = p.at("beta");
  double lp = 0;
  for (size_t n = 0; n < w.size(); ++n) {
    const double mean = b[0] + b[1] * d1[n] + b[2] * d2[n] + b[3] * ch[n] + b[4] * th[n] + b[5] * dens[n] +
                        b[6] * group[n];
    lp += normal(w[n], mean, p.at("sigma")[0]);
  }
  return lp;
}

double sblrc(const Params& p, const json& d) {
  const Vec y = numbers(d["y"]);
  const Vec& beta = p.at("beta");
  const double sigma = p.at("sigma")[0];
  double lp = half_normal(sigma, 10);
  for (double b : beta) lp += normal(b, 0, 10);
  for (size_t n = 0; n < y.size(); ++n) {
    double mean = 0;
    for (size_t k = 0; k < beta.size(); ++k) mean += d["X"][n][k].get<double>() * beta[k];
    lp += normal(y[n], mean, sigma);
  }
  return lp;
}

// ARMA(1, 1) as Stan's arma11 writes it: err[t] = y[t] - nu[t], err ~ Normal(0, sigma).
double arma11(const Params& p, const json& d) {
  const Vec y = numbers(d["y"]);
  const double mu = p.at("mu")[0], phi = p.at("phi")[0], theta = p.at("theta")[0], sigma = p.at("sigma")[0];
  double lp = normal(mu, 0, 10) + normal(phi, 0, 2) + normal(theta, 0, 2) + half_cauchy(sigma, 2.5);
  double err = y[0] - (mu + phi * mu);
  lp += normal(err, 0, sigma);
  for (size_t t = 1; t < y.size(); ++t) {
    err = y[t] - (mu + phi * y[t - 1] + theta * err);
    lp += normal(err, 0, sigma);
  }
  return lp;
}

struct Case {
  Density density;
  std::vector<std::string> positive;  // parameters on (0, inf): log-Jacobian log(x)
};

const std::map<QString, Case>& cases() {
  static const std::map<QString, Case> table = {
      {"arK-arK", {ar_k, {"sigma"}}},
      {"arma-arma11", {arma11, {"sigma"}}},
      {"diamonds-diamonds", {diamonds, {"sigma"}}},
      {"earnings-earn_height", {earn_height, {"sigma"}}},
      {"earnings-logearn_interaction", {earnings, {"sigma"}}},
      {"eight_schools-eight_schools_noncentered", {eight_schools, {"tau"}}},
      {"gp_pois_regr-gp_pois_regr", {gp_pois_regr, {"rho", "alpha"}}},
      {"kidiq-kidscore_interaction", {kidiq_interaction, {"sigma"}}},
      {"kidiq-kidscore_momhsiq", {kidiq, {"sigma"}}},
      {"kilpisjarvi_mod-kilpisjarvi", {kilpisjarvi, {"sigma"}}},
      {"mesquite-logmesquite_logvas", {mesquite, {"sigma"}}},
      {"mesquite-mesquite", {mesquite_raw, {"sigma"}}},
      {"sblrc-blr", {sblrc, {"sigma"}}},
  };
  return table;
}

json run_logp(const QString& folder, const QString& params, bool jacobian) {
  QStringList arguments = {"logp", folder + "/model.vmod", "--data", folder + "/data.json",
                           "--params", params};
  if (jacobian) arguments << "--jacobian";
  QProcess process;
  process.start(VARIATE_EXECUTABLE, arguments);
  process.waitForFinished(120000);
  const QByteArray out = process.readAllStandardOutput();
  if (process.exitCode() != 0) {
    qWarning() << process.readAllStandardError();
    return {};
  }
  return json::parse(out.toStdString());
}

double relative_error(double a, double b) { return std::abs(a - b) / std::max(1.0, std::abs(b)); }

}  // namespace

class TestVariateLogp : public QObject {
  Q_OBJECT

 private slots:
  void matchesHandWrittenDensity_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("point");
    for (const auto& [name, c] : cases()) {
      for (int point = 0; point < 3; ++point) {
        QTest::newRow(qPrintable(QString("%1 #%2").arg(name).arg(point + 1))) << name << point;
      }
    }
  }
  void matchesHandWrittenDensity() {
    QFETCH(QString, name);
    QFETCH(int, point);
    const QString folder = QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name;
    QFile data_file(folder + "/data.json");
    QVERIFY(data_file.open(QIODevice::ReadOnly));
    const json data = json::parse(data_file.readAll().toStdString());
    QFile stan_file(folder + "/stan_logdensity.json");
    QVERIFY(stan_file.open(QIODevice::ReadOnly));
    // Stan's evaluation points are realistic places in each posterior.
    const json given = json::parse(stan_file.readAll().toStdString())["points"][point]["params"];

    QTemporaryFile params_file;
    QVERIFY(params_file.open());
    params_file.write(QByteArray::fromStdString(given.dump()));
    params_file.flush();

    Params params;
    for (const auto& [key, value] : given.items()) params[key] = numbers(value);
    const Case& c = cases().at(name);
    const double expected = c.density(params, data);

    const json plain = run_logp(folder, params_file.fileName(), false);
    QVERIFY2(!plain.is_null(), "variate logp failed");
    const double got = plain["log_density"];
    QVERIFY2(relative_error(got, expected) < 1e-8,
             qPrintable(QString("log density %1, by hand %2").arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));

    // Gradient with respect to the constrained values, against central differences.
    for (auto& [key, values] : params) {
      for (size_t i = 0; i < values.size(); ++i) {
        const double x = values[i];
        const double h = 1e-6 * std::max(1.0, std::abs(x));
        values[i] = x + h;
        const double up = c.density(params, data);
        values[i] = x - h;
        const double down = c.density(params, data);
        values[i] = x;
        const double numeric = (up - down) / (2 * h);
        const json& g = plain["gradient"][key];
        const double analytic = g.is_array() ? g[i].get<double>() : g.get<double>();
        // Rounding in f(x + h) - f(x - h) is about eps |f| / h: large for big data sets.
        const double rounding = 8 * 2.2e-16 * std::abs(expected) / h;
        QVERIFY2(std::abs(analytic - numeric) <= 1e-5 * std::max(1.0, std::abs(numeric)) + rounding,
                 qPrintable(QString("d/d%1[%2]: %3 vs finite differences %4")
                                .arg(QString::fromStdString(key)).arg(i).arg(analytic).arg(numeric)));
      }
    }

    // With the Jacobian: log(x) for each positive parameter (x = exp(unconstrained)).
    double log_jacobian = 0;
    for (const auto& name_positive : c.positive) log_jacobian += std::log(params.at(name_positive)[0]);
    const json with_jacobian = run_logp(folder, params_file.fileName(), true);
    QVERIFY2(!with_jacobian.is_null(), "variate logp --jacobian failed");
    const double got_jacobian = with_jacobian["log_density"];
    QVERIFY2(relative_error(got_jacobian, expected + log_jacobian) < 1e-8,
             qPrintable(QString("with Jacobian %1, by hand %2").arg(got_jacobian, 0, 'g', 17)
                            .arg(expected + log_jacobian, 0, 'g', 17)));
    // Chain rule: d/dlog(x) = x * d/dx + 1 for a positive parameter.
    for (const auto& positive : c.positive) {
      const double x = params.at(positive)[0];
      const double expected_gradient = x * plain["gradient"][positive].get<double>() + 1.0;
      const double g = with_jacobian["gradient"][positive].get<double>();
      QVERIFY2(std::abs(g - expected_gradient) <= 1e-8 * std::max(1.0, std::abs(expected_gradient)),
               qPrintable(QString("unconstrained gradient of %1: %2 vs %3")
                              .arg(QString::fromStdString(positive)).arg(g).arg(expected_gradient)));
    }
  }
};

QTEST_GUILESS_MAIN(TestVariateLogp)
#include "tst_variate_logp.moc"
