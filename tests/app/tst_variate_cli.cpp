// The `variate` executable as a user runs it: --help, --version, bad options.

#include <QtTest/QtTest>

namespace {

struct Result {
  int exit_code;
  QString output;
};

Result run(const QStringList& arguments) {
  QProcess process;
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(VARIATE_EXECUTABLE, arguments);
  if (!process.waitForFinished(60000)) return {-1, "timed out"};
  return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

}  // namespace

class TestVariateCli : public QObject {
  Q_OBJECT

 private slots:
  void helpDescribesTheTool() {
    const Result result = run({"--help"});
    QCOMPARE(result.exit_code, 0);
    QVERIFY2(result.output.contains("Usage: variate"), qPrintable(result.output));
    QVERIFY2(result.output.contains("--version"), qPrintable(result.output));
  }

  void versionNamesTheRelease() {
    const Result result = run({"--version"});
    QCOMPARE(result.exit_code, 0);
    QVERIFY2(result.output.startsWith(QString("variate ") + VARIATE_VERSION_STRING),
             qPrintable(result.output));
    QVERIFY2(result.output.contains("LibTorch"), qPrintable(result.output));
  }

  void unknownOptionFails() {
    const Result result = run({"--no-such-option"});
    QVERIFY(result.exit_code != 0);
    QVERIFY2(result.output.contains("--no-such-option"), qPrintable(result.output));
  }
};

QTEST_GUILESS_MAIN(TestVariateCli)
#include "tst_variate_cli.moc"
