// The data a run binds, as CmdStan JSON (what a project stores and another process is
// given): a JSON file's own text, and a CSV table converted, its values whole.

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "engine/services/data_input.h"

namespace services = variate::services;

class TestDataInput : public QObject {
  Q_OBJECT

 private slots:
  void aCsvTableBecomesJson() {
    QTemporaryDir directory;
    const QString path = directory.filePath("d.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x,count\n0.5,3\n-1.25,4\n1e-3,7\n");
    file.close();
    const nlohmann::json json = nlohmann::json::parse(services::DataInput::file(path.toStdString()).json_text());
    QCOMPARE(json["x"].get<std::vector<double>>(), (std::vector<double>{0.5, -1.25, 1e-3}));
    QCOMPARE(json["count"].get<std::vector<double>>(), (std::vector<double>{3, 4, 7}));
  }

  void jsonIsGivenAsItIs() {
    QCOMPARE(services::DataInput::text("{\"N\": 3}", "d").json_text(), std::string("{\"N\": 3}"));
    QCOMPARE(services::DataInput::none().json_text(), std::string("{}"));
  }
};

QTEST_APPLESS_MAIN(TestDataInput)
#include "tst_data_input.moc"
