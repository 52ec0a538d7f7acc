// variate-studio's command line runs and screenshots on its own: with --quit-when-done
// the screenshot is written before the studio quits, whether it was asked for at the
// run's end or at an iteration the run reaches only with its last draws (the studio used
// to quit first then). The studio runs as a child process, offscreen.

#include <QImage>
#include <QtTest/QtTest>

#include "studio_test_support.h"

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
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    environment.insert("XDG_CONFIG_HOME", dir.path() + "/config");  // the child's own settings
    studio.setProcessEnvironment(environment);
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
};

QTEST_MAIN(TestStudioAutomation)
#include "tst_studio_automation.moc"
