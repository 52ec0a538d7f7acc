#pragma once
/// A 2-D latent space: each encoded row (the guide's mean) as a dot coloured by its label,
/// one legend entry per label.

#include <vector>

#include <QWidget>

class QCustomPlot;

namespace variate::ui {

class LatentScatter : public QWidget {
  Q_OBJECT

 public:
  explicit LatentScatter(QWidget* parent = nullptr);

  /// `latent`: x, y pairs; `labels`: one per pair (-1: unlabelled).
  void setPoints(const std::vector<float>& latent, const std::vector<int>& labels);
  int pointCount() const { return points_; }
  /// The labels drawn, each in its own colour.
  int labelCount() const;
  QCustomPlot* plot() const { return plot_; }

 private:
  QCustomPlot* plot_;
  int points_ = 0;
};

}  // namespace variate::ui
