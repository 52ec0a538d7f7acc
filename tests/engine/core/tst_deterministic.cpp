// Deterministic quantities of C++ models: recorded in program order inside a recorder's
// scope, by the innermost recorder, and free (the value passes through) outside one.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/core/deterministic.h"
#include "engine/variate.h"

namespace vt = variate;

class TestDeterministic : public QObject {
  Q_OBJECT

 private slots:
  void passesValuesThrough() {
    const at::Tensor x = at::ones({3}, at::kDouble);
    const at::Tensor y = vt::deterministic("y", x * 2);
    QVERIFY(at::equal(y, x * 2));
    QVERIFY(vt::deterministic("", x).defined());  // names are only checked when recorded
  }

  void recordsInProgramOrder() {
    vt::DeterministicRecorder recorder;
    vt::deterministic("b", at::scalar_tensor(2.0, at::kDouble));
    vt::deterministic("a", at::scalar_tensor(1.0, at::kDouble));
    QCOMPARE(recorder.values().size(), size_t{2});
    QCOMPARE(recorder.values()[0].first, std::string("b"));
    QCOMPARE(recorder.values()[1].first, std::string("a"));
    QCOMPARE(recorder.values()[1].second.item<double>(), 1.0);
  }

  void innermostRecorderRecords() {
    vt::DeterministicRecorder outer;
    {
      vt::DeterministicRecorder inner;
      vt::deterministic("x", at::zeros({}, at::kDouble));
      QCOMPARE(inner.values().size(), size_t{1});
    }
    vt::deterministic("y", at::zeros({}, at::kDouble));
    QCOMPARE(outer.values().size(), size_t{1});
    QCOMPARE(outer.values()[0].first, std::string("y"));
  }

  void recordsWhatAModelComputesAtGivenValues() {
    const auto model = [] {
      auto mu = vt::Normal("mu", 0.0, 1.0);
      vt::deterministic("twice", mu * 2.0);
    };
    vt::DeterministicRecorder recorder;
    {
      vt::Condition values({{"mu", at::scalar_tensor(1.5, at::kDouble)}});
      vt::TracerScope scope(values);
      model();
    }
    QCOMPARE(recorder.values().at(0).second.item<double>(), 3.0);
  }

  void emptyNameIsAnError() {
    vt::DeterministicRecorder recorder;
    QVERIFY_THROWS_EXCEPTION(vt::ArgumentError, vt::deterministic("", at::zeros({})));
  }
};

QTEST_APPLESS_MAIN(TestDeterministic)
#include "tst_deterministic.moc"
