#include "ui/docks/reconstructions_panel.h"

#include "engine/services/setting_table.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/document/project_document.h"
#include "ui/plots/image_grid_widget.h"
#include "ui/plots/latent_scatter.h"

namespace variate::ui {
namespace {

QLabel* title(const QString& text) {
  auto* label = new QLabel(text);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  return label;
}

}  // namespace

ReconstructionsPanel::ReconstructionsPanel(QWidget* parent)
    : QWidget(parent),
      caption_(new QLabel),
      originalsTitle_(title(tr("Held-out images"))),
      originals_(new ImageGridWidget),
      reconstructions_(new ImageGridWidget),
      samples_(new ImageGridWidget),
      scatter_(new LatentScatter) {
  originals_->setObjectName("originalImages");
  reconstructions_->setObjectName("reconstructedImages");
  samples_->setObjectName("priorSamples");
  caption_->setWordWrap(true);
  auto* images = new QVBoxLayout;
  images->addWidget(originalsTitle_);
  images->addWidget(originals_);
  images->addWidget(title(tr("Their reconstructions")));
  images->addWidget(reconstructions_);
  images->addWidget(title(tr("Samples from the prior (the same draws throughout)")));
  images->addWidget(samples_);
  images->addStretch(1);
  auto* row = new QHBoxLayout;
  row->addLayout(images, 3);
  scatter_->setMinimumWidth(220);
  row->addWidget(scatter_, 2);
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  column->addWidget(caption_);
  column->addLayout(row, 1);
  auto* scroll = new QScrollArea;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(scroll);
  showCurrent();
}

void ReconstructionsPanel::setDocument(ProjectDocument* document) {
  for (const auto& connection : connections_) disconnect(connection);
  connections_.clear();
  document_ = document;
  if (document) {
    RunList* runs = document->runs();
    connections_ << connect(runs, &RunList::currentChanged, this,
                            &ReconstructionsPanel::showCurrent);
    connections_ << connect(runs, &RunList::previewChanged, this, [this](qint64 id) {
      if (document_ && id == document_->runs()->currentId()) showCurrent();
    });
  }
  showCurrent();
}

void ReconstructionsPanel::showCurrent() {
  const RunPtr run = document_ ? document_->runs()->current() : nullptr;
  const TrainingPreviewPtr preview = run ? run->preview : nullptr;
  shown_ = preview;
  const ImageGrid none;
  originals_->setImages(preview ? preview->originals : none);
  reconstructions_->setImages(preview ? preview->reconstructions : none);
  samples_->setImages(preview ? preview->samples : none);
  scatter_->setVisible(preview && !preview->latent.empty());
  if (preview && !preview->latent.empty()) scatter_->setPoints(preview->latent, preview->labels);
  const QString heldoutSet =
      run ? QString::fromStdString(run->config.settings.get(services::setting::test_data).value_or("")) : QString();
  const bool heldout = !heldoutSet.isEmpty();
  originalsTitle_->setText(heldout ? tr("Held-out images (%1)").arg(heldoutSet)
                                   : tr("Training images"));
  if (!run || run->config.method != services::Method::amortized) {
    caption_->setText(
        tr("Train a model with networks (a VAE) to see its reconstructions and samples here."));
  } else if (!preview) {
    caption_->setText(
        run->isActive()
            ? tr("%1: the first images come with the first steps.").arg(run->name)
            : tr("%1: no images (they are drawn while the model trains).").arg(run->name));
  } else {
    caption_->setText(
        tr("%1 after step %2 (epoch %3)").arg(run->name).arg(preview->step).arg(preview->epoch));
  }
  emit refreshed();
}

}  // namespace variate::ui
