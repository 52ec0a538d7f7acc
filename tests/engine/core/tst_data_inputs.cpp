// Declared inputs read from a data set as the model language checks them: present, of the
// declared shape, integers where declared int (reals converted to float64); and within the
// bounds they declare.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/data_inputs.h"
#include "engine/io/data_file.h"

namespace vt = variate;

namespace {

const vt::Data& data() {
  static const vt::Data d = vt::io::parse_json_data(
      R"({"N": 3, "y": [1, 2.5, 3], "k": [1, 2, 3], "kr": [1.0, 2.0, 4.5], "kw": [1.0, 2.0, 4.0],
          "s": 2})", "d.json");
  return d;
}

}  // namespace

class TestDataInputs : public QObject {
  Q_OBJECT

 private slots:
  void readsDeclaredInputs() {
    QCOMPARE(vt::int_input(data(), "N"), int64_t{3});
    const at::Tensor k = vt::int_input(data(), "k", {3});
    QCOMPARE(k.scalar_type(), at::kLong);
    const at::Tensor s = vt::real_input(data(), "s");
    QCOMPARE(s.scalar_type(), at::kDouble);  // an integer in the file, declared real
    QCOMPARE(s.item<double>(), 2.0);
    QCOMPARE(vt::real_input(data(), "y", {3})[1].item<double>(), 2.5);
    // Whole reals are integers.
    QCOMPARE(vt::int_input(data(), "kw", {3})[2].item<int64_t>(), int64_t{4});
  }

  void errors_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << 0 << "data 'M' is declared but missing from the data";
    QTest::newRow("wrong shape") << 1 << "data 'y' has shape [3], expected [4]";
    QTest::newRow("scalar given an array") << 2 << "data 'y' has shape [3], expected []";
    QTest::newRow("real in an int") << 3 << "data 'kr' is declared int but holds the real value 4.5";
    // `data y: real<lower=2>[3]`, `data k: int<upper=K>[3]` (K = [3, 3, 2]), `data y: real<lower=L>`
    // for an L of another shape.
    QTest::newRow("below a lower bound") << 4 << "data 'y' must be >= 2 (its lower bound), got 1 at y[1]";
    QTest::newRow("above an upper bound") << 5 << "data 'k' must be <= K (its upper bound), got 3 at k[3]";
    QTest::newRow("a bound of another shape")
        << 6 << "the lower bound of 'y' has shape [2]; a bound is a scalar or has the data's shape [3]";
  }

  // Values within their bounds pass, on a bound as well.
  void boundsHold() {
    vt::check_bound("y", vt::real_input(data(), "y", {3}), at::scalar_tensor(1, at::kLong), true, "1");
    vt::check_bound("k", vt::int_input(data(), "k", {3}), at::tensor({3, 3, 4}, at::kLong), false, "K");
  }

  void errors() {
    QFETCH(int, which);
    QFETCH(QString, message);
    try {
      switch (which) {
        case 0: vt::int_input(data(), "M"); break;
        case 1: vt::real_input(data(), "y", {4}); break;
        case 2: vt::int_input(data(), "y"); break;
        case 3:
          vt::int_input(data(), "kr", {3});
          break;
        case 4:
          vt::check_bound("y", vt::real_input(data(), "y", {3}), at::scalar_tensor(2, at::kLong), true, "2");
          break;
        case 5:
          vt::check_bound("k", vt::int_input(data(), "k", {3}), at::tensor({3, 3, 2}, at::kLong), false, "K");
          break;
        default:
          vt::check_bound("y", vt::real_input(data(), "y", {3}), at::zeros({2}, at::kDouble), true, "L");
          break;
      }
      QFAIL("expected an ArgumentError");
    } catch (const vt::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }
};

QTEST_APPLESS_MAIN(TestDataInputs)
#include "tst_data_inputs.moc"
