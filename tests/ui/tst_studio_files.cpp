// Project files as a user meets them: a corrupt, truncated or foreign file opened as a
// project gives a clear message and is left byte for byte as it was (the open project
// stays open); a model file opens as a project beside it; the dock layout comes back on
// the next start.

#include <QDockWidget>
#include <QtTest/QtTest>

#include "engine/store/project.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/document/project_document.h"

using namespace variate::ui;

namespace {

QByteArray bytesOf(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void write(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(bytes);
}

}  // namespace

class TestStudioFiles : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void badProjectFilesAreRefusedAndUntouched_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");  // in the message
    QTest::newRow("empty") << "empty" << "empty.variate";
    QTest::newRow("text") << "text" << "text.variate";
    QTest::newRow("truncated") << "truncated" << "truncated.variate";
    QTest::newRow("corrupt") << "corrupt" << "corrupt.variate";
    QTest::newRow("other sqlite") << "other" << "other.variate";
    QTest::newRow("missing") << "missing" << "missing.variate";
  }
  void badProjectFilesAreRefusedAndUntouched() {
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    const QString good = window.document()->filePath();
    const QString path = dir.path() + "/" + kind + ".variate";
    const QByteArray project = bytesOf(good);
    if (kind == "empty") write(path, "");
    if (kind == "text") write(path, "# not a project\nmu ~ Normal(0, 1)\n");
    if (kind == "truncated") write(path, project.left(project.size() / 2));
    if (kind == "corrupt") {
      QByteArray damaged = project;
      for (int i = 100; i < damaged.size(); i += 7) damaged[i] = char(damaged[i] ^ 0x5a);
      write(path, damaged);
    }
    if (kind == "other") {  // an SQLite file of another application
      QByteArray header = project;
      header.replace(68, 4, QByteArray("\0\0\0\0", 4));  // application_id cleared
      write(path, header);
    }
    const QByteArray before = bytesOf(path);
    QVERIFY(!window.openPath(path));
    QVERIFY2(window.lastError().contains(expected), qPrintable(window.lastError()));
    QVERIFY2(window.lastError().size() > expected.size() + 10, qPrintable(window.lastError()));
    QCOMPARE(bytesOf(path), before);  // nothing written, for a missing file nothing created
    QCOMPARE(QFileInfo::exists(path), kind != "missing");
    QVERIFY(!QFileInfo::exists(path + "-wal") || QFileInfo(path + "-wal").size() == 0);
    QCOMPARE(window.document()->filePath(), good);  // the open project stays open
  }

  void modelFileOpensAsProjectBesideIt() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    {
      MainWindow window;
      window.setQuietErrors(true);
      QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
      ProjectDocument* document = window.document();
      QCOMPARE(document->filePath(), folder + "/eight_schools.variate");
      QCOMPARE(document->modelName(), QString("eight_schools"));
      QVERIFY(document->modelText().contains("theta_trans[J] ~ Normal(0, 1)"));
      QCOMPARE(document->dataSets().size(), 1);
      QCOMPARE(document->currentDataSet()->variables.size(), 3);
      QCOMPARE(document->currentDataSet()->variables[1].typeText(), QString("int[8]"));
    }
    MainWindow window;  // the second time, the project is opened, not created again
    window.setQuietErrors(true);
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    QCOMPARE(window.document()->filePath(), folder + "/eight_schools.variate");
  }

  // A data file larger than a project stores (SQLite's 1e9 bytes per value) is refused
  // before it is read, with its size, the limit and the command line to run it with; the
  // project keeps its data sets. A data set naming an IDX file by a relative path is
  // stored with the absolute path, so the project reads it from any working folder.
  void dataFilesAreStoredWithinAProjectsBounds() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    ProjectDocument* document = window.document();
    QFile sparse(dir.filePath("huge.json"));  // a sparse file: its size without its bytes
    QVERIFY(sparse.open(QIODevice::WriteOnly));
    QVERIFY(sparse.resize(1000000001));
    sparse.close();
    QString error;
    QVERIFY(!document->importDataSet(dir.filePath("huge.json"), &error));
    QVERIFY2(error.contains("has 1000000001 bytes; a project stores a data set of at most 1000000000 bytes") &&
                 error.contains("variate sample MODEL.vmod --data " + dir.filePath("huge.json")),
             qPrintable(error));
    QCOMPARE(document->dataSets().size(), 1);

    QVERIFY(QDir(dir.path()).mkpath("sub"));
    write(dir.filePath("sub/labels.idx"), QByteArray::fromHex("0000080100000003") + QByteArray("\x01\x02\x03", 3));
    write(dir.filePath("labels.json"), R"({"x": {"idx_labels": "sub/labels.idx"}})");
    error.clear();
    QVERIFY2(document->importDataSet(dir.filePath("labels.json"), &error), qPrintable(error));
    const auto sets = variate::store::Project(document->filePath().toStdString()).data_sets();
    const auto labels = std::find_if(sets.begin(), sets.end(), [](const auto& set) { return set.name == "labels"; });
    QVERIFY(labels != sets.end());
    QVERIFY2(QString::fromStdString(labels->json_text).contains("\"" + dir.filePath("sub/labels.idx") + "\""),
             labels->json_text.c_str());
  }

  void layoutIsRestoredOnTheNextStart() {
    {
      MainWindow window;
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      window.docks().dock("logDock")->close();
      window.docks().dock("densityDock")->setFloating(true);
      window.close();  // saves the layout
    }
    {
      MainWindow window;
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      QVERIFY(window.docks().dock("logDock")->isHidden());
      QVERIFY(window.docks().dock("densityDock")->isFloating());
      QVERIFY(!window.docks().dock("traceDock")->isHidden());
      window.actions().resetLayout->trigger();
      QVERIFY(!window.docks().dock("logDock")->isHidden());
      QVERIFY(!window.docks().dock("densityDock")->isFloating());
      window.close();
    }
  }
};

QTEST_MAIN(TestStudioFiles)
#include "tst_studio_files.moc"
