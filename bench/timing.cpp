#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <vector>

namespace variate::bench {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

double thread_cpu_seconds() {
  timespec time{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
  return static_cast<double>(time.tv_sec) + 1e-9 * static_cast<double>(time.tv_nsec);
}

double median_of(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }), values.end());
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<double> median_ms_interleaved(const std::vector<std::function<void()>>& fs,
                                          const TimingOptions& options) {
  for (int i = 0; i < options.warmup; ++i) {
    for (const auto& f : fs) f();
  }
  const auto clock = options.thread_cpu_time ? thread_cpu_seconds : now_seconds;
  std::vector<std::vector<double>> ms(fs.size());
  for (int i = 0; i < options.repeats; ++i) {
    for (size_t k = 0; k < fs.size(); ++k) {
      const double start = clock();
      fs[k]();
      ms[k].push_back(1000.0 * (clock() - start));
    }
  }
  std::vector<double> result;
  for (auto& times : ms) result.push_back(median_of(std::move(times)));
  return result;
}

double median_ms(const std::function<void()>& f, const TimingOptions& options) {
  return median_ms_interleaved({f}, options)[0];
}

}  // namespace variate::bench
