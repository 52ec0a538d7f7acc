// The model file and its project are one source of truth: a change made to MODEL.vmod or
// its data file outside the studio (an editor, `git pull`) is offered for reload in a bar
// above the editor (the differences shown when the editor has unsaved edits); Save writes
// the project and the model file; opening a model file whose text differs from its
// project's says so and lets the user pick. Through the real widgets, offscreen.

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QtTest/QtTest>

#include "engine/store/project.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/app/studio_docks.h"
#include "ui/docks/model_panel.h"
#include "ui/docks/outside_change_bar.h"
#include "ui/document/project_document.h"

using namespace variate::ui;

namespace {

QString readText(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString("<unreadable>");
}

// As an editor saves: a new file under the old name (vim's backupcopy=no, git checkout).
void replaceFile(const QString& path, const QString& text) {
  QFile file(path + ".new");
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(text.toUtf8());
  file.close();
  QVERIFY(::rename(qPrintable(path + ".new"), qPrintable(path)) == 0);
}

void click(OutsideChangeBar* bar, const char* button) {
  auto* found = bar->findChild<QPushButton*>(button);
  QVERIFY(found && found->isVisibleTo(bar));
  found->click();
}

}  // namespace

class TestStudioModelFile : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void aChangeOnDiskIsOfferedAndSaveWritesTheFile() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString model = folder + "/eight_schools.vmod";
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(model));
    ProjectDocument* document = window.document();
    QCOMPARE(document->modelFilePath(), model);
    OutsideChangeBar* bar = window.docks().model->modelFileBar();
    QVERIFY(bar->isHidden());

    // Edited outside, no edits in the studio: offered, and Reload takes it (saved into the project).
    const QString original = readText(model);
    const QString edited = original + "\n# a note from the shell\n";
    replaceFile(model, edited);
    QVERIFY(studio_test::waitFor([&] { return !bar->isHidden(); }, 10000));
    QVERIFY2(bar->message().contains("eight_schools.vmod changed on disk"), qPrintable(bar->message()));
    QVERIFY(!bar->differencesShown());
    QCOMPARE(document->modelText(), original);  // nothing replaced without a click
    click(bar, "outsideChangeAccept");
    QCOMPARE(document->modelText(), edited);
    QVERIFY(!document->isModified());
    {
      const variate::store::Project project(document->filePath().toStdString());
      QCOMPARE(QString::fromStdString(project.latest_model_version()->text), edited);
    }

    // Edited in the studio (unsaved) and outside: the differences are shown before the choice.
    document->setModelText(edited + "# typed in the studio\n");
    QVERIFY(document->isModified());
    replaceFile(model, edited + "# from git pull\n");
    QVERIFY(studio_test::waitFor([&] { return !bar->isHidden(); }, 10000));
    QVERIFY2(bar->message().contains("unsaved edits"), qPrintable(bar->message()));
    QVERIFY(bar->differencesShown());
    QVERIFY2(bar->differences().contains("- # typed in the studio") && bar->differences().contains("+ # from git pull"),
             qPrintable(bar->differences()));
    click(bar, "outsideChangeKeep");  // the editor's text stays
    QCOMPARE(document->modelText(), edited + "# typed in the studio\n");

    // Save writes the project and the model file.
    window.actions().save->trigger();
    QVERIFY(!document->isModified());
    QCOMPARE(readText(model), edited + "# typed in the studio\n");
    QTest::qWait(500);
    QVERIFY(bar->isHidden());  // its own write is no change from outside

    // The data file: offered, and reloaded as the data set "data".
    OutsideChangeBar* dataBar = window.docks().model->dataFileBar();
    QString data = readText(folder + "/data.json");
    QVERIFY(data.contains("[28, 8,"));
    data.replace("[28, 8,", "[31, 8,");
    replaceFile(folder + "/data.json", data);
    QVERIFY(studio_test::waitFor([&] { return !dataBar->isHidden(); }, 10000));
    QVERIFY2(dataBar->message().contains("data.json changed on disk"), qPrintable(dataBar->message()));
    QVERIFY(!document->currentDataSet()->json.contains("31"));
    click(dataBar, "outsideChangeAccept");
    QCOMPARE(document->currentDataSet()->name, QString("data"));
    QVERIFY2(document->currentDataSet()->json.contains("31"), qPrintable(document->currentDataSet()->json));
  }

  void openingAModelFileThatDiffersFromItsProjectLetsTheUserPick() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString model = folder + "/eight_schools.vmod";
    const QString original = readText(model);
    {
      MainWindow window;
      window.setQuietErrors(true);
      QVERIFY(window.openPath(model));  // makes the project
    }
    const QString pulled = original + "\n# after git pull\n";
    replaceFile(model, pulled);
    for (const bool useFile : {false, true}) {
      MainWindow window;
      window.setQuietErrors(true);
      window.show();
      QVERIFY(window.openPath(model));
      OutsideChangeBar* bar = window.docks().model->modelFileBar();
      QVERIFY(!bar->isHidden());
      QVERIFY2(bar->message().contains("differs from the model saved in this project"), qPrintable(bar->message()));
      QVERIFY(bar->differences().contains("+ # after git pull"));
      QCOMPARE(window.document()->modelText(), original);
      if (!useFile) {
        click(bar, "outsideChangeKeep");
        QCOMPARE(window.document()->modelText(), original);
        QCOMPARE(readText(model), pulled);  // untouched until a save
        continue;
      }
      click(bar, "outsideChangeAccept");
      QCOMPARE(window.document()->modelText(), pulled);
      QVERIFY(!window.document()->isModified());
    }
    // Both agree now: opening again offers nothing.
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(folder + "/eight_schools.variate"));  // the project finds its model file
    QCOMPARE(window.document()->modelFilePath(), model);
    QVERIFY(window.docks().model->modelFileBar()->isHidden());
  }
};

QTEST_MAIN(TestStudioModelFile)
#include "tst_studio_model_file.moc"
