#include "ui/plots/image_grid_widget.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

namespace variate::ui {
namespace {

constexpr int kGap = 3;
constexpr int kMaxScale = 4;

}  // namespace

QImage toImage(const ImageGrid& grid, int i) {
  QImage image(grid.width, grid.height, QImage::Format_Grayscale8);
  const float* pixels = grid.image(i);
  for (int y = 0; y < grid.height; ++y) {
    uchar* line = image.scanLine(y);
    for (int x = 0; x < grid.width; ++x) {
      line[x] =
          static_cast<uchar>(std::lround(std::clamp(pixels[y * grid.width + x], 0.0f, 1.0f) * 255));
    }
  }
  return image;
}

ImageGridWidget::ImageGridWidget(QWidget* parent) : QWidget(parent) {
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

void ImageGridWidget::setImages(const ImageGrid& grid) {
  const qsizetype count = images_.size();
  images_.clear();
  for (int i = 0; i < grid.count; ++i) images_ << toImage(grid, i);
  const QSize size = grid.empty() ? QSize() : QSize(grid.width, grid.height);
  if (size != imageSize_ || count != images_.size()) {  // the height for a width changed
    imageSize_ = size;
    updateGeometry();
  }
  update();
}

QPair<int, int> ImageGridWidget::cells(int width) const {
  if (images_.isEmpty() || imageSize_.isEmpty()) return {1, 0};
  // One row when the images fit at any whole scale; else as many columns as fit at 1x.
  const int n = images_.size(), side = std::max(imageSize_.width(), 1);
  const int oneRow = (width - kGap * (n - 1)) / n;
  if (oneRow >= side) return {n, std::min(oneRow, side * kMaxScale) / side * side};
  const int columns = std::max(1, (width + kGap) / (side + kGap));
  return {columns, side};
}

int ImageGridWidget::heightForWidth(int width) const {
  const auto [columns, cell] = cells(width);
  if (cell == 0) return 0;
  const int rows = (static_cast<int>(images_.size()) + columns - 1) / columns;
  const int cellHeight = cell * imageSize_.height() / imageSize_.width();
  return rows * cellHeight + (rows - 1) * kGap;
}

QSize ImageGridWidget::sizeHint() const {
  const int width =
      images_.isEmpty() ? 200 : static_cast<int>(images_.size()) * (imageSize_.width() * 2 + kGap);
  return QSize(width, heightForWidth(width));
}

void ImageGridWidget::paintEvent(QPaintEvent*) {
  const auto [columns, cell] = cells(width());
  if (cell == 0) return;
  QPainter painter(this);
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  const int cellHeight = cell * imageSize_.height() / imageSize_.width();
  for (int i = 0; i < images_.size(); ++i) {
    const QRect target((i % columns) * (cell + kGap), (i / columns) * (cellHeight + kGap), cell,
                       cellHeight);
    painter.drawImage(target, images_[i]);
  }
}

}  // namespace variate::ui
