// The tracer stack: order of interception, scoping, and tracers that create variables.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/condition.h"
#include "engine/core/trace.h"
#include "engine/core/tracing.h"
#include "engine/distributions/normal.h"

namespace vt = variate;

namespace {

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kDouble); }

// Appends its tag to a shared log, so tests can see the order tracers run in.
class Recorder : public vt::Tracer {
 public:
  Recorder(std::string tag, std::vector<std::string>& log) : tag_(std::move(tag)), log_(log) {}
  vt::RandomVariable trace(vt::RandomVariableSpec spec, const vt::NextTracer& next) override {
    log_.push_back(tag_ + ":" + spec.name);
    return next(std::move(spec));
  }

 private:
  std::string tag_;
  std::vector<std::string>& log_;
};

// Creates a helper variable whenever it intercepts one: it must not see its own.
class Spawner : public vt::Tracer {
 public:
  int calls = 0;
  vt::RandomVariable trace(vt::RandomVariableSpec spec, const vt::NextTracer& next) override {
    ++calls;
    if (spec.name != "spawned") vt::Normal("spawned", 0.0, 1.0);
    return next(std::move(spec));
  }
};

}  // namespace

class TestTracing : public QObject {
  Q_OBJECT

 private slots:
  void withoutTracersVariablesAreBuiltDirectly() {
    const auto rv = vt::Normal("x", 0.0, 1.0);
    QCOMPARE(QString::fromStdString(rv.name()), QString("x"));
    QVERIFY(!rv.has_value());
    QCOMPARE(rv.value().dim(), 0);  // drawn lazily on first use
    QVERIFY(rv.has_value());
  }

  void innermostScopeRunsFirst() {
    std::vector<std::string> log;
    Recorder outer("outer", log);
    Recorder inner("inner", log);
    {
      vt::TracerScope a(outer);
      vt::TracerScope b(inner);
      vt::Normal("x", 0.0, 1.0);
    }
    QCOMPARE(log, (std::vector<std::string>{"inner:x", "outer:x"}));
  }

  void scopeEndRemovesTracer() {
    std::vector<std::string> log;
    Recorder recorder("r", log);
    { vt::TracerScope scope(recorder); vt::Normal("a", 0.0, 1.0); }
    vt::Normal("b", 0.0, 1.0);
    QCOMPARE(log, (std::vector<std::string>{"r:a"}));
  }

  void tracerDoesNotInterceptItsOwnVariables() {
    std::vector<std::string> log;
    Recorder below("below", log);
    Spawner spawner;
    {
      vt::TracerScope a(below);
      vt::TracerScope b(spawner);
      vt::Normal("x", 0.0, 1.0);
    }
    QCOMPARE(spawner.calls, 1);
    // The spawned variable passes only through the tracers below the spawner.
    QCOMPARE(log, (std::vector<std::string>{"below:spawned", "below:x"}));
  }

  void conditionSetsValuesByName() {
    vt::Condition condition({{"x", scalar(2.5)}});
    vt::TracerScope scope(condition);
    const auto x = vt::Normal("x", 0.0, 1.0);
    const auto y = vt::Normal("y", 0.0, 1.0);
    QCOMPARE(x.value().item<double>(), 2.5);
    QVERIFY(!y.has_value());
  }

  void tapeRecordsInProgramOrder() {
    vt::Trace trace;
    {
      vt::TracerScope scope(trace);
      vt::Normal("c", 0.0, 1.0);
      vt::Normal("a", 0.0, 1.0);
      vt::Normal("b", 0.0, 1.0);
    }
    QCOMPARE(trace.variables().size(), size_t{3});
    QCOMPARE(QString::fromStdString(trace.variables()[0].name()), QString("c"));
    QCOMPARE(QString::fromStdString(trace.variables()[1].name()), QString("a"));
    QCOMPARE(QString::fromStdString(trace.variables()[2].name()), QString("b"));
    QVERIFY(trace.contains("a"));
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, trace["missing"]);
  }

  void tapeRejectsDuplicateNames() {
    vt::Trace trace;
    vt::TracerScope scope(trace);
    vt::Normal("x", 0.0, 1.0);
    try {
      vt::Normal("x", 1.0, 1.0);
      QFAIL("no exception");
    } catch (const vt::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("model creates two random variables named 'x'"));
    }
  }

  void tracerStacksAreThreadLocal() {
    std::vector<std::string> log;
    Recorder recorder("main", log);
    vt::TracerScope scope(recorder);
    std::thread other([] { vt::Normal("elsewhere", 0.0, 1.0); });
    other.join();
    vt::Normal("here", 0.0, 1.0);
    QCOMPARE(log, (std::vector<std::string>{"main:here"}));
  }
};

QTEST_APPLESS_MAIN(TestTracing)
#include "tst_tracing.moc"
