#pragma once
/// Several observers of one run: every callback goes to each of them, in the order given
/// (put a recorder before an observer that may hold the chain, so draws are stored first).
///
///   ObserverList observers({&csv_output, &recorder});
///   sample_nuts(target, options, &observers);

#include <vector>

#include "engine/mcmc/sample.h"

namespace variate {

class ObserverList : public SampleObserver {
 public:
  /// The observers must outlive the list; null entries are skipped.
  explicit ObserverList(std::vector<SampleObserver*> observers) : observers_(std::move(observers)) {}

  void on_draws(const DrawBatch& batch) override {
    for (auto* observer : observers_) {
      if (observer) observer->on_draws(batch);
    }
  }
  void on_adapted(int chain, double step_size, const std::vector<double>& inverse_metric) override {
    for (auto* observer : observers_) {
      if (observer) observer->on_adapted(chain, step_size, inverse_metric);
    }
  }
  void on_chain_finished(const ChainResult& result) override {
    for (auto* observer : observers_) {
      if (observer) observer->on_chain_finished(result);
    }
  }

 private:
  std::vector<SampleObserver*> observers_;
};

}  // namespace variate
