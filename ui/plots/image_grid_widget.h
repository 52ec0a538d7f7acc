#pragma once
/// A row-wrapped grid of small greyscale images (a training's images, its reconstructions
/// or samples), each scaled up by a whole factor with nearest-neighbour pixels so 28 × 28
/// digits stay crisp. Its height follows its width.

#include <QImage>
#include <QList>
#include <QWidget>

#include "ui/document/training_preview.h"

namespace variate::ui {

class ImageGridWidget : public QWidget {
  Q_OBJECT

 public:
  explicit ImageGridWidget(QWidget* parent = nullptr);

  /// Shows `grid` (0 is black, 1 white); an empty grid clears it.
  void setImages(const ImageGrid& grid);
  const QList<QImage>& images() const { return images_; }

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  /// Columns and the side of a cell for `width` pixels.
  QPair<int, int> cells(int width) const;

  QList<QImage> images_;
  QSize imageSize_;
};

/// A grid's image `i` as an 8-bit greyscale QImage.
QImage toImage(const ImageGrid& grid, int i);

}  // namespace variate::ui
