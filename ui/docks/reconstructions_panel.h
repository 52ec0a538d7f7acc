#pragma once
/// A deep model's training as pictures, live: fixed held-out images above their
/// reconstructions, images decoded from fixed draws of the prior (the same draws all
/// along, so the grid changes only as the decoder learns), and, for a 2-D latent space,
/// the encoded held-out rows coloured by label. Shows the current run's latest
/// TrainingPreview; the training thread computes them (ui/runs/training_previewer.h).

#include <QPointer>
#include <QWidget>

#include "ui/document/training_preview.h"

class QLabel;

namespace variate::ui {

class ImageGridWidget;
class LatentScatter;
class ProjectDocument;

class ReconstructionsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ReconstructionsPanel(QWidget* parent = nullptr);
  void setDocument(ProjectDocument* document);

  ImageGridWidget* originals() const { return originals_; }
  ImageGridWidget* reconstructions() const { return reconstructions_; }
  ImageGridWidget* samples() const { return samples_; }
  LatentScatter* latentScatter() const { return scatter_; }
  /// The preview shown (null when none).
  const TrainingPreviewPtr& shown() const { return shown_; }

 signals:
  void refreshed();

 private:
  void showCurrent();

  QPointer<ProjectDocument> document_;
  QLabel* caption_;
  QLabel* originalsTitle_;
  ImageGridWidget* originals_;
  ImageGridWidget* reconstructions_;
  ImageGridWidget* samples_;
  LatentScatter* scatter_;
  TrainingPreviewPtr shown_;
  QList<QMetaObject::Connection> connections_;
};

}  // namespace variate::ui
