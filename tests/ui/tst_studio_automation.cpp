// variate-studio's command line runs and screenshots on its own: with --quit-when-done
// the screenshot is written before the studio quits, whether it was asked for at the
// run's end or at an iteration the run reaches only with its last draws (the studio used
// to quit first then). The studio runs as a child process, offscreen.

#include <QImage>
#include <QSettings>
#include <QtTest/QtTest>

#include "tests/ui/studio_test_support.h"

namespace {

// The panels' arrangement a studio saved on quitting, in the settings under `configHome`.
QByteArray savedLayout(const QString& configHome) {
  const QSettings settings(configHome + "/Variate/Variate Studio.conf", QSettings::IniFormat);
  return settings.value("window/state").toByteArray();
}

}  // namespace

class TestStudioAutomation : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { studio_test::isolateSettings(); }

  void theScreenshotIsWrittenBeforeQuitting_data() {
    QTest::addColumn<QStringList>("when");
    QTest::newRow("at the end") << QStringList();
    // 100 warmup + 100 draws: the last iteration; the shot is due a moment after it.
    QTest::newRow("after the last iteration") << QStringList{"--screenshot-after", "200"};
    QTest::newRow("after an early iteration") << QStringList{"--screenshot-after", "20"};
  }

  void theScreenshotIsWrittenBeforeQuitting() {
    QFETCH(QStringList, when);
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString shot = dir.filePath("shot.png");
    QProcess studio;
    studio.setProcessEnvironment(studio_test::childEnvironment(dir.path()));
    studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    studio.start(VARIATE_STUDIO_EXECUTABLE, QStringList{folder + "/eight_schools.vmod", "--run-on-open", "--warmup",
                                                        "100", "--draws", "100", "--seed", "3", "--screenshot", shot,
                                                        "--quit-when-done"} + when);
    QVERIFY(studio.waitForFinished(120000));
    QCOMPARE(studio.exitStatus(), QProcess::NormalExit);
    QCOMPARE(studio.exitCode(), 0);
    QVERIFY2(studio.readAllStandardOutput().contains("screenshot " + shot.toUtf8()), "no screenshot reported");
    const QImage image(shot);
    QVERIFY2(!image.isNull(), "no screenshot written");
    QVERIFY(image.width() > 100 && image.height() > 100);
  }

  // Without --run-on-open nothing runs: the screenshot is of the project as it opens (a
  // new one, then one whose stored run is shown), and the studio quits after it.
  void aScreenshotWithoutARunQuits() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QProcessEnvironment environment = studio_test::childEnvironment(dir.path());
    const auto studio = [&](const QStringList& arguments) {
      QProcess process;
      process.setProcessEnvironment(environment);
      process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
      process.start(VARIATE_STUDIO_EXECUTABLE, QStringList{folder + "/eight_schools.vmod"} + arguments);
      const bool finished = process.waitForFinished(120000);
      if (!finished) process.kill();
      return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0
                 ? process.readAllStandardOutput()
                 : QByteArray("did not quit");
    };
    const QString fresh = dir.filePath("fresh.png"), stored = dir.filePath("stored.png");
    QVERIFY(studio({"--screenshot", fresh, "--quit-when-done"}).contains("screenshot " + fresh.toUtf8()));
    QVERIFY(!QImage(fresh).isNull());
    QVERIFY(studio({"--run-on-open", "--warmup", "100", "--draws", "100", "--seed", "3", "--quit-when-done"}) !=
            "did not quit");
    QVERIFY(studio({"--screenshot", stored, "--quit-when-done"}).contains("screenshot " + stored.toUtf8()));
    QVERIFY(!QImage(stored).isNull());
  }

  // --monitor writes a line a second while the studio runs (what bench/soak.sh reads):
  // resident memory, the longest UI-thread stall, the run's iterations; with
  // --float-all-panels every panel is shown at once, and the run still ends. The floating
  // panels are that session's alone: the layout the user saved before stays as it was.
  void theMonitorFollowsARunWithEveryPanelShown() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString monitor = dir.filePath("monitor.txt");
    const QProcessEnvironment environment = studio_test::childEnvironment(dir.path());
    QProcess before;
    before.setProcessEnvironment(environment);
    before.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    before.start(VARIATE_STUDIO_EXECUTABLE, QStringList{folder + "/eight_schools.vmod", "--run-on-open", "--warmup",
                                                        "100", "--draws", "100", "--seed", "3", "--quit-when-done"});
    QVERIFY(before.waitForFinished(120000));
    QCOMPARE(before.exitCode(), 0);
    const QByteArray userLayout = savedLayout(dir.path() + "/config");
    QVERIFY2(!userLayout.isEmpty(), "a studio saves its layout when it quits");
    QProcess studio;
    studio.setProcessEnvironment(environment);
    studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    studio.start(VARIATE_STUDIO_EXECUTABLE,
                 QStringList{folder + "/eight_schools.vmod", "--run-on-open", "--warmup", "500", "--draws", "20000",
                             "--seed", "3", "--float-all-panels", "--monitor", monitor, "--quit-when-done"});
    QVERIFY(studio.waitForFinished(180000));
    QCOMPARE(studio.exitStatus(), QProcess::NormalExit);
    QCOMPARE(studio.exitCode(), 0);
    QFile file(monitor);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QString("seconds rss_mib longest_stall_ms iterations"));
    QVERIFY2(lines.size() >= 2, qPrintable(lines.join('\n')));
    int lastSecond = -1, lastIterations = 0;
    for (const QString& line : lines.mid(1)) {
      const QStringList fields = line.split(' ');
      QCOMPARE(fields.size(), 4);
      QVERIFY2(fields[0].toInt() >= lastSecond, qPrintable(line));
      QVERIFY2(fields[1].toDouble() > 50, qPrintable(line));  // a studio holds more than 50 MiB
      QVERIFY2(fields[2].toDouble() >= 0, qPrintable(line));
      QVERIFY2(fields[3].toInt() >= lastIterations, qPrintable(line));
      lastSecond = fields[0].toInt();
      lastIterations = fields[3].toInt();
    }
    // The line written as the studio quits sees the whole run: 500 warmup + 20000 draws.
    QVERIFY2(lastIterations == 20500, qPrintable(lines.join('\n')));
    QVERIFY2(savedLayout(dir.path() + "/config") == userLayout, "--float-all-panels replaced the saved layout");
  }
};

QTEST_MAIN(TestStudioAutomation)
#include "tst_studio_automation.moc"
