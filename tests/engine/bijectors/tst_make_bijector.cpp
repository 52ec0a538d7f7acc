// make_bijector: each continuous support gets its transform (type, name, bounds carried
// over); discrete supports are refused with a message naming them.

#include <QtTest/QtTest>

#include "engine/bijectors/cholesky_corr.h"
#include "engine/bijectors/identity.h"
#include "engine/bijectors/interval.h"
#include "engine/bijectors/lower_bound.h"
#include "engine/bijectors/make_bijector.h"
#include "engine/bijectors/ordered.h"
#include "engine/bijectors/positive_ordered.h"
#include "engine/bijectors/simplex.h"
#include "engine/bijectors/upper_bound.h"
#include "engine/core/checks.h"
#include "engine/core/support.h"

namespace vb = variate::bijectors;
using variate::Support;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

// The supports the tables refer to by name.
Support support_named(const QString& name) {
  if (name == "real") return Support::real();
  if (name == "positive") return Support::positive();
  if (name == "lower_bounded(2)") return Support::lower_bounded(scalar(2.0));
  if (name == "upper_bounded(-1)") return Support::upper_bounded(scalar(-1.0));
  if (name == "unit_interval") return Support::unit_interval();
  if (name == "interval(-2, 3)") return Support::interval(scalar(-2.0), scalar(3.0));
  if (name == "ordered") return Support::ordered();
  if (name == "positive_ordered") return Support::positive_ordered();
  if (name == "simplex") return Support::simplex();
  if (name == "cholesky_corr") return Support::cholesky_corr();
  if (name == "boolean") return Support::boolean();
  if (name == "nonnegative_integer") return Support::nonnegative_integer();
  if (name == "integer_interval(0, 3)") return Support::integer_interval(scalar(0.0), scalar(3.0));
  qFatal("unknown support %s", qPrintable(name));
}

// The concrete class behind a BijectorPtr.
QString class_of(const vb::Bijector& b) {
  if (dynamic_cast<const vb::Identity*>(&b)) return "Identity";
  if (dynamic_cast<const vb::LowerBound*>(&b)) return "LowerBound";
  if (dynamic_cast<const vb::UpperBound*>(&b)) return "UpperBound";
  if (dynamic_cast<const vb::Interval*>(&b)) return "Interval";
  if (dynamic_cast<const vb::Ordered*>(&b)) return "Ordered";
  if (dynamic_cast<const vb::PositiveOrdered*>(&b)) return "PositiveOrdered";
  if (dynamic_cast<const vb::Simplex*>(&b)) return "Simplex";
  if (dynamic_cast<const vb::CholeskyCorr*>(&b)) return "CholeskyCorr";
  return "unknown";
}

}  // namespace

class TestMakeBijector : public QObject {
  Q_OBJECT

 private slots:
  void continuousSupports_data() {
    QTest::addColumn<QString>("support");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("name");
    QTest::newRow("real") << "real" << "Identity" << "identity";
    QTest::newRow("positive") << "positive" << "LowerBound" << "lower_bound(0)";
    QTest::newRow("lower bounded") << "lower_bounded(2)" << "LowerBound" << "lower_bound(2)";
    QTest::newRow("upper bounded") << "upper_bounded(-1)" << "UpperBound" << "upper_bound(-1)";
    QTest::newRow("unit interval") << "unit_interval" << "Interval" << "interval(0, 1)";
    QTest::newRow("interval") << "interval(-2, 3)" << "Interval" << "interval(-2, 3)";
    QTest::newRow("ordered") << "ordered" << "Ordered" << "ordered";
    QTest::newRow("positive ordered") << "positive_ordered" << "PositiveOrdered" << "positive_ordered";
    QTest::newRow("simplex") << "simplex" << "Simplex" << "simplex";
    QTest::newRow("cholesky corr") << "cholesky_corr" << "CholeskyCorr" << "cholesky_corr";
  }
  void continuousSupports() {
    QFETCH(QString, support);
    QFETCH(QString, type);
    QFETCH(QString, name);
    const vb::BijectorPtr bijector = vb::make_bijector(support_named(support));
    QVERIFY(bijector != nullptr);
    QCOMPARE(class_of(*bijector), type);
    QCOMPARE(QString::fromStdString(bijector->name()), name);
  }

  // Whatever the transform, its values lie in the support it was made for; this also checks
  // that bounds are carried over, not just named.
  void valuesLieInTheSupport_data() {
    QTest::addColumn<QString>("support");
    QTest::addColumn<int>("size");  // unconstrained event size (0 for scalars)
    QTest::newRow("real") << "real" << 0;
    QTest::newRow("positive") << "positive" << 0;
    QTest::newRow("lower bounded") << "lower_bounded(2)" << 0;
    QTest::newRow("upper bounded") << "upper_bounded(-1)" << 0;
    QTest::newRow("interval") << "interval(-2, 3)" << 0;
    QTest::newRow("ordered") << "ordered" << 4;
    QTest::newRow("positive ordered") << "positive_ordered" << 4;
    QTest::newRow("simplex") << "simplex" << 4;
    QTest::newRow("cholesky corr") << "cholesky_corr" << 6;
  }
  void valuesLieInTheSupport() {
    QFETCH(QString, support);
    QFETCH(int, size);
    const Support s = support_named(support);
    const vb::BijectorPtr bijector = vb::make_bijector(s);
    at::Generator generator = at::detail::createCPUGenerator(71);
    const at::Tensor y = size == 0 ? 4 * at::randn({50}, generator, at::kDouble)
                                   : 2 * at::randn({50, size}, generator, at::kDouble);
    const at::Tensor inside = s.contains(bijector->forward(y));
    QCOMPARE(inside.sizes(), (c10::IntArrayRef{50}));
    QVERIFY(inside.all().item<bool>());
  }

  void boundsAreUsed() {
    const vb::BijectorPtr lower = vb::make_bijector(Support::lower_bounded(scalar(2.0)));
    QCOMPARE(lower->forward(scalar(0.0)).item<double>(), 3.0);
    const vb::BijectorPtr upper = vb::make_bijector(Support::upper_bounded(scalar(-1.0)));
    QCOMPARE(upper->forward(scalar(0.0)).item<double>(), -2.0);
    const vb::BijectorPtr interval = vb::make_bijector(Support::interval(scalar(-2.0), scalar(3.0)));
    QCOMPARE(interval->forward(scalar(0.0)).item<double>(), 0.5);
  }

  void discreteSupportsThrow_data() {
    QTest::addColumn<QString>("support");
    QTest::addColumn<QString>("message");
    QTest::newRow("boolean") << "boolean"
        << "make_bijector: no bijector for the discrete support 'boolean'";
    QTest::newRow("nonnegative integer") << "nonnegative_integer"
        << "make_bijector: no bijector for the discrete support 'nonnegative_integer'";
    QTest::newRow("integer interval") << "integer_interval(0, 3)"
        << "make_bijector: no bijector for the discrete support 'integer_interval(0, 3)'";
  }
  void discreteSupportsThrow() {
    QFETCH(QString, support);
    QFETCH(QString, message);
    try {
      vb::make_bijector(support_named(support));
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }
};

QTEST_APPLESS_MAIN(TestMakeBijector)
#include "tst_make_bijector.moc"
