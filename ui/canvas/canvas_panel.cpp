#include "ui/canvas/canvas_panel.h"

#include <QToolBar>
#include <QVBoxLayout>
#include <QLabel>
#include <QSplitter>

#include "ui/canvas/canvas_model.h"
#include "ui/canvas/model_canvas.h"
#include "ui/canvas/node_palette.h"
#include "ui/canvas/node_properties_panel.h"
#include "ui/canvas/run_diagnostics.h"
#include "ui/document/project_document.h"

namespace variate::ui {
namespace {

// Narrower than this, the graph alone is shown: the palette and the properties come back
// when the dock is widened.
constexpr int kNarrowWidth = 800;

}  // namespace

CanvasPanel::CanvasPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("canvasPanel");
  palette_ = new NodePalette(this);
  noProjectHint_ = new QLabel(tr("Open or create a project to build its model here."), this);
  noProjectHint_->setAlignment(Qt::AlignCenter);
  splitter_ = new QSplitter(Qt::Horizontal, this);
  splitter_->addWidget(palette_);
  splitter_->addWidget(noProjectHint_);
  splitter_->setStretchFactor(1, 1);
  palette_->setMinimumWidth(150);
  // The canvas's keys, as buttons too; no shortcuts here, the canvas owns its keys.
  auto* tools = new QToolBar(this);
  tools->setObjectName("canvasToolBar");
  tools->setIconSize(QSize(16, 16));
  auto onCanvas = [this](void (ModelCanvas::*slot)()) {
    return [this, slot] {
      if (canvas_) (canvas_->*slot)();
    };
  };
  tools->addAction(tr("Arrange"), this, onCanvas(&ModelCanvas::arrange))->setToolTip(tr("Lay the graph out again (L)"));
  tools->addAction(tr("Fit"), this, onCanvas(&ModelCanvas::zoomToFit))->setToolTip(tr("Show the whole graph (0)"));
  tools->addAction(tr("Zoom in"), this, [this] { if (canvas_) canvas_->zoomBy(1.25); })->setToolTip(tr("+ or Ctrl+wheel"));
  tools->addAction(tr("Zoom out"), this, [this] { if (canvas_) canvas_->zoomBy(0.8); })->setToolTip(tr("- or Ctrl+wheel"));
  tools->addSeparator();
  tools->addAction(tr("Delete"), this, onCanvas(&ModelCanvas::deleteSelection))->setToolTip(tr("Delete the selection (Delete)"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(tools);
  layout->addWidget(splitter_, 1);
  connect(palette_, &NodePalette::nodeRequested, this, [this](const NodeTemplate& what) {
    if (model_) model_->addNode(what, canvas_->freeSpot());
  });
}

CanvasPanel::CanvasPanel(ProjectDocument* document, QWidget* parent) : CanvasPanel(parent) { setDocument(document); }

// The views go before the model they show.
CanvasPanel::~CanvasPanel() { setDocument(nullptr); }

void CanvasPanel::setDocument(ProjectDocument* document) {
  if (document == document_ && model_) return;
  // A new document gets a new model, canvas and properties panel.
  delete canvas_;
  delete properties_;
  delete model_;
  canvas_ = nullptr;
  properties_ = nullptr;
  model_ = nullptr;
  document_ = document;
  noProjectHint_->setVisible(!document);
  palette_->setEnabled(document != nullptr);
  if (!document) return;
  model_ = new CanvasModel(document, this);
  canvas_ = new ModelCanvas(model_, this);
  properties_ = new NodePropertiesPanel(model_, this);
  splitter_->insertWidget(1, canvas_);
  splitter_->addWidget(properties_);
  splitter_->setStretchFactor(splitter_->indexOf(canvas_), 1);
  splitter_->setCollapsible(splitter_->indexOf(canvas_), false);
  narrow_ = width() < kNarrowWidth;
  applySizes();
  RunList* runs = document->runs();
  connect(runs, &RunList::summaryChanged, model_, [this, runs](qint64 id) {
    if (id == runs->currentId()) showRunDiagnostics();
  });
  connect(runs, &RunList::currentChanged, model_, [this] { showRunDiagnostics(); });
  connect(runs, &RunList::runRemoved, model_, [this] { showRunDiagnostics(); });
  showRunDiagnostics();
}

void CanvasPanel::applySizes() {
  // Hidden, not collapsed: a splitter's minimum width counts every visible child.
  palette_->setVisible(!narrow_);
  if (properties_) properties_->setVisible(!narrow_);
  if (narrow_) return;
  QList<int> sizes;
  for (int i = 0; i < splitter_->count(); ++i) {
    QWidget* w = splitter_->widget(i);
    sizes << (w == palette_ ? 190 : w == canvas_ ? 700 : w == properties_ ? 270 : 0);
  }
  splitter_->setSizes(sizes);
}

void CanvasPanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // Only on crossing the width: the user's splitter sizes stay otherwise.
  if (const bool narrow = width() < kNarrowWidth; narrow != narrow_ && canvas_) {
    narrow_ = narrow;
    applySizes();
  }
}

void CanvasPanel::showRunDiagnostics() {
  if (!model_ || !document_) return;
  const RunPtr run = document_->runs()->current();
  model_->setDiagnostics(run ? runDiagnostics(*run) : QHash<QString, ParameterDiagnostics>());
}

}  // namespace variate::ui
