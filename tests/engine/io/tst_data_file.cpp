// Data files as users write them: CmdStan JSON and CSV, and every way they go wrong.

#include <QtTest/QtTest>

#include "engine/core/checks.h"
#include "engine/io/data_file.h"

namespace vio = variate::io;

class TestDataFile : public QObject {
  Q_OBJECT

 private slots:
  void jsonScalarsVectorsAndMatrices() {
    const auto data = vio::parse_json_data(
        R"({"N": 3, "y": [1.5, 2, -3e2], "X": [[1, 2], [3, 4], [5, 6]], "k": [0, 4, 1]})",
        "d.json");
    QCOMPARE(data["N"].scalar_type(), at::kLong);
    QCOMPARE(data.dim("N"), int64_t{3});
    QCOMPARE(data["y"].scalar_type(), at::kDouble);
    QVERIFY(at::equal(data["y"], at::tensor({1.5, 2.0, -300.0}, at::kDouble)));
    QCOMPARE(data["X"].sizes(), (c10::IntArrayRef{3, 2}));
    QCOMPARE(data["X"][2][0].item<int64_t>(), int64_t{5});  // lists of rows
    QCOMPARE(data["k"].scalar_type(), at::kLong);
  }

  void jsonSpecialValuesAndEmptyArrays() {
    const auto data =
        vio::parse_json_data(R"({"a": ["NaN", "Inf", "-Infinity", 1], "e": []})", "d.json");
    QVERIFY(std::isnan(data["a"][0].item<double>()));
    QVERIFY(std::isinf(data["a"][1].item<double>()) && data["a"][1].item<double>() > 0);
    QVERIFY(data["a"][2].item<double>() < 0);
    QCOMPARE(data["e"].sizes(), (c10::IntArrayRef{0}));
  }

  void jsonErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated") << "{\"N\": 3,\n \"y\": [1, 2"
                               << "d.json:2:12: malformed JSON: syntax error";
    QTest::newRow("not an object") << "[1, 2]"
                                   << "d.json: JSON data must be an object of named values, got array";
    QTest::newRow("ragged") << "{\"X\": [[1, 2], [3]]}"
                            << "d.json: data variable 'X' is a ragged array: lists at depth 2 have different lengths (2 and 1)";
    QTest::newRow("string value") << "{\"name\": \"abc\"}"
                                  << "d.json: data variable 'name' must hold numbers, got string \"abc\"";
    QTest::newRow("mixed depth") << "{\"v\": [1, [2]]}"
                                 << "d.json: data variable 'v' mixes numbers and lists at the same depth";
    QTest::newRow("object value") << "{\"o\": {\"a\": 1}}"
                                  << "d.json: 'o': an object names an IDX file, as {\"idx_images\": \"t10k-images-idx3-ubyte.gz\"}";
    QTest::newRow("IDX key") << "{\"o\": {\"idx_images\": \"i.gz\", \"size\": 3}}"
                             << "d.json: 'o': unknown key 'size' (an IDX value takes idx_images or idx_labels";
    // Found by fuzz_json_data: nlohmann's out_of_range escaped the reader (a crash).
    QTest::newRow("number beyond a double") << "{\"y\": [1, 1e600]}"
                                            << "d.json:1:11: the number 1e600 is beyond the range of a double";
    QTest::newRow("IDX file") << "{\"o\": {\"idx_labels\": \"/nonexistent/labels.gz\"}}" << "/nonexistent/labels.gz";
    // A repeated name would keep its last value; a boolean would read as 1 or 0.
    QTest::newRow("name given twice") << "{\"N\": 3,\n \"y\": [1, 2],\n \"N\": 4}"
                                      << "d.json:3:2: data variable 'N' is given twice (first at 1:2); keep one";
    QTest::newRow("true") << "{\"N\": 3,\n \"flag\": true}"
                          << "d.json:2:10: data variable 'flag' must hold numbers, got the boolean true (write 1)";
    QTest::newRow("false in a list") << "{\"v\": [1, false]}"
                                     << "d.json:1:11: data variable 'v' must hold numbers, got the boolean false (write 0)";
  }
  void jsonErrors() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
      vio::parse_json_data(text.toStdString(), "d.json");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith(message), e.what());
    }
  }

  void invalidUtf8InJsonIsAnError() {
    const std::string text = "{\"a\xff\": 1}";
    QVERIFY_THROWS_EXCEPTION(variate::ArgumentError, vio::parse_json_data(text, "d.json"));
  }

  void csvColumnsBecomeVectors() {
    const auto data = vio::parse_csv_data("y,x,\"group\"\n1.5,2,1\n\n-3,4e1,2\n", "d.csv");
    QVERIFY(at::equal(data["y"], at::tensor({1.5, -3.0}, at::kDouble)));
    QCOMPARE(data["x"].scalar_type(), at::kDouble);  // 4e1 is written as a real
    QCOMPARE(data["group"].scalar_type(), at::kLong);
    QVERIFY(at::equal(data["group"], at::tensor({int64_t{1}, int64_t{2}})));
    // Excel's "CSV UTF-8" starts with a byte order mark: not part of the first name.
    const auto marked = vio::parse_csv_data("\xEF\xBB\xBFy,x\n1,2\n", "d.csv");
    QCOMPARE(marked.names(), (std::vector<std::string>{"x", "y"}));
  }

  // Integers beyond int64 stay real (their int64 conversion is undefined); binding one to
  // an int reports it (tests/engine/model/tst_data_binding.cpp).
  void integersBeyondInt64StayReal() {
    const auto json = vio::parse_json_data(R"({"n": 10000000000000000000, "m": 9223372036854775807})", "d.json");
    QCOMPARE(json["n"].scalar_type(), at::kDouble);
    QCOMPARE(json["n"].item<double>(), 1e19);
    QCOMPARE(json["m"].scalar_type(), at::kLong);
    const auto csv = vio::parse_csv_data("n,m\n100000000000000000000,9007199254740992\n", "d.csv");
    QCOMPARE(csv["n"].scalar_type(), at::kDouble);
    QCOMPARE(csv["m"].scalar_type(), at::kLong);
  }

  void csvErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("short row") << "a,b\n1,2\n3\n" << "d.csv:3:1: expected 2 fields as in the header row, got 1";
    QTest::newRow("not a number") << "a,b\n1,x2\n" << "d.csv:2:3: column 'b' must hold numbers, got 'x2'";
    QTest::newRow("duplicate column") << "a,a\n" << "d.csv:1:3: column 'a' appears twice in the header row";
    QTest::newRow("empty file") << "" << "d.csv: the CSV file has no header row";
    QTest::newRow("unterminated quote") << "\"a,b\n" << "d.csv:1:1: unterminated quoted field";
  }
  void csvErrors() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
      vio::parse_csv_data(text.toStdString(), "d.csv");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), message);
    }
  }

  // Files are read in chunks (JSON) or lines (CSV) rather than whole, into the same data
  // as their text gives, and errors are located in the file the same way.
  void filesReadAsTheirText_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("json") << "d.json"
                          << QByteArray(R"({"N": 3, "y": [1.5, 2, -3e2], "X": [[1, 2], [3, 4], [5, 6]], "a": ["NaN", "Inf"], "e": []})");
    QTest::newRow("json with a byte order mark") << "d.json" << QByteArray("\xEF\xBB\xBF{\"N\": 3}");
    QTest::newRow("csv with a byte order mark") << "d.csv" << QByteArray("\xEF\xBB\xBFy,x\n1,2\n");
    QTest::newRow("json, long") << "d.json" << ("{\"v\": [" + QByteArray("0.25, ").repeated(300000) + "1]}");
    QTest::newRow("csv") << "d.csv" << QByteArray("y,x,\"group\"\n1.5,2,1\n\n-3,4e1,2\n");
    QTest::newRow("csv, CRLF") << "d.csv" << QByteArray("y,x\r\n1,2\r\n3,4");
  }
  void filesReadAsTheirText() {
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    const auto from_file = vio::read_data_file(path.toStdString());
    const auto from_text = name.endsWith(".json") ? vio::parse_json_data(text.toStdString(), path.toStdString())
                                                  : vio::parse_csv_data(text.toStdString(), path.toStdString());
    QCOMPARE(from_file.names(), from_text.names());
    for (const auto& variable : from_text.names()) {
      QCOMPARE(from_file[variable].scalar_type(), from_text[variable].scalar_type());
      QCOMPARE(from_file[variable].sizes(), from_text[variable].sizes());
      QVERIFY2(at::equal(from_file[variable].nan_to_num(0, 1e300, -1e300), from_text[variable].nan_to_num(0, 1e300, -1e300)),
               variable.c_str());
    }
  }

  void fileErrorsAreLocated_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated") << "d.json" << QByteArray("{\"N\": 3,\n \"y\": [1, 2") << ":2:12: malformed JSON: syntax error";
    QTest::newRow("beyond a double") << "d.json" << QByteArray("{\"N\": 3,\n \"x\": [1, 1e999, 3]}")
                                     << ":2:11: the number 1e999 is beyond the range of a double";
    // The error sits past the reader's first chunk of 1 MiB.
    QTest::newRow("far in") << "d.json" << ("{\"v\": [\n" + QByteArray("1,\n").repeated(400000) + "x]}")
                            << ":400002:1: malformed JSON: syntax error";
    QTest::newRow("csv") << "d.csv" << QByteArray("a,b\n1,2\n3,x\n") << ":3:3: column 'b' must hold numbers, got 'x'";
    QTest::newRow("json name given twice") << "d.json" << QByteArray("{\"N\": 3,\n \"N\": 4}")
                                           << ":2:2: data variable 'N' is given twice (first at 1:2); keep one";
    QTest::newRow("json boolean") << "d.json" << QByteArray("{\"N\": 3,\n \"b\": false}")
                                  << ":2:7: data variable 'b' must hold numbers, got the boolean false (write 0)";
  }
  void fileErrorsAreLocated() {
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    try {
      vio::read_data_file(path.toStdString());
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith(path + message), e.what());
    }
  }

  // A line of a megabyte: 100,000 columns (its header checked for repeated names in
  // linear time) and one row, or one field of a million digits.
  void csvLinesOfAMegabyte() {
    QByteArray header, row;
    for (int c = 0; c < 100000; ++c) {
      header += (c ? ",c" : "c") + QByteArray::number(c);
      row += (c ? ",1" : "1");
    }
    QVERIFY(header.size() > 600000);
    const auto data = vio::parse_csv_data((header + "\n" + row + "\n" + row + "\n").toStdString(), "d.csv");
    QCOMPARE(static_cast<int>(data.names().size()), 100000);
    QCOMPARE(data["c99999"].sizes(), (c10::IntArrayRef{2}));
    try {
      vio::parse_csv_data((header + ",c5\n").toStdString(), "d.csv");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QVERIFY2(QString(e.what()).startsWith("d.csv:1:" + QString::number(header.size() + 2) + ": column 'c5' appears twice"),
               e.what());
    }
    const QByteArray digits = "0." + QByteArray(1000000, '3');
    const auto wide = vio::parse_csv_data(("x\n" + digits + "\n").toStdString(), "d.csv");
    QCOMPARE(wide["x"].item<double>(), 1.0 / 3.0);
  }

  void missingFileIsNamed() {
    try {
      vio::read_data_file("/nonexistent/data.json");
      QFAIL("no exception");
    } catch (const variate::ArgumentError& e) {
      QCOMPARE(QString(e.what()), QString("/nonexistent/data.json: cannot open file"));
    }
  }

  void readsReferenceData() {
    const auto data = vio::read_data_file(QT_TESTCASE_SOURCEDIR
        "/data/reference/eight_schools-eight_schools_noncentered/data.json");
    QCOMPARE(data.dim("J"), int64_t{8});
    QCOMPARE(data["sigma"].sizes(), (c10::IntArrayRef{8}));
  }
};

QTEST_APPLESS_MAIN(TestDataFile)
#include "tst_data_file.moc"
