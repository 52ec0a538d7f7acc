#include "ui/runs/training_previewer.h"

#include <cmath>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "engine/core/checks.h"

namespace variate::ui {
namespace {

constexpr int64_t kMostEncoded = 2000;

// The held-out data's labels, under the names a data set of images gives them.
std::optional<at::Tensor> labelsOf(const Data& data, int64_t rows) {
  for (const char* name : {"label", "labels"}) {
    if (!data.contains(name)) continue;
    const at::Tensor& labels = data[name];
    const bool integers = !at::isFloatingType(labels.scalar_type());
    if (labels.dim() == 1 && labels.size(0) == rows && integers) return labels;
  }
  return std::nullopt;
}

}  // namespace

TrainingPreviewer::TrainingPreviewer(const deep::AmortizedModel& model, const Data& data,
                                     int images, uint64_t seed)
    : model_(model), heldout_(model.has_heldout()) {
  const int64_t rows = heldout_ ? model.heldout_rows() : model.rows();
  const Shape& shape = model.observed_row_shape();
  const int64_t pixels = numel(shape);
  // A flat row of a square number of values is a square image (784: 28 x 28).
  if (shape.size() == 2) {
    height_ = static_cast<int>(shape[0]);
    width_ = static_cast<int>(shape[1]);
  } else if (const auto side =
                 static_cast<int64_t>(std::lround(std::sqrt(static_cast<double>(pixels))));
             side * side == pixels) {
    height_ = width_ = static_cast<int>(side);
  } else {
    width_ = static_cast<int>(pixels);
  }
  rows_ = at::arange(std::min<int64_t>(images, rows), at::kLong);
  originals_ = data[model.observed_name()].index_select(0, rows_).to(at::kFloat);
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  noise_ = at::randn({rows_.size(0), model.noise_width()}, generator, at::kFloat);
  model.reconstruct(rows_.slice(0, 0, 1), heldout_);  // throws now for a family without a mean
  if (!model.latents().empty() && model.latents().front().row_shape == Shape{2}) {
    latentRows_ = at::arange(std::min(rows, kMostEncoded), at::kLong);
    if (const auto labels = labelsOf(data, rows)) {
      const at::Tensor chosen = labels->index_select(0, latentRows_).to(at::kLong).contiguous();
      labels_.assign(chosen.data_ptr<int64_t>(), chosen.data_ptr<int64_t>() + chosen.numel());
    } else {
      labels_.assign(latentRows_.size(0), -1);
    }
  }
}

ImageGrid TrainingPreviewer::grid(const at::Tensor& images) const {
  const at::Tensor values = images.detach().to(at::kFloat).clamp(0, 1).contiguous();
  ImageGrid grid{static_cast<int>(values.size(0)), height_, width_, {}};
  grid.pixels.assign(values.data_ptr<float>(), values.data_ptr<float>() + values.numel());
  return grid;
}

TrainingPreviewPtr TrainingPreviewer::compute(long long step, int epoch) const {
  auto preview = std::make_shared<TrainingPreview>();
  preview->step = step;
  preview->epoch = epoch;
  preview->originals = grid(originals_);
  preview->reconstructions = grid(model_.reconstruct(rows_, heldout_));
  // The prior's loc + scale · noise, decoded: the same draws every time.
  preview->samples = grid(model_.sample_prior(noise_));
  if (latentRows_.defined()) {
    const at::Tensor encoded = model_.encode(latentRows_, heldout_).to(at::kFloat).contiguous();
    preview->latent.assign(encoded.data_ptr<float>(), encoded.data_ptr<float>() + encoded.numel());
    preview->labels = labels_;
  }
  return preview;
}

}  // namespace variate::ui
