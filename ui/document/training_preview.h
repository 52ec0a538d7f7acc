#pragma once
/// What a deep model's training shows besides its ELBO, computed on the training thread
/// between steps and handed to the UI whole: a few fixed images with their
/// reconstructions, images decoded from fixed prior draws (so they change only as the
/// decoder learns), and, for a 2-D latent space, the held-out rows' encodings with their
/// labels. Immutable once posted.

#include <memory>
#include <vector>

#include <QMetaType>

namespace variate::ui {

/// Images of one size, greyscale in [0, 1], row-major: count × height × width values.
struct ImageGrid {
  int count = 0;
  int height = 0;
  int width = 0;
  std::vector<float> pixels;

  bool empty() const { return count == 0; }
  const float* image(int i) const {
    return pixels.data() + static_cast<size_t>(i) * height * width;
  }
};

struct TrainingPreview {
  long long step = 0;         // steps done when it was computed
  int epoch = 0;              // the epoch under way (or just ended)
  ImageGrid originals;        // held-out rows (training rows without a held-out set)
  ImageGrid reconstructions;  // of the originals, at the guide's mean
  ImageGrid samples;          // decoded from fixed standard-normal prior draws
  /// A 2-D latent space: the guide's mean of each encoded row (x, y pairs) and its label
  /// (-1 without labels).
  std::vector<float> latent;
  std::vector<int> labels;
};

using TrainingPreviewPtr = std::shared_ptr<const TrainingPreview>;

}  // namespace variate::ui

Q_DECLARE_METATYPE(variate::ui::TrainingPreviewPtr)
