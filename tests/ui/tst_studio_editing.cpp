// Editing in the studio: the engine's checker marks a mistake at its line and column as
// the user types; model and settings edits undo and redo through one history; the data
// panel shows a variable's values; plots export as PNG, SVG and PDF, draws as CSV.

#include <QSpinBox>
#include <QTableView>
#include <QTextBlock>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "engine/services/setting_table.h"
#include "tests/ui/studio_test_support.h"
#include "ui/app/draws_csv.h"
#include "ui/app/main_window.h"
#include "ui/app/run_coordinator.h"
#include "ui/docks/data_panel.h"
#include "ui/docks/model_panel.h"
#include "ui/docks/run_config_panel.h"
#include "ui/docks/trace_panel.h"
#include "ui/document/project_document.h"
#include "ui/editor/code_editor.h"

namespace services = variate::services;

using namespace variate::ui;

class TestStudioEditing : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void checkerMarksErrorsWhereTheyAre() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    CodeEditor* editor = window.docks().model->editor();
    QVERIFY(studio_test::waitFor([&] { return window.document()->modelCheck().compiled; }, 20000));
    QVERIFY(editor->marks().isEmpty());
    QCOMPARE(window.document()->modelCheck().parameters, QStringList({"mu", "tau", "theta_trans[8]"}));

    // Type a misspelt distribution on a new line after line 8 ("tau ~ HalfCauchy(5)").
    QTextCursor cursor(window.document()->modelDocument()->findBlockByNumber(7));
    cursor.movePosition(QTextCursor::EndOfBlock);
    editor->setTextCursor(cursor);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, "omega ~ Nromal(0, 1)");
    QVERIFY(studio_test::waitFor([&] { return !editor->marks().isEmpty(); }, 20000));
    const ModelMark mark = editor->marks().first();
    QCOMPARE(mark.severity, ModelMark::Severity::Error);
    QCOMPARE(mark.line, 9);
    QCOMPARE(mark.column, 9);
    QVERIFY2(mark.message.contains("Nromal"), qPrintable(mark.message));
    QVERIFY2(mark.message.contains("Normal"), qPrintable(mark.message));  // the suggestion
    QVERIFY(window.isWindowModified());

    // One undo history for text and settings.
    RunConfig config = window.document()->runConfig();
    config.settings.set(services::setting::chains, 2);
    window.document()->setRunConfig(config);
    QCOMPARE(window.docks().runConfig->chainsBox()->value(), 2);
    window.actions().undo->trigger();
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::chains), 4);
    QCOMPARE(window.docks().runConfig->chainsBox()->value(), 4);
    while (window.document()->undoStack()->canUndo()) window.actions().undo->trigger();
    QVERIFY(!window.document()->modelText().contains("Nromal"));
    QVERIFY(studio_test::waitFor([&] { return editor->marks().isEmpty(); }, 20000));
    QVERIFY(!window.isWindowModified());
    while (window.document()->undoStack()->canRedo()) window.actions().redo->trigger();
    QVERIFY(window.document()->modelText().contains("omega ~ Nromal(0, 1)"));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::chains), 2);
  }

  void settingsPanelEditsAreUndoable() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    QSpinBox* draws = window.docks().runConfig->drawsBox();
    draws->setValue(2500);
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::draws), 2500);
    draws->setValue(3000);  // the same field again: one step
    QCOMPARE(window.document()->undoStack()->count(), 1);
    window.document()->undoStack()->undo();
    QCOMPARE(draws->value(), 1000);
  }

  // The run configuration is stored in the project file: it comes back when the file is
  // opened on a machine that has never seen it, or under another name.
  void runConfigTravelsWithTheFile() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    QString path;
    {
      MainWindow window;
      window.setQuietErrors(true);
      QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
      window.docks().runConfig->drawsBox()->setValue(2500);
      window.docks().runConfig->chainsBox()->setValue(3);
      path = window.document()->filePath();
    }
    QSettings().clear();  // another machine
    const QString moved = dir.path() + "/moved.variate";
    QVERIFY(QFile::rename(path, moved));
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(moved));
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::draws), 2500);
    QCOMPARE(window.document()->runConfig().settings.get(services::setting::chains), 3);
    QCOMPARE(window.docks().runConfig->drawsBox()->value(), 2500);
  }

  void dataPanelShowsValues() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    QTreeWidget* variables = window.docks().data->variables();
    QCOMPARE(variables->topLevelItemCount(), 3);
    for (int i = 0; i < 3; ++i) {
      if (variables->topLevelItem(i)->text(0) == "y") variables->setCurrentItem(variables->topLevelItem(i));
    }
    QAbstractItemModel* table = window.docks().data->table()->model();
    QCOMPARE(table->rowCount(), 8);
    QCOMPARE(table->data(table->index(0, 0)).toDouble(), 28.0);
    QCOMPARE(table->data(table->index(7, 0)).toDouble(), 12.0);
  }

  void plotsAndDrawsExport() {
    QTemporaryDir dir;
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(window.openPath(studio_test::copyProject("eight_schools", dir) + "/eight_schools.vmod"));
    RunConfig config = window.document()->runConfig();
    config.settings.set(services::setting::warmup, 100);
    config.settings.set(services::setting::draws, 100);
    config.settings.set(services::setting::chains, 2);
    window.document()->setRunConfig(config);
    QSignalSpy ended(window.coordinator(), &RunCoordinator::runEnded);
    window.actions().run->trigger();
    QVERIFY(ended.wait(60000));
    const RunPtr run = window.document()->runs()->current();
    QCOMPARE(run->status, RunStatus::Finished);
    for (const QString suffix : {"png", "svg", "pdf"}) {
      const QString path = dir.path() + "/traces." + suffix;
      QString error;
      QVERIFY2(window.docks().traces->exportTo(path, &error), qPrintable(error));
      QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
    }
    QFile svg(dir.path() + "/traces.svg");
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));

    const QString csv = dir.path() + "/draws.csv";
    QString error;
    QVERIFY2(writeDrawsCsv(*run, csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 2 * 200);
    QVERIFY(lines[0].startsWith("chain,iteration,warmup,lp__"));
    QVERIFY(lines[0].contains("\"theta[8]\""));
    const int mu = run->columnIndex("mu");
    const QList<QByteArray> row = lines[1].split(',');
    QCOMPARE(row[0], QByteArray("1"));
    QCOMPARE(row[10 + mu].toDouble(), run->chains[0].blocks().front()->value(0, mu));
  }
};

QTEST_MAIN(TestStudioEditing)
#include "tst_studio_editing.moc"
