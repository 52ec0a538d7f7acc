// Where the studio puts the project of a model file: beside it, except for the installed
// examples (and read-only folders), whose projects go to the user's documents; and the
// examples File ▸ Open Example lists; the data a model file's project takes from beside it.

#include <QMenu>
#include <QtTest/QtTest>

#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/document/project_document.h"
#include "ui/document/project_location.h"

using variate::ui::exampleModels;
using variate::ui::exampleProjectsDir;
using variate::ui::projectPathForModel;

namespace {

void write(const QString& path) {
  QDir().mkpath(QFileInfo(path).absolutePath());
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("x ~ normal(0, 1)\n");
}

}  // namespace

class TestProjectLocation : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void aModelsProjectGoesBesideIt() {
    QTemporaryDir dir;
    write(dir.filePath("mine/model.vmod"));
    QCOMPARE(projectPathForModel(dir.filePath("mine/model.vmod"), dir.filePath("share/variate/projects"),
                                 dir.filePath("Documents")),
             dir.filePath("mine/model.variate"));
    // No installed examples at all.
    QCOMPARE(projectPathForModel(dir.filePath("mine/model.vmod"), QString(), dir.filePath("Documents")),
             dir.filePath("mine/model.variate"));
  }

  // Opening MODEL.vmod takes the data beside it: data.json, MODEL.json or MODEL.data.json
  // (CmdStan's examples' naming), as the project's data set "data".
  void aModelsDataIsFoundBesideIt_data() {
    QTest::addColumn<QString>("dataFile");
    QTest::newRow("data.json") << "data.json";
    QTest::newRow("MODEL.json") << "coin.json";
    QTest::newRow("MODEL.data.json") << "coin.data.json";
  }
  void aModelsDataIsFoundBesideIt() {
    QFETCH(QString, dataFile);
    QTemporaryDir dir;
    QFile model(dir.filePath("coin.vmod"));
    QVERIFY(model.open(QIODevice::WriteOnly));
    model.write("data N: int\ndata y: int[N]\ntheta ~ Beta(1, 1)\ny ~ Bernoulli(theta)\n");
    model.close();
    QFile data(dir.filePath(dataFile));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write(R"({"N": 2, "y": [0, 1]})");
    data.close();
    QString error;
    const auto document = variate::ui::ProjectDocument::openModelFile(dir.filePath("coin.vmod"), &error);
    QVERIFY2(document, qPrintable(error));
    QCOMPARE(document->dataSets().size(), 1);
    QVERIFY(document->dataSetIndex("data") >= 0);
  }

  void anInstalledExamplesProjectGoesToTheDocuments() {
    QTemporaryDir dir;
    const QString examples = dir.filePath("usr/share/variate/projects");
    write(examples + "/eight_schools/eight_schools.vmod");
    QCOMPARE(projectPathForModel(examples + "/eight_schools/eight_schools.vmod", examples, dir.filePath("Documents")),
             dir.filePath("Documents/Variate/eight_schools.variate"));
    // Reached through a link, or named with "..", it is still the installed example.
    QVERIFY(QFile::link(dir.filePath("usr"), dir.filePath("linked")));
    QCOMPARE(projectPathForModel(dir.filePath("linked/share/variate/projects/eight_schools/eight_schools.vmod"),
                                 examples, dir.filePath("Documents")),
             dir.filePath("Documents/Variate/eight_schools.variate"));
    QCOMPARE(projectPathForModel(examples + "/../projects/eight_schools/eight_schools.vmod", examples,
                                 dir.filePath("Documents")),
             dir.filePath("Documents/Variate/eight_schools.variate"));
    // A folder whose name only starts like the examples' is not one of them.
    write(dir.filePath("usr/share/variate/projects-mine/m.vmod"));
    QCOMPARE(projectPathForModel(dir.filePath("usr/share/variate/projects-mine/m.vmod"), examples,
                                 dir.filePath("Documents")),
             dir.filePath("usr/share/variate/projects-mine/m.variate"));
  }

  void aReadOnlyFoldersProjectGoesToTheDocuments() {
    QTemporaryDir dir;
    write(dir.filePath("readonly/model.vmod"));
    QVERIFY(QFile::setPermissions(dir.filePath("readonly"), QFile::ReadOwner | QFile::ExeOwner));
    const bool writable = QFileInfo(dir.filePath("readonly")).isWritable();
    const QString path = projectPathForModel(dir.filePath("readonly/model.vmod"), QString(), dir.filePath("Documents"));
    QFile::setPermissions(dir.filePath("readonly"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (writable) QSKIP("this user (root) may write any folder");
    QCOMPARE(path, dir.filePath("Documents/Variate/model.variate"));
  }

  void eachExampleFolderOffersItsModel() {
    QTemporaryDir dir;
    write(dir.filePath("radon/radon.vmod"));
    write(dir.filePath("eight_schools/eight_schools.vmod"));
    write(dir.filePath("arsenic_wells/wells.vmod"));
    write(dir.filePath("arsenic_wells/data.json"));
    QDir().mkpath(dir.filePath("empty"));
    QCOMPARE(exampleModels(dir.path()),
             (QStringList{dir.filePath("arsenic_wells/wells.vmod"), dir.filePath("eight_schools/eight_schools.vmod"),
                          dir.filePath("radon/radon.vmod")}));
    QVERIFY(exampleModels(QString()).isEmpty());
  }

  // A build tree inside the source tree offers the repository's projects/.
  void theStudioListsTheExamples() {
    QVERIFY(QFileInfo(exampleProjectsDir() + "/eight_schools/eight_schools.vmod").exists());
    variate::ui::MainWindow window;
    QMenu* examples = nullptr;
    for (auto* menu : window.findChildren<QMenu*>()) {
      if (menu->title() == "Open E&xample") examples = menu;
    }
    QVERIFY(examples);
    QStringList names;
    for (auto* action : examples->actions()) names << action->text();
    QVERIFY2(names.contains("eight_schools") && names.contains("radon"), qPrintable(names.join(", ")));
    QVERIFY(examples->isEnabled());
  }
};

QTEST_MAIN(TestProjectLocation)
#include "tst_project_location.moc"
