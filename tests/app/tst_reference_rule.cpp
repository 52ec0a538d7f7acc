// The reference rule (tests/support/reference_rule.h) the reference posteriors are judged
// by: means and sds for most parameters, quantiles placed in the reference's distribution
// for a heavy-tailed one.

#include <cmath>

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include "tests/support/reference_rule.h"

using json = nlohmann::json;
namespace vt = variate::testing;

namespace {

// A reference quantile table of x = 10 p (uniform on [0, 10]) near 0.05, 0.5 and 0.95.
json uniform_quantiles() {
  json q;
  for (const double p : {0.01, 0.03, 0.05, 0.07, 0.09, 0.46, 0.5, 0.54, 0.91, 0.95, 0.99}) {
    char key[16];
    std::snprintf(key, sizeof key, "%g", p);
    q[key] = 10 * p;
  }
  return q;
}

json summary(double q5, double q50, double q95, double ess_tail = 1000) {
  return {{"mean", 5.0}, {"sd", 2.9},          {"mcse_mean", 0.05},    {"q5", q5},      {"q50", q50},
          {"q95", q95},  {"ess_bulk", 1000.0}, {"ess_tail", ess_tail}, {"r_hat", 1.001}};
}

}  // namespace

class TestReferenceRule : public QObject {
  Q_OBJECT

 private slots:
  void placesAValueBetweenTwoQuantiles() {
    const json q = uniform_quantiles();
    QCOMPARE(vt::reference_probability(q, 0.5), 0.05);
    QVERIFY(std::abs(vt::reference_probability(q, 0.6) - 0.06) < 1e-12);
    QVERIFY(std::abs(vt::reference_probability(q, 9.2) - 0.92) < 1e-12);
    QVERIFY(std::isnan(vt::reference_probability(q, 0.05)));  // below the table
    QVERIFY(std::isnan(vt::reference_probability(q, 9.95)));  // above it
  }

  // ESS 1000: q95's allowance is 4 sqrt(0.0475 (1/1000 + 1/10000)) = 0.029.
  void judgesAHeavyTailedParameterByItsQuantiles() {
    const json reference = {{"k", {{"mean", 5.0}, {"sd", 100.0}, {"quantiles", uniform_quantiles()}}}};
    QVERIFY(vt::reference_mismatches({{"k", summary(0.5, 5.0, 9.3)}}, reference, 10000).isEmpty());
    const QStringList low = vt::reference_mismatches({{"k", summary(0.5, 5.0, 9.1)}}, reference, 10000);
    QCOMPARE(low.size(), 1);
    QVERIFY2(low[0].startsWith("k: q95 9.1 is the reference's 0.91 quantile"), qPrintable(low[0]));
    // The sd (100 in the reference, 2.9 here) is not compared.
    QVERIFY(vt::reference_mismatches({{"k", summary(0.45, 4.9, 9.5)}}, reference, 10000).isEmpty());
  }

  void judgesOthersByMeanAndSd() {
    const json reference = {{"m", {{"mean", 5.0}, {"sd", 2.9}}}};
    QVERIFY(vt::reference_mismatches({{"m", summary(0.5, 5.0, 9.5)}}, reference, 10000).isEmpty());
    const json far = {{"m", {{"mean", 6.0}, {"sd", 2.9}}}};
    QCOMPARE(vt::reference_mismatches({{"m", summary(0.5, 5.0, 9.5)}}, far, 10000).size(), 1);
  }
};

QTEST_APPLESS_MAIN(TestReferenceRule)
#include "tst_reference_rule.moc"
