#pragma once
/// The model canvas as the studio docks it: the node palette, the canvas and the selected
/// node's properties side by side, working on the open project document. The canvas shows
/// the diagnostics of the document's current run as its summary arrives. In a narrow dock
/// the graph is shown alone (the palette and properties return when it is widened).
///
///   auto* panel = new CanvasPanel;
///   dock->setWidget(panel);
///   panel->setDocument(document);   // nullptr when no project is open

#include <QWidget>

class QLabel;
class QSplitter;

namespace variate::ui {

class CanvasModel;
class ModelCanvas;
class NodePalette;
class NodePropertiesPanel;
class ProjectDocument;

class CanvasPanel : public QWidget {
  Q_OBJECT

 public:
  explicit CanvasPanel(QWidget* parent = nullptr);
  explicit CanvasPanel(ProjectDocument* document, QWidget* parent = nullptr);
  ~CanvasPanel() override;

  void setDocument(ProjectDocument* document);
  ProjectDocument* document() const { return document_; }

  /// nullptr while no document is open.
  CanvasModel* model() const { return model_; }
  ModelCanvas* canvas() const { return canvas_; }
  NodePropertiesPanel* properties() const { return properties_; }
  NodePalette* palette() const { return palette_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void showRunDiagnostics();
  void applySizes();

  ProjectDocument* document_ = nullptr;
  CanvasModel* model_ = nullptr;
  NodePalette* palette_;
  ModelCanvas* canvas_ = nullptr;
  NodePropertiesPanel* properties_ = nullptr;
  QLabel* noProjectHint_;  // shown instead of the canvas while no project is open
  QSplitter* splitter_;
  bool narrow_ = false;
};

}  // namespace variate::ui
