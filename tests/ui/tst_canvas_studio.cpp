// The canvas in the studio's main window: a dock of its own, given the open project, in
// step with the model text editor both ways through the one document; the Edit menu
// names the edit it undoes.

#include <QDockWidget>
#include <QMenuBar>
#include <QPlainTextEdit>

#include "tests/ui/studio_test_support.h"
#include "tests/ui/tst_canvas_driver.h"
#include "ui/app/main_window.h"
#include "ui/docks/model_panel.h"
#include "ui/editor/code_editor.h"

using namespace canvas_test;

namespace {

QString plain(QString text) { return text.remove('&'); }

// A menu of the window's menu bar by its title ("Edit" for "&Edit").
QMenu* menu(MainWindow& window, const QString& title) {
  for (QAction* action : window.menuBar()->actions()) {
    if (action->menu() && plain(action->text()) == title) return action->menu();
  }
  return nullptr;
}

}  // namespace

class TestCanvasStudio : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { studio_test::isolateSettings(); }

  void canvasDockFollowsTheEditor() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    QDockWidget* dock = window.docks().dock("canvasDock");
    QVERIFY(dock);
    auto* panel = qobject_cast<CanvasPanel*>(dock->widget());
    QVERIFY(panel);
    QVERIFY(panel->model());
    QCOMPARE(panel->model()->shownSnapshot().nodes().size(), 7);

    // Typing in the editor adds a node to the canvas.
    CodeEditor* editor = window.docks().model->editor();
    QTextCursor cursor = editor->textCursor();
    cursor.movePosition(QTextCursor::End);
    editor->setTextCursor(cursor);
    QTest::keyClicks(editor, "nu ~ Gamma(2, 0.1)");
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(panel->canvas()->nodeItem("nu"));

    // A canvas edit shows in the editor, and the Edit menu names it and takes it back.
    QVERIFY(panel->model()->renameNode("nu", "dof"));
    QVERIFY(editor->toPlainText().contains("dof ~ Gamma(2, 0.1)"));
    QMenu* edit = menu(window, "Edit");
    QVERIFY(edit);
    QAction* undo = edit->actions().value(0);
    QAction* redo = edit->actions().value(1);
    QVERIFY(undo && redo);
    QCOMPARE(plain(undo->text()), QString("Undo Rename nu to dof"));
    QVERIFY(undo->isEnabled());
    QVERIFY(!redo->isEnabled());
    undo->trigger();
    QVERIFY(editor->toPlainText().contains("nu ~ Gamma(2, 0.1)"));
    QVERIFY(panel->canvas()->nodeItem("nu"));
    QCOMPARE(plain(redo->text()), QString("Redo Rename nu to dof"));
    QVERIFY(redo->isEnabled());
    redo->trigger();
    QVERIFY(panel->canvas()->nodeItem("dof"));
    undo->trigger();

    // Closing the project leaves an empty canvas panel.
    window.docks().setDocument(nullptr);
    QVERIFY(!panel->model());
  }

  // With no project open there is nothing to undo: the actions say so.
  void undoActionsWithoutAProject() {
    MainWindow window;
    QMenu* edit = menu(window, "Edit");
    QVERIFY(edit);
    QCOMPARE(plain(edit->actions().value(0)->text()), QString("Undo"));
    QVERIFY(!edit->actions().value(0)->isEnabled());
    QVERIFY(!edit->actions().value(1)->isEnabled());
  }
};

QTEST_MAIN(TestCanvasStudio)
#include "tst_canvas_studio.moc"
