// The columns a run records for a C++ model: parameters on their constrained scale, then
// its deterministic quantities, CmdStan's names and column-major order, one row per draw.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/deterministic.h"
#include "engine/target/draw_columns.h"
#include "engine/variate.h"

namespace vt = variate;

namespace {

vt::RandomVariable model(const vt::Data& d) {
  auto tau = vt::HalfNormal("tau", 1.0);
  at::Tensor z = vt::Normal("z", 0.0, 1.0, {2});
  vt::deterministic("scaled", at::outer(z, at::ones({3}, at::kDouble)) * tau);  // [2, 3]
  return vt::Normal("y", z * tau, 1.0);
}

vt::Data data() { return vt::Data().set("y", at::tensor({0.5, -0.5}, at::kDouble)); }

}  // namespace

class TestDrawColumns : public QObject {
  Q_OBJECT

 private slots:
  void namesParametersThenQuantities() {
    const auto log_joint = vt::make_log_joint(model, data());
    const vt::DrawColumns columns(log_joint, vt::ParameterLayout::from_model(log_joint));
    QCOMPARE(columns.size(), size_t{9});
    const auto names = columns.names(vt::NameStyle::StanCsv);
    QCOMPARE(names.front(), std::string("tau"));
    QCOMPARE(names[1], std::string("z.1"));
    QCOMPARE(names[3], std::string("scaled.1.1"));
    QCOMPARE(names[4], std::string("scaled.2.1"));  // column-major, as CmdStan writes
    QCOMPARE(columns.names(vt::NameStyle::Bracketed)[8], std::string("scaled[2,3]"));
  }

  void rowsHoldConstrainedValuesAndQuantities() {
    const auto log_joint = vt::make_log_joint(model, data());
    const vt::DrawColumns columns(log_joint, vt::ParameterLayout::from_model(log_joint));
    const auto rows = columns.rows({{std::log(2.0), 0.5, -1.0}, {0.0, 1.0, 2.0}});
    QCOMPARE(rows.size(), size_t{2});
    QCOMPARE(rows[0][0], 2.0);  // tau = exp(log 2)
    QCOMPARE(rows[0][1], 0.5);
    QCOMPARE(rows[0][4], -2.0);  // scaled[2,1] = z[2] * tau
    QCOMPARE(rows[1][8], 2.0);   // scaled[2,3] = 2 * 1
  }

  void rejectsPositionsOfTheWrongLength() {
    const auto log_joint = vt::make_log_joint(model, data());
    const vt::DrawColumns columns(log_joint, vt::ParameterLayout::from_model(log_joint));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, columns.rows({{1.0, 2.0}}));
  }

  void quantityChangingShapeIsAnError() {
    // A model whose recorded quantity depends in shape on a parameter's value.
    const auto changing = [] {
      auto x = vt::Normal("x", 0.0, 1.0);
      vt::deterministic("v", at::zeros({x.value().item<double>() > 0 ? 2 : 1}, at::kDouble));
    };
    const auto log_joint = vt::make_log_joint(changing);
    const vt::DrawColumns columns(log_joint, vt::ParameterLayout::from_model(log_joint));
    QCOMPARE(columns.size(), size_t{2});  // at x = 0: v has 1 element
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, columns.rows({{1.0}}));
  }
};

QTEST_APPLESS_MAIN(TestDrawColumns)
#include "tst_draw_columns.moc"
