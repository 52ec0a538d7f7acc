// Declared supports in C++ models (Stan's `ordered[K] c; c ~ normal(0, 5)`): the variable
// takes the support, inference the support's bijector; other variables are untouched.

#include <QtTest/QtTest>

#include "engine/core/with_support.h"
#include "engine/variate.h"

namespace vt = variate;

class TestWithSupport : public QObject {
  Q_OBJECT

 private slots:
  void overridesTheDistributionsSupport() {
    vt::Trace trace;
    {
      vt::TracerScope scope(trace);
      vt::with_support(vt::Support::ordered(), [] { return vt::Normal("c", 0.0, 5.0, {3}); });
      vt::Normal("free", 0.0, 1.0);
    }
    QCOMPARE(trace["c"].support().kind(), vt::Support::Kind::Ordered);
    QCOMPARE(trace["free"].support().kind(), vt::Support::Kind::Real);
  }

  void layoutUsesTheDeclaredSupport() {
    const auto model = [] {
      vt::with_support(vt::Support::simplex(), [] { return vt::Dirichlet("w", at::ones({3}, at::kDouble)); });
      vt::with_support(vt::Support::positive_ordered(), [] { return vt::Exponential("p", 1.0, {2}); });
    };
    const auto layout = vt::ParameterLayout::from_model(vt::make_log_joint(model));
    QCOMPARE(layout["w"].support.kind(), vt::Support::Kind::Simplex);
    QCOMPARE(layout["w"].size, int64_t{2});  // K - 1 free values
    QCOMPARE(layout["p"].support.kind(), vt::Support::Kind::PositiveOrdered);
    // Every point the layout maps to is ordered and positive.
    const auto point = layout.constrain(at::tensor({0.3, -0.2, 1.0, -3.0}, at::kDouble));
    const at::Tensor p = point.values.at("p");
    QVERIFY(p[0].item<double>() > 0 && p[1].item<double>() > p[0].item<double>());
  }
};

QTEST_APPLESS_MAIN(TestWithSupport)
#include "tst_with_support.moc"
