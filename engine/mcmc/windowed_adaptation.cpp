#include "engine/mcmc/windowed_adaptation.h"

namespace variate {

WindowedAdaptation::WindowedAdaptation(MetricKind kind, size_t dimension, int num_warmup,
                                       int init_buffer, int term_buffer, int base_window)
    : kind_(kind), dimension_(dimension), num_warmup_(num_warmup), init_buffer_(init_buffer),
      term_buffer_(term_buffer), base_window_(base_window) {
  if (num_warmup < 20) {
    adapts_metric_ = false;
  } else if (init_buffer + base_window + term_buffer > num_warmup) {
    init_buffer_ = static_cast<int>(0.15 * num_warmup);
    term_buffer_ = static_cast<int>(0.1 * num_warmup);
    base_window_ = num_warmup - (init_buffer_ + term_buffer_);
  }
  window_size_ = base_window_;
  next_window_end_ = init_buffer_ + window_size_ - 1;
  mean_.assign(dimension, 0.0);
  m2_.assign(kind == MetricKind::diagonal ? dimension : dimension * dimension, 0.0);
  delta_.assign(dimension, 0.0);
}

bool WindowedAdaptation::in_window() const {
  return counter_ >= init_buffer_ && counter_ < num_warmup_ - term_buffer_ &&
         counter_ != num_warmup_;
}

bool WindowedAdaptation::window_ends() const {
  return counter_ == next_window_end_ && counter_ != num_warmup_;
}

void WindowedAdaptation::next_window() {
  if (next_window_end_ == num_warmup_ - term_buffer_ - 1) return;
  window_size_ *= 2;
  next_window_end_ = counter_ + window_size_;
  // A window that would leave too little room for the next one absorbs it.
  if (next_window_end_ != num_warmup_ - term_buffer_ - 1) {
    const int next_boundary = next_window_end_ + 2 * window_size_;
    if (next_boundary >= num_warmup_ - term_buffer_) {
      next_window_end_ = num_warmup_ - term_buffer_ - 1;
    }
  }
}

bool WindowedAdaptation::learn(const std::vector<double>& q, std::vector<double>& inverse_metric) {
  if (!adapts_metric_) return false;
  const size_t d = dimension_;
  if (in_window()) {
    ++samples_;
    std::vector<double>& delta = delta_;
    for (size_t i = 0; i < d; ++i) {
      delta[i] = q[i] - mean_[i];
      mean_[i] += delta[i] / static_cast<double>(samples_);
    }
    for (size_t i = 0; i < d; ++i) {
      const double after = q[i] - mean_[i];
      if (kind_ == MetricKind::diagonal) {
        m2_[i] += delta[i] * after;
      } else {
        for (size_t j = 0; j < d; ++j) m2_[i * d + j] += delta[i] * (q[j] - mean_[j]);
      }
    }
  }
  if (!window_ends()) {
    ++counter_;
    return false;
  }
  next_window();
  const double n = static_cast<double>(samples_);
  // Shrink toward 1e-3 I, more so for short windows (Stan's regularization).
  inverse_metric.assign(m2_.size(), 0.0);
  for (size_t k = 0; k < m2_.size(); ++k) {
    const double covariance = samples_ > 1 ? m2_[k] / (n - 1) : 0.0;
    inverse_metric[k] = (n / (n + 5.0)) * covariance;
  }
  for (size_t i = 0; i < d; ++i) {
    inverse_metric[kind_ == MetricKind::diagonal ? i : i * d + i] += 1e-3 * (5.0 / (n + 5.0));
  }
  samples_ = 0;
  std::fill(mean_.begin(), mean_.end(), 0.0);
  std::fill(m2_.begin(), m2_.end(), 0.0);
  ++counter_;
  return true;
}

}  // namespace variate
