// Drives a CanvasPanel the way a user does: palette clicks, clicks and drags on the canvas
// viewport, typing into the properties panel — all through the widgets' own event handlers.

#pragma once

#include <memory>

#include <QComboBox>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest/QtTest>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_panel.h"
#include "ui/canvas/canvas_scene.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/model_canvas.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/node_palette.h"
#include "ui/canvas/node_properties_panel.h"
#include "ui/canvas/plate_item.h"
#include "ui/document/project_document.h"

namespace canvas_test {

using namespace variate::ui;

inline QString readText(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QString::fromUtf8(file.readAll());
}

inline QString referenceFolder(const QString& name) {
  return QStringLiteral(QT_TESTCASE_SOURCEDIR "/data/reference/") + name;
}

/// A project in a temporary folder with a canvas panel shown on it.
class CanvasDriver {
 public:
  explicit CanvasDriver(const QString& modelText, const QString& dataJson = {}, const QString& name = "model") {
    path_ = dir_.filePath(name + ".variate");
    QList<QPair<QString, QString>> data;
    if (!dataJson.isEmpty()) data << qMakePair(QString("data"), dataJson);
    QString error;
    document_ = ProjectDocument::create(path_, name, modelText, data, &error);
    if (!document_) qFatal("cannot create a project: %s", qPrintable(error));
    open();
  }

  /// Closes the panel and the document and opens the project file again.
  void reopen() {
    panel_.reset();
    document_.reset();
    QString error;
    document_ = ProjectDocument::open(path_, &error);
    if (!document_) qFatal("cannot open the project: %s", qPrintable(error));
    open();
  }

  ProjectDocument* document() const { return document_.get(); }
  CanvasPanel* panel() const { return panel_.get(); }
  CanvasModel* model() const { return panel_->model(); }
  ModelCanvas* canvas() const { return panel_->canvas(); }
  QWidget* viewport() const { return canvas()->viewport(); }
  QUndoStack* undo() const { return document_->undoStack(); }
  QString text() const { return document_->modelText(); }

  /// Clicks a palette entry; returns the added node (selected after the add).
  QString addFromPalette(const NodeTemplate& what) {
    NodePalette* palette = panel_->palette();
    QTreeWidgetItem* item = palette->itemFor(what);
    if (!item) return {};
    palette->scrollToItem(item);
    const QPoint at = palette->visualItemRect(item).center();
    QTest::mouseClick(palette->viewport(), Qt::LeftButton, {}, at);
    const QStringList selection = model()->selection();
    return selection.size() == 1 ? selection.front() : QString();
  }

  QPoint viewportPoint(const QPointF& scenePoint) const { return canvas()->mapFromScene(scenePoint); }

  /// Clicks the middle of a node's body (with modifiers: Ctrl adds it to the selection).
  bool clickNode(const QString& id, Qt::KeyboardModifiers modifiers = {}) {
    NodeItem* item = canvas()->nodeItem(id);
    if (!item) return false;
    canvas()->ensureVisible(item);
    // Below the name, where the body is hit whatever the glyph.
    const QPoint at = viewportPoint(item->mapToScene(QPointF(0, 4)));
    QTest::mouseClick(viewport(), Qt::LeftButton, modifiers, at);
    return true;
  }

  /// Drags from `from`'s output handle to the slot of `parameter` on `to`.
  bool dragConnection(const QString& from, const QString& to, const QString& parameter) {
    canvas()->zoomToFit();
    NodeItem* source = canvas()->nodeItem(from);
    NodeItem* target = canvas()->nodeItem(to);
    if (!source || !target) return false;
    const QRectF slot = target->slotRect(parameter);
    if (slot.isNull()) return false;
    const QPoint start = viewportPoint(source->mapToScene(source->outputAnchor()));
    const QPoint end = viewportPoint(target->mapToScene(slot.center()));
    QTest::mousePress(viewport(), Qt::LeftButton, {}, start);
    QTest::mouseMove(viewport(), (start + end) / 2);
    QTest::mouseMove(viewport(), end);
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, end);
    return true;
  }

  /// Drags a node's body by `offset` (viewport pixels).
  bool dragNode(const QString& id, const QPoint& offset) {
    NodeItem* item = canvas()->nodeItem(id);
    if (!item) return false;
    canvas()->ensureVisible(item);
    const QPoint start = viewportPoint(item->mapToScene(QPointF(0, 4)));
    QTest::mousePress(viewport(), Qt::LeftButton, {}, start);
    for (int i = 1; i <= 4; ++i) QTest::mouseMove(viewport(), start + offset * i / 4);
    QTest::mouseRelease(viewport(), Qt::LeftButton, {}, start + offset);
    return true;
  }

  /// The properties panel's field of that name (the form on screen, not one being deleted).
  template <class Widget>
  Widget* field(const QString& objectName) const {
    for (auto* widget : panel_->properties()->findChildren<Widget*>(objectName)) {
      if (widget->isVisibleTo(panel_->properties())) return widget;
    }
    return nullptr;
  }

  /// Types `text` over a properties field's contents and presses Enter.
  bool typeInto(const QString& objectName, const QString& text) {
    QLineEdit* edit = field<QLineEdit>(objectName);
    if (!edit) {
      if (auto* combo = field<QComboBox>(objectName)) edit = combo->lineEdit();
    }
    if (!edit) return false;
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    return true;
  }

  /// Sends keys to the canvas (Delete, Ctrl+C ...).
  void key(Qt::Key key, Qt::KeyboardModifiers modifiers = {}) {
    canvas()->setFocus();
    QTest::keyClick(canvas(), key, modifiers);
  }

 private:
  void open() {
    panel_ = std::make_unique<CanvasPanel>(document_.get());
    panel_->resize(1400, 900);
    panel_->show();
    if (!QTest::qWaitForWindowExposed(panel_.get())) qWarning("the canvas panel was not exposed");
  }

  QTemporaryDir dir_;
  QString path_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<CanvasPanel> panel_;
};

}  // namespace canvas_test
