// The canvas in the studio's main window: a dock of its own, given the open project, in
// step with the model text editor both ways through the one document.

#include <QDockWidget>
#include <QPlainTextEdit>

#include "studio_test_support.h"
#include "tst_canvas_driver.h"
#include "ui/app/main_window.h"
#include "ui/docks/model_panel.h"
#include "ui/editor/code_editor.h"

using namespace canvas_test;

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

    // A canvas edit shows in the editor, and the window's undo takes it back.
    QVERIFY(panel->model()->renameNode("nu", "dof"));
    QVERIFY(editor->toPlainText().contains("dof ~ Gamma(2, 0.1)"));
    window.document()->undoStack()->undo();
    QVERIFY(editor->toPlainText().contains("nu ~ Gamma(2, 0.1)"));
    QVERIFY(panel->canvas()->nodeItem("nu"));

    // Closing the project leaves an empty canvas panel.
    window.docks().setDocument(nullptr);
    QVERIFY(!panel->model());
  }
};

QTEST_MAIN(TestCanvasStudio)
#include "tst_canvas_studio.moc"
