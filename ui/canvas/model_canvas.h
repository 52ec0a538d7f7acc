#pragma once
/// The canvas view of the model: draws the graph, and turns mouse and keyboard into model
/// edits. Drag a node to move it; drag from its bottom handle onto a parameter slot of
/// another node to connect them; rubber-band or Ctrl+click to select several; Delete,
/// Ctrl+C, Ctrl+X, Ctrl+V; Ctrl+wheel or +/- to zoom, 0 to fit, middle button to pan; L to
/// arrange the whole graph with the layered layout;
/// drop a palette entry to add a node there. Refused edits show their message on the
/// canvas; while the text has errors the canvas shows the last model that checked.

#include <QGraphicsView>
#include <QHash>
#include <QPointer>
#include <QTimer>

class QGraphicsPathItem;
class QLabel;

namespace variate::ui {

class CanvasModel;
class CanvasScene;
class NodeItem;

class ModelCanvas : public QGraphicsView {
  Q_OBJECT

 public:
  explicit ModelCanvas(CanvasModel* model, QWidget* parent = nullptr);

  CanvasModel* model() const { return model_; }
  CanvasScene* canvasScene() const { return scene_; }
  NodeItem* nodeItem(const QString& id) const;
  /// The message on the canvas now ("" when none shows).
  QString message() const;
  double zoom() const;

  /// Where a new node goes: near the middle of the view, clear of the nodes there.
  QPointF freeSpot() const;

 public slots:
  void showMessage(const QString& message);
  void zoomBy(double factor);
  void zoomToFit();
  void arrange();
  void copySelection();
  void cutSelection();
  void pasteClipboard();
  void deleteSelection();

 protected:
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  NodeItem* nodeAt(const QPointF& scenePoint) const;
  void finishConnection(const QPointF& scenePoint);
  void setSlotHighlight(NodeItem* item, const QString& parameter);
  void onSnapshotChanged();
  void placeBanners();
  void frameGraph();

  CanvasModel* model_;
  CanvasScene* scene_;
  QLabel* message_;
  QLabel* staleBanner_;
  QTimer messageTimer_;
  // A connection being dragged from a node's handle.
  QString connectFrom_;
  QGraphicsPathItem* rubberLine_ = nullptr;
  NodeItem* highlighted_ = nullptr;
  // A pan with the middle button.
  bool panning_ = false;
  QPoint panLast_;
  // Node positions when a left press began, to record a drag as one move.
  QHash<QString, QPointF> pressPositions_;
  bool centred_ = false;
  bool touched_ = false;  // the user panned, zoomed or clicked: the view is theirs
};

}  // namespace variate::ui
