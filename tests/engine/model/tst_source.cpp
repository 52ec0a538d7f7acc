// Source: byte offsets to 1-based line:column, line texts.

#include <QtTest/QtTest>

#include "engine/model/source.h"

using variate::model::Source;

class TestSource : public QObject {
  Q_OBJECT

 private slots:
  void locationOfOffset_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::newRow("first byte") << "ab\ncd\n" << 0 << 1 << 1;
    QTest::newRow("line break belongs to its line") << "ab\ncd\n" << 2 << 1 << 3;
    QTest::newRow("start of second line") << "ab\ncd\n" << 3 << 2 << 1;
    QTest::newRow("end after final break") << "ab\ncd\n" << 6 << 3 << 1;
    QTest::newRow("end without final break") << "ab\ncd" << 5 << 2 << 3;
    QTest::newRow("past the end clamps") << "ab" << 99 << 1 << 3;
    QTest::newRow("empty text") << "" << 0 << 1 << 1;
    QTest::newRow("blank lines") << "\n\n\nx" << 3 << 4 << 1;
  }
  void locationOfOffset() {
    QFETCH(QString, text);
    QFETCH(int, offset);
    QFETCH(int, line);
    QFETCH(int, column);
    const Source source("m.vmod", text.toStdString());
    const auto at = source.location(static_cast<std::size_t>(offset));
    QCOMPARE(static_cast<int>(at.line), line);
    QCOMPARE(static_cast<int>(at.column), column);
  }

  void columnsCountBytes() {
    // "é" is two bytes: the column after it is 4, as clang reports.
    const Source source("m.vmod", "\xC3\xA9 x");
    QCOMPARE(static_cast<int>(source.location(3).column), 4);
  }

  // Notepad writes a byte order mark first: not text, and not counted in columns.
  void byteOrderMarkIsDropped() {
    const Source source("m.vmod", "\xEF\xBB\xBFmu ~ Normal(0, 1)\n");
    QCOMPARE(source.text(), std::string("mu ~ Normal(0, 1)\n"));
    QCOMPARE(static_cast<int>(source.location(5).column), 6);
  }

  void lineTexts() {
    const Source source("m.vmod", "first\r\nsecond\n\nlast");
    QCOMPARE(static_cast<int>(source.line_count()), 4);
    QCOMPARE(std::string(source.line_text(1)), std::string("first"));
    QCOMPARE(std::string(source.line_text(2)), std::string("second"));
    QCOMPARE(std::string(source.line_text(3)), std::string(""));
    QCOMPARE(std::string(source.line_text(4)), std::string("last"));
    QCOMPARE(std::string(source.line_text(5)), std::string(""));
    QCOMPARE(static_cast<int>(source.line_start(2)), 7);
  }

  void textOfSpan() {
    const Source source("m.vmod", "mu ~ Normal(0, 5)");
    QCOMPARE(std::string(source.text({5, 11})), std::string("Normal"));
    QCOMPARE(std::string(source.text({15, 99})), std::string("5)"));
    QCOMPARE(source.name(), std::string("m.vmod"));
  }
};

QTEST_APPLESS_MAIN(TestSource)
#include "tst_source.moc"
