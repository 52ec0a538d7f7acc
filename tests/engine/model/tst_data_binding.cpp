// Binding a data set to a model (engine/model/data_binding.cpp): every problem is a
// located diagnostic with a message. The inputs are also in the corpus of the data
// fuzzer (tests/fuzz/corpus/json_data).

#include <QtTest/QtTest>

#include "engine/io/data_file.h"
#include "engine/model/compile.h"

namespace vm = variate::model;

namespace {

const char* const kEightSchools =
    "data J: int\ndata y: real[J]\ndata sigma: real[J]\nmu ~ Normal(0, 5)\ny ~ Normal(mu, sigma)\n";

QString report(const std::string& json) {
  const variate::Data data = variate::io::parse_json_data(json, "d.json");
  return QString::fromStdString(vm::compile_model(vm::Source("m.vmod", kEightSchools), &data).report());
}

}  // namespace

class TestDataBinding : public QObject {
  Q_OBJECT

 private slots:
  void bindsEightSchools() {
    QCOMPARE(report(R"({"J": 2, "y": [1, 2], "sigma": [1, 1]})"), QString());
  }

  // An int beyond int64 (a JSON integer up to 2^64 - 1, or a whole real) used to become
  // INT64_MIN, undefined, and be reported as a negative size.
  void integersBeyondInt64AreNamed_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("unsigned") << R"({"J": 10000000000000000000, "y": [1], "sigma": [1]})"
                              << "m.vmod:1:6: error: data 'J' is declared int but holds 1e+19, outside the range of a 64-bit integer";
    QTest::newRow("real") << R"({"J": 1e300, "y": [1], "sigma": [1]})"
                          << "m.vmod:1:6: error: data 'J' is declared int but holds 1e+300, outside the range of a 64-bit integer";
    QTest::newRow("negative") << R"({"J": -1e19, "y": [1], "sigma": [1]})"
                              << "m.vmod:1:6: error: data 'J' is declared int but holds -1e+19, outside the range of a 64-bit integer";
  }
  void integersBeyondInt64AreNamed() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    const QString text = report(json.toStdString());
    QVERIFY2(text.startsWith(message), qPrintable(text));
  }
};

QTEST_APPLESS_MAIN(TestDataBinding)
#include "tst_data_binding.moc"
