// File → Export → Model as C++ Program: the studio writes the same program as
// `variate export MODEL --cpp DIR` for the editor's text, unsaved edits included; a model
// with errors gives a located message and writes nothing.

#include <QFileDialog>
#include <QMenuBar>
#include <QtTest/QtTest>

#include "engine/codegen/cpp_program.h"
#include "engine/model/checker.h"
#include "engine/model/parser.h"

#include "tests/ui/studio_test_support.h"
#include "ui/app/main_window.h"
#include "ui/document/project_document.h"

using namespace variate;
using namespace variate::ui;

namespace {

QString readText(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString("<unreadable %1>").arg(path);
}

/// What `variate export eight_schools.vmod --cpp DIR` writes for `text`.
codegen::CppProgram cliExport(const QString& text) {
  const model::Source source("eight_schools.vmod", text.toStdString());
  model::ParseResult parsed = model::parse(source);
  model::Diagnostics diagnostics;
  const model::CheckedModel checked = model::check(std::move(parsed.program), source, diagnostics);
  return codegen::export_cpp_program(checked, source, codegen::program_name("eight_schools.vmod"));
}

QAction* findAction(QMenu* menu, const QString& text) {
  for (QAction* action : menu->actions()) {
    if (action->text().remove('&') == text) return action;
    if (action->menu()) {
      if (QAction* found = findAction(action->menu(), text)) return found;
    }
  }
  return nullptr;
}

/// Answers the folder dialog the next action opens with `directory`.
void answerFolderDialog(const QString& directory, bool* answered) {
  QTimer::singleShot(0, [directory, answered] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) return;
    dialog->setDirectory(directory);
    dialog->selectFile(directory);
    *answered = true;
    QMetaObject::invokeMethod(dialog, "accept");
  });
}

}  // namespace

class TestStudioExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    Q_INIT_RESOURCE(studio);
    studio_test::isolateSettings();
  }

  void menuWritesTheCommandLinesProgram() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString target = dir.path() + "/exported";
    QVERIFY(QDir().mkpath(target));
    MainWindow window;
    window.setQuietErrors(true);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    // An unsaved edit is exported too: the program is the text in the editor.
    const QString edited = window.document()->modelText().replace("HalfCauchy(5)", "HalfCauchy(2.5)");
    QVERIFY(edited != window.document()->modelText());
    window.document()->setModelText(edited);

    QMenu* file = nullptr;
    for (QAction* action : window.menuBar()->actions()) {
      if (action->text().remove('&') == "File") file = action->menu();
    }
    QVERIFY(file);
    QAction* exportCpp = findAction(file, "Model as C++ Program…");
    QVERIFY(exportCpp);
    QVERIFY(exportCpp->isEnabled());
    bool answered = false;
    answerFolderDialog(target, &answered);
    exportCpp->trigger();
    QVERIFY(answered);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));

    const codegen::CppProgram expected = cliExport(edited);
    QCOMPARE(expected.files.size(), size_t(4));
    for (const auto& [name, text] : expected.files) {
      QCOMPARE(readText(target + "/" + QString::fromStdString(name)), QString::fromStdString(text));
    }
    const QString header = readText(target + "/model.h");
    QVERIFY(header.contains("2.5"));
    QVERIFY(header.contains("eight_schools"));
  }

  void modelErrorsAreLocatedAndNothingIsWritten() {
    QTemporaryDir dir;
    const QString folder = studio_test::copyProject("eight_schools", dir);
    const QString target = dir.path() + "/exported";
    MainWindow window;
    window.setQuietErrors(true);
    QVERIFY(window.openPath(folder + "/eight_schools.vmod"));
    window.document()->setModelText(window.document()->modelText() + "\nz ~ Normal(undefined_name, 1)\n");
    QVERIFY(!window.exportCpp(target));
    QVERIFY2(window.lastError().contains("eight_schools.vmod:"), qPrintable(window.lastError()));
    QVERIFY2(window.lastError().contains("undefined_name"), qPrintable(window.lastError()));
    QVERIFY(!QFileInfo::exists(target));
  }

  void actionNeedsAnOpenProject() {
    MainWindow window;
    QVERIFY(!window.actions().exportCpp->isEnabled());
    QVERIFY(!window.exportCpp(QDir::tempPath()));
  }
};

QTEST_MAIN(TestStudioExport)
#include "tst_studio_export.moc"
