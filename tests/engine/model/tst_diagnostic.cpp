// Diagnostics: compiler-style formatting with the source line and a caret, and the cap.

#include <QtTest/QtTest>

#include "engine/model/diagnostic.h"

using variate::model::Diagnostic;
using variate::model::Diagnostics;
using variate::model::Severity;
using variate::model::Source;

namespace {

QString formatted(const std::string& text, std::size_t begin, std::size_t end,
                  Severity severity = Severity::error) {
  const Source source("model.vmod", text);
  return QString::fromStdString(
      variate::model::format(source, Diagnostic{severity, {begin, end}, "something is wrong"}));
}

}  // namespace

class TestDiagnostic : public QObject {
  Q_OBJECT

 private slots:
  void formatsLikeACompiler_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("begin");
    QTest::addColumn<int>("end");
    QTest::addColumn<QByteArray>("expected");
    const auto row = [](const char* name, const char* text, int begin, int end,
                        const char* expected) {
      QTest::newRow(name) << QByteArray(text) << begin << end << QByteArray(expected);
    };
    row("caret and tildes", "mu Normal(0, 5)\n", 3, 9,
        "model.vmod:1:4: error: something is wrong\nmu Normal(0, 5)\n   ^~~~~~\n");
    row("second line", "a = 1\nb = $\n", 10, 11,
        "model.vmod:2:5: error: something is wrong\nb = $\n    ^\n");
    row("empty span at end of line", "mu ~\n", 4, 4,
        "model.vmod:1:5: error: something is wrong\nmu ~\n    ^\n");
    row("end of file without final line break", "mu ~", 4, 4,
        "model.vmod:1:5: error: something is wrong\nmu ~\n    ^\n");
    row("span running onto the next line stops at the line end", "f(a,\n  b)\n", 1, 9,
        "model.vmod:1:2: error: something is wrong\nf(a,\n ^~~\n");
    row("tab expands to 8 columns", "\tx = $\n", 5, 6,
        "model.vmod:1:6: error: something is wrong\n        x = $\n            ^\n");
    row("invalid byte shown in hex", "x = a\xFF" "b\n", 5, 6,
        "model.vmod:1:6: error: something is wrong\nx = a<FF>b\n     ^~~~\n");
    row("control character shown in hex", "x = \x01\n", 4, 5,
        "model.vmod:1:5: error: something is wrong\nx = <01>\n    ^~~~\n");
    row("multibyte character is one column", "# \xC3\xA9\n$", 5, 6,
        "model.vmod:2:1: error: something is wrong\n$\n^\n");
    row("caret after a multibyte character", "\xC3\xA9 $", 3, 4,
        "model.vmod:1:4: error: something is wrong\n\xC3\xA9 $\n  ^\n");
    row("carriage return is not shown", "x = $\r\n", 4, 5,
        "model.vmod:1:5: error: something is wrong\nx = $\n    ^\n");
  }
  void formatsLikeACompiler() {
    QFETCH(QByteArray, text);
    QFETCH(int, begin);
    QFETCH(int, end);
    QFETCH(QByteArray, expected);
    QCOMPARE(formatted(text.toStdString(), begin, end).toUtf8(), expected);
  }

  void severityNames() {
    QVERIFY(formatted("x\n", 0, 1, Severity::warning).startsWith("model.vmod:1:1: warning: "));
    QVERIFY(formatted("x\n", 0, 1, Severity::note).startsWith("model.vmod:1:1: note: "));
  }

  void longLineShowsAWindowAroundTheSpan() {
    const std::string text = std::string(1000, 'a') + " $ " + std::string(1000, 'b');
    const QString out = formatted(text, 1001, 1002);
    const QStringList lines = out.split('\n');
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QString("model.vmod:1:1002: error: something is wrong"));
    QVERIFY(lines[1].startsWith("...a") && lines[1].endsWith("b..."));
    QVERIFY(lines[1].size() < 200);
    // The caret sits under the '$'.
    QCOMPARE(lines[1].at(lines[2].size() - 1), QChar('$'));
    QVERIFY(lines[2].endsWith('^'));
  }

  void errorsAreCapped() {
    Diagnostics diagnostics;
    for (std::size_t i = 0; i < 150; ++i) diagnostics.error({i, i + 1}, "error " + std::to_string(i));
    QCOMPARE(diagnostics.size(), Diagnostics::max_errors + 1);
    QCOMPARE(diagnostics.error_count(), Diagnostics::max_errors);
    QVERIFY(diagnostics.stopped());
    QCOMPARE(diagnostics[99].message, std::string("error 99"));
    QCOMPARE(diagnostics[100].message, std::string("too many errors; stopping"));
    QCOMPARE(static_cast<int>(diagnostics[100].span.begin), 100);
  }

  void notesDoNotCountTowardTheCap() {
    Diagnostics diagnostics;
    for (int i = 0; i < 300; ++i) diagnostics.note({0, 0}, "note");
    diagnostics.error({0, 1}, "one");
    QVERIFY(!diagnostics.stopped());
    QCOMPARE(diagnostics.error_count(), std::size_t{1});
    QVERIFY(diagnostics.has_errors());
    QCOMPARE(diagnostics.size(), std::size_t{301});
  }

  void formatsAllInOrder() {
    const Source source("m.vmod", "a $\nb $\n");
    Diagnostics diagnostics;
    QVERIFY(!diagnostics.has_errors());
    diagnostics.error({2, 3}, "first");
    diagnostics.error({6, 7}, "second");
    QCOMPARE(QString::fromStdString(diagnostics.format(source)),
             QString("m.vmod:1:3: error: first\na $\n  ^\nm.vmod:2:3: error: second\nb $\n  ^\n"));
  }
};

QTEST_APPLESS_MAIN(TestDiagnostic)
#include "tst_diagnostic.moc"
