// Monte Carlo standard errors against posterior's definitions evaluated in R, and against
// their iid values.

#include <QtTest/QtTest>
#include <cmath>

#include "tests/engine/diagnostics/reference_draws.h"
#include "engine/diagnostics/ess.h"
#include "engine/diagnostics/mcse.h"

namespace vd = variate::diagnostics;
namespace vtest = variate::testing;

namespace {

vd::Draws normal_draws(int chains, int n, uint64_t seed, double sigma) {
  at::Generator generator = at::detail::createCPUGenerator(seed);
  const at::Tensor z = (sigma * at::randn({chains, n}, generator, at::kDouble)).contiguous();
  vd::Draws draws(chains);
  for (int c = 0; c < chains; ++c) {
    draws[c].assign(z.data_ptr<double>() + c * n, z.data_ptr<double>() + (c + 1) * n);
  }
  return draws;
}

}  // namespace

class TestMcse : public QObject {
  Q_OBJECT

 private slots:
  void matchesR_data() {
    QTest::addColumn<QString>("set");
    const QStringList names = vtest::reference_set_names();
    if (names.isEmpty()) QTest::newRow("reference data missing") << QString("missing");
    for (const QString& name : names) QTest::newRow(qPrintable(name)) << name;
  }
  void matchesR() {
    QFETCH(QString, set);
    const vd::Draws draws = vtest::read_reference_draws(set);
    QVERIFY2(!draws.empty(), "reference draws missing");
    auto expected = vtest::read_reference_expected()[set];
    QVERIFY(!expected.empty());
    std::string error =
        vtest::compare_to_reference("mcse_mean", vd::mcse_mean(draws), expected.at("mcse_mean"));
    if (error.empty()) {
      error = vtest::compare_to_reference("mcse_sd", vd::mcse_sd(draws), expected.at("mcse_sd"));
    }
    QVERIFY2(error.empty(), error.c_str());
  }

  void iidValues() {
    // For S iid normal draws: MCSE of the mean ~ sigma / sqrt(S), of the sd ~ sigma /
    // sqrt(2 S).
    const double sigma = 3;
    const vd::Draws draws = normal_draws(4, 10000, 21, sigma);
    const double s = 40000;
    QVERIFY(std::abs(vd::mcse_mean(draws) / (sigma / std::sqrt(s)) - 1) < 0.1);
    QVERIFY(std::abs(vd::mcse_sd(draws) / (sigma / std::sqrt(2 * s)) - 1) < 0.1);
  }

  void mcseMeanIsSdOverRootEss() {
    const vd::Draws draws = normal_draws(2, 300, 22, 0.5);
    double sum = 0, squares = 0;
    for (const auto& chain : draws) {
      for (double x : chain) sum += x;
    }
    const double mean = sum / 600;
    for (const auto& chain : draws) {
      for (double x : chain) squares += (x - mean) * (x - mean);
    }
    QCOMPARE(vd::mcse_mean(draws), std::sqrt(squares / 599) / std::sqrt(vd::ess_mean(draws)));
  }

  void undefinedCasesGiveNaN() {
    QVERIFY(std::isnan(vd::mcse_mean(vd::Draws(4, std::vector<double>(50, 1.0)))));
    QVERIFY(std::isnan(vd::mcse_sd(vd::Draws(4, std::vector<double>(50, 1.0)))));
    vd::Draws draws = normal_draws(4, 50, 23, 1);
    draws[2][7] = std::nan("");
    QVERIFY(std::isnan(vd::mcse_mean(draws)));
    QVERIFY(std::isnan(vd::mcse_sd(draws)));
    QVERIFY(std::isnan(vd::mcse_mean(normal_draws(4, 5, 24, 1))));
    QVERIFY(std::isnan(vd::mcse_sd(vd::Draws(2, std::vector<double>{}))));
  }
};

QTEST_APPLESS_MAIN(TestMcse)
#include "tst_mcse.moc"
