#pragma once
/// Computes a deep model's TrainingPreview from its current weights: the first rows of
/// the held-out set (or of the training set) with their reconstructions, images decoded
/// from standard-normal prior draws fixed at the start (so the grid changes only as the
/// decoder learns), and for a 2-D first latent the encodings of up to 2,000 held-out rows
/// coloured by the held-out data's `label` values. Call it on the thread that trains,
/// between steps. (Engine-side header: it pulls in LibTorch.)

#include <optional>

#include <ATen/core/Tensor.h>

// LibTorch's serialization headers name a method `slots`, which Qt defines as a macro (the
// engine-facing folders' precompiled header includes QtCore); nothing below needs Qt's.
#undef slots
#include "engine/deep/amortized_model.h"

#include "ui/document/training_preview.h"

namespace variate::ui {

class TrainingPreviewer {
 public:
  /// `data`: the rows shown (the held-out set when the model has one bound, else the
  /// training set); `images` of them, and as many prior draws, from `seed`.
  /// @throws ArgumentError when the observed variable's family has no mean to show (as
  /// reconstruct() does).
  TrainingPreviewer(const deep::AmortizedModel& model, const Data& data, int images, uint64_t seed);

  TrainingPreviewPtr compute(long long step, int epoch) const;

 private:
  ImageGrid grid(const at::Tensor& images) const;

  const deep::AmortizedModel& model_;
  bool heldout_ = false;
  at::Tensor rows_;        // [images] int64
  at::Tensor originals_;   // their pixels, as the grid shows them
  at::Tensor noise_;       // [images, noise_width]
  at::Tensor latentRows_;  // rows encoded for the scatter; undefined without a 2-D latent
  std::vector<int> labels_;
  int height_ = 1, width_ = 1;
};

}  // namespace variate::ui
