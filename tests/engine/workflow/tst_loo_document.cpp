// The LOO document a run stores: every estimate and pointwise value reads back as written,
// an infinite or undefined Pareto k included, and a document that is not one is refused.

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

#include "engine/core/argument_error.h"
#include "engine/workflow/loo_document.h"

namespace vd = variate::diagnostics;
namespace vw = variate::workflow;

class TestLooDocument : public QObject {
  Q_OBJECT

 private slots:
  void readsBackWhatItWrote() {
    vd::LooResult loo;
    loo.elpd_loo = -30.75;
    loo.se_elpd_loo = 1.25;
    loo.p_loo = 1.1;
    loo.se_p_loo = 0.3;
    loo.looic = 61.5;
    loo.se_looic = 2.5;
    loo.pointwise_elpd = {-3.5, -4.0 / 3.0, -2.0};
    loo.pointwise_p = {0.1, 0.2, 0.3};
    loo.pareto_k = {0.25, std::numeric_limits<double>::infinity(), std::nan("")};
    loo.r_eff = {0.9, 1.0, 1.1};
    const std::string document = vw::loo_document(loo, 4000);
    QVERIFY(document.find("\"draws\":4000") != std::string::npos);
    QCOMPARE(vw::loo_document_draws(document), size_t{4000});
    QVERIFY(document.find("\"pareto_k\":[0.25,\"Inf\",null]") != std::string::npos);
    const vd::LooResult back = vw::loo_from_document(document);
    QCOMPARE(back.elpd_loo, loo.elpd_loo);
    QCOMPARE(back.se_elpd_loo, loo.se_elpd_loo);
    QCOMPARE(back.p_loo, loo.p_loo);
    QCOMPARE(back.se_p_loo, loo.se_p_loo);
    QCOMPARE(back.looic, loo.looic);
    QCOMPARE(back.se_looic, loo.se_looic);
    QCOMPARE(back.pointwise_elpd, loo.pointwise_elpd);  // exactly: -4/3 round-trips
    QCOMPARE(back.pointwise_p, loo.pointwise_p);
    QCOMPARE(back.r_eff, loo.r_eff);
    QCOMPARE(back.pareto_k[0], 0.25);
    QVERIFY(std::isinf(back.pareto_k[1]));
    QVERIFY(std::isnan(back.pareto_k[2]));
  }

  void refusesWhatIsNotOne() {
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vw::loo_from_document("{\"elpd_loo\": 1}"));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vw::loo_from_document("not json"));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vw::loo_document_draws("{\"elpd_loo\": 1}"));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vw::loo_document_draws("not json"));
  }
};

QTEST_APPLESS_MAIN(TestLooDocument)
#include "tst_loo_document.moc"
