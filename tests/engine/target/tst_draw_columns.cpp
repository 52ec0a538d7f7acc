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

  // Quantities a backend writes row-major in place (the tape's forward sweep) are recorded
  // column-major, as CmdStan writes them, each draw from its own position.
  void flatValuesAreRecordedColumnMajor() {
    const vt::DrawColumns columns(
        [](const double* theta, double* out) {
          out[0] = theta[0];
          for (int k = 0; k < 6; ++k) out[1 + k] = 10 * theta[0] + k;  // M[2, 3] row-major
        },
        {{"a", {}}, {"M", {2, 3}}}, 1);
    QCOMPARE(columns.names(vt::NameStyle::StanCsv),
             (std::vector<std::string>{"a", "M.1.1", "M.2.1", "M.1.2", "M.2.2", "M.1.3", "M.2.3"}));
    const auto rows = columns.rows({{1.0}, {2.0}});
    QCOMPARE(rows[0], (std::vector<double>{1, 10, 13, 11, 14, 12, 15}));
    QCOMPARE(rows[1], (std::vector<double>{2, 20, 23, 21, 24, 22, 25}));
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, columns.rows({{1.0, 2.0}}));
  }
};

QTEST_APPLESS_MAIN(TestDrawColumns)
#include "tst_draw_columns.moc"
