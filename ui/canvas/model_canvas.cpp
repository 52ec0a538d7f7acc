#include "ui/canvas/model_canvas.h"

#include <cmath>

#include <QApplication>
#include <QClipboard>
#include <QGraphicsPathItem>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QScrollBar>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/canvas_scene.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/node_item.h"

namespace variate::ui {
namespace {

const char* const kPositionsMime = "application/x-variate-canvas-layout";

bool isCanvasShortcut(const QKeyEvent* event) {
  return event->matches(QKeySequence::Copy) || event->matches(QKeySequence::Cut) ||
         event->matches(QKeySequence::Paste) || event->matches(QKeySequence::SelectAll) ||
         event->matches(QKeySequence::Delete) || event->key() == Qt::Key_Delete ||
         event->key() == Qt::Key_Backspace;
}

}  // namespace

ModelCanvas::ModelCanvas(CanvasModel* model, QWidget* parent)
    : QGraphicsView(parent), model_(model), scene_(new CanvasScene(model, this)) {
  setObjectName("modelCanvas");
  setScene(scene_);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setDragMode(QGraphicsView::RubberBandDrag);
  setRubberBandSelectionMode(Qt::IntersectsItemShape);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
  setAcceptDrops(true);
  setFocusPolicy(Qt::StrongFocus);
  setBackgroundBrush(QColor("#fafbfc"));

  message_ = new QLabel(viewport());
  message_->setObjectName("canvasMessage");
  message_->setWordWrap(true);
  message_->setStyleSheet("QLabel { background: #fdecea; color: #611a15; border: 1px solid #e57373;"
                          " border-radius: 4px; padding: 6px 10px; }");
  message_->hide();
  messageTimer_.setSingleShot(true);
  messageTimer_.setInterval(8000);
  connect(&messageTimer_, &QTimer::timeout, message_, &QLabel::hide);

  staleBanner_ = new QLabel(viewport());
  staleBanner_->setObjectName("canvasStaleBanner");
  staleBanner_->setWordWrap(true);
  staleBanner_->setStyleSheet("QLabel { background: #fff4e5; color: #663c00; border: 1px solid #ffb74d;"
                              " border-radius: 4px; padding: 6px 10px; }");
  staleBanner_->hide();

  connect(model_, &CanvasModel::editRefused, this, &ModelCanvas::showMessage);
  connect(model_, &CanvasModel::snapshotChanged, this, &ModelCanvas::onSnapshotChanged);
  onSnapshotChanged();
}

NodeItem* ModelCanvas::nodeItem(const QString& id) const { return scene_->nodeItem(id); }

QString ModelCanvas::message() const { return message_->isVisible() ? message_->text() : QString(); }

double ModelCanvas::zoom() const { return transform().m11(); }

void ModelCanvas::showMessage(const QString& message) {
  message_->setText(message);
  message_->show();
  message_->raise();
  placeBanners();
  messageTimer_.start();
}

void ModelCanvas::onSnapshotChanged() {
  const ModelSnapshot& snapshot = model_->snapshot();
  if (snapshot.ok()) {
    staleBanner_->hide();
  } else {
    staleBanner_->setText(tr("The model text has an error, so the canvas shows the last model that "
                             "checked and cannot edit it: %1").arg(snapshot.error()));
    staleBanner_->show();
  }
  placeBanners();
  // Room to pan around the graph.
  const QRectF bounds = scene_->graphBounds();
  setSceneRect(sceneRect().united(bounds.adjusted(-1500, -1500, 1500, 1500)));
  if (!centred_ && !bounds.isEmpty()) {
    centred_ = true;
    centerOn(bounds.center());
  }
}

void ModelCanvas::placeBanners() {
  const int width = std::max(120, viewport()->width() - 24);
  for (QLabel* label : {message_, staleBanner_}) {
    label->setFixedWidth(width);
    label->adjustSize();
  }
  message_->move(12, 12);
  staleBanner_->move(12, viewport()->height() - staleBanner_->height() - 12);
}

void ModelCanvas::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  placeBanners();
  // A dock is laid out after its canvas is made: until the user pans or zooms, the graph
  // stays framed as the size settles, at its own size or smaller.
  if (!touched_) frameGraph();
}

// At zoom 1, where node text is the UI's font size: the whole graph centred when it fits,
// else its top (the layout puts what the rest depends on there); Fit shows all of it.
void ModelCanvas::frameGraph() {
  const QRectF bounds = scene_->graphBounds();
  if (bounds.isEmpty() || viewport()->width() < 40 || viewport()->height() < 40) return;
  resetTransform();
  const QSizeF view = mapToScene(viewport()->rect()).boundingRect().size();
  const double margin = 30;
  QPointF centre = bounds.center();
  if (bounds.width() + 2 * margin > view.width()) centre.setX(bounds.left() - margin + view.width() / 2);
  if (bounds.height() + 2 * margin > view.height()) centre.setY(bounds.top() - margin + view.height() / 2);
  centerOn(centre);
}

void ModelCanvas::zoomBy(double factor) {
  const double target = std::clamp(zoom() * factor, 0.1, 5.0);
  scale(target / zoom(), target / zoom());
}

void ModelCanvas::zoomToFit() {
  const QRectF bounds = scene_->graphBounds();
  if (bounds.isEmpty()) return;
  fitInView(bounds.adjusted(-30, -30, 30, 30), Qt::KeepAspectRatio);
  if (zoom() > 1.5) zoomBy(1.5 / zoom());
}

QPointF ModelCanvas::freeSpot() const {
  const QPointF centre = mapToScene(viewport()->rect().center());
  const QSizeF size(190, 90);
  auto isFree = [&](const QPointF& at) {
    const QRectF box(at - QPointF(size.width() / 2, size.height() / 2), size);
    for (auto* item : scene_->nodeItems()) {
      if (item->sceneBody().adjusted(-20, -20, 20, 20).intersects(box)) return false;
    }
    return true;
  };
  // Rings of candidate places around the centre, nearest first.
  for (int ring = 0; ring < 30; ++ring) {
    for (int step = 0; step < std::max(1, ring * 8); ++step) {
      const double angle = ring == 0 ? 0 : 2 * M_PI * step / (ring * 8);
      const QPointF at = centre + QPointF(std::cos(angle) * ring * size.width(), std::sin(angle) * ring * size.height());
      if (isFree(at)) return at;
    }
  }
  return centre;
}

NodeItem* ModelCanvas::nodeAt(const QPointF& scenePoint) const {
  for (auto* item : scene_->items(scenePoint)) {
    if (item->type() == NodeItem::Type) return static_cast<NodeItem*>(item);
  }
  return nullptr;
}

bool ModelCanvas::event(QEvent* event) {
  // The canvas's keys win over the window's shortcuts while it has the focus.
  if (event->type() == QEvent::ShortcutOverride && isCanvasShortcut(static_cast<QKeyEvent*>(event))) {
    event->accept();
    return true;
  }
  return QGraphicsView::event(event);
}

void ModelCanvas::mousePressEvent(QMouseEvent* event) {
  touched_ = true;
  const QPointF at = mapToScene(event->position().toPoint());
  if (event->button() == Qt::MiddleButton) {
    panning_ = true;
    panLast_ = event->position().toPoint();
    viewport()->setCursor(Qt::ClosedHandCursor);
    event->accept();
    return;
  }
  if (event->button() == Qt::LeftButton) {
    NodeItem* node = nodeAt(at);
    if (node && node->onOutputHandle(node->mapFromScene(at))) {
      connectFrom_ = node->id();
      rubberLine_ = scene_->addPath(QPainterPath(), QPen(QColor("#e65100"), 2, Qt::DashLine));
      rubberLine_->setZValue(100);
      event->accept();
      return;
    }
    pressPositions_ = scene_->nodePositions(model_->shownSnapshot().nodeIds());
  }
  QGraphicsView::mousePressEvent(event);
}

void ModelCanvas::mouseMoveEvent(QMouseEvent* event) {
  const QPointF at = mapToScene(event->position().toPoint());
  if (panning_) {
    const QPoint delta = event->position().toPoint() - panLast_;
    panLast_ = event->position().toPoint();
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    event->accept();
    return;
  }
  if (rubberLine_) {
    NodeItem* from = scene_->nodeItem(connectFrom_);
    const QPointF start = from ? from->mapToScene(from->outputAnchor()) : at;
    QPainterPath path(start);
    path.lineTo(at);
    rubberLine_->setPath(path);
    NodeItem* target = nodeAt(at);
    setSlotHighlight(target, target && target != from ? target->slotAt(target->mapFromScene(at)) : QString());
    event->accept();
    return;
  }
  QGraphicsView::mouseMoveEvent(event);
}

void ModelCanvas::setSlotHighlight(NodeItem* item, const QString& parameter) {
  if (highlighted_ && highlighted_ != item) highlighted_->setHighlightedSlot({});
  highlighted_ = item;
  if (item) item->setHighlightedSlot(parameter);
}

void ModelCanvas::mouseReleaseEvent(QMouseEvent* event) {
  const QPointF at = mapToScene(event->position().toPoint());
  if (panning_ && event->button() == Qt::MiddleButton) {
    panning_ = false;
    viewport()->unsetCursor();
    event->accept();
    return;
  }
  if (rubberLine_ && event->button() == Qt::LeftButton) {
    finishConnection(at);
    event->accept();
    return;
  }
  QGraphicsView::mouseReleaseEvent(event);
  if (event->button() != Qt::LeftButton || pressPositions_.isEmpty()) return;
  NodePositions before, after;
  const auto now = scene_->nodePositions(pressPositions_.keys());
  for (auto it = now.begin(); it != now.end(); ++it) {
    if (pressPositions_.value(it.key()) == it.value()) continue;
    before.insert(it.key(), pressPositions_.value(it.key()));
    after.insert(it.key(), it.value());
  }
  pressPositions_.clear();
  model_->moveNodes(before, after);
}

void ModelCanvas::finishConnection(const QPointF& scenePoint) {
  const QString from = connectFrom_;
  connectFrom_.clear();
  scene_->removeItem(rubberLine_);
  delete rubberLine_;
  rubberLine_ = nullptr;
  setSlotHighlight(nullptr, {});
  NodeItem* target = nodeAt(scenePoint);
  if (!target || target->id() == from) {
    if (target) showMessage(tr("Refused: '%1' cannot feed itself (a node cannot depend on itself)").arg(from));
    return;
  }
  const QString parameter = target->slotAt(target->mapFromScene(scenePoint));
  if (!parameter.isEmpty()) {
    model_->connectNodes(from, target->id(), parameter);
  } else if (target->node().parameters.isEmpty()) {
    showMessage(tr("'%1' has no parameter slots: give it a distribution in the properties panel, or "
                   "write '%2' into its expression").arg(target->id(), from));
  } else {
    showMessage(tr("Drop the connection onto one of %1's parameter slots (%2)")
                    .arg(target->id(), target->node().parameters.join(", ")));
  }
}

void ModelCanvas::wheelEvent(QWheelEvent* event) {
  touched_ = true;
  if (event->modifiers() & Qt::ControlModifier) {
    zoomBy(std::pow(1.15, event->angleDelta().y() / 120.0));
    event->accept();
    return;
  }
  QGraphicsView::wheelEvent(event);
}

void ModelCanvas::keyPressEvent(QKeyEvent* event) {
  touched_ = true;
  if (event->matches(QKeySequence::Copy)) {
    copySelection();
  } else if (event->matches(QKeySequence::Cut)) {
    cutSelection();
  } else if (event->matches(QKeySequence::Paste)) {
    pasteClipboard();
  } else if (event->matches(QKeySequence::SelectAll)) {
    model_->setSelection(model_->shownSnapshot().nodeIds());
  } else if (event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) {
    deleteSelection();
  } else if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) {
    zoomBy(1.25);
  } else if (event->key() == Qt::Key_Minus) {
    zoomBy(0.8);
  } else if (event->key() == Qt::Key_0) {
    zoomToFit();
  } else if (event->key() == Qt::Key_L && !(event->modifiers() & Qt::ControlModifier)) {
    arrange();
  } else if (event->key() == Qt::Key_Escape) {
    model_->setSelection({});
  } else {
    QGraphicsView::keyPressEvent(event);
    return;
  }
  event->accept();
}

void ModelCanvas::arrange() {
  if (model_->arrange()) zoomToFit();
}

void ModelCanvas::copySelection() {
  const QStringList nodes = model_->selection();
  if (nodes.isEmpty()) return;
  auto* data = new QMimeData;
  data->setText(model_->copyText(nodes));
  data->setData(kPositionsMime, model_->layout()->toJson(nodes));
  QApplication::clipboard()->setMimeData(data);
}

void ModelCanvas::cutSelection() {
  copySelection();
  deleteSelection();
}

void ModelCanvas::pasteClipboard() {
  const QMimeData* data = QApplication::clipboard()->mimeData();
  if (!data || !data->hasText()) {
    showMessage(tr("The clipboard holds no model statements"));
    return;
  }
  NodePositions positions;
  QString ignored;
  if (data->hasFormat(kPositionsMime)) CanvasLayout::fromJson(data->data(kPositionsMime), &positions, &ignored);
  model_->paste(data->text(), positions, freeSpot());
}

void ModelCanvas::deleteSelection() {
  if (!model_->selection().isEmpty()) {
    model_->deleteNodes(model_->selection());
    return;
  }
  for (auto* item : scene_->selectedItems()) {
    if (item->type() == EdgeItem::Type) {
      const auto* edge = static_cast<EdgeItem*>(item);
      model_->disconnectNodes(edge->edge().from, edge->edge().to);
      return;
    }
  }
}

void ModelCanvas::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasFormat(NodeTemplate::kMimeType)) {
    event->acceptProposedAction();
  } else {
    QGraphicsView::dragEnterEvent(event);
  }
}

void ModelCanvas::dragMoveEvent(QDragMoveEvent* event) {
  if (event->mimeData()->hasFormat(NodeTemplate::kMimeType)) {
    event->acceptProposedAction();
  } else {
    QGraphicsView::dragMoveEvent(event);
  }
}

void ModelCanvas::dropEvent(QDropEvent* event) {
  NodeTemplate what;
  if (!NodeTemplate::decode(QString::fromUtf8(event->mimeData()->data(NodeTemplate::kMimeType)), &what)) {
    QGraphicsView::dropEvent(event);
    return;
  }
  model_->addNode(what, mapToScene(event->position().toPoint()));
  event->acceptProposedAction();
}

}  // namespace variate::ui
