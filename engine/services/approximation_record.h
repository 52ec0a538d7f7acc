#pragma once
/// The project's record of a run of independent draws (ADVI, Optimize, Pathfinder) while
/// it goes: created when the run starts (so that its ELBO can be stored as it comes), its
/// draws stored as its one chain when they exist, and its end with the summary document.
/// Without a project it records nothing and only tells the run's start.

#include <memory>
#include <string>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include "engine/services/model_source.h"
#include "engine/services/run_observers.h"
#include "engine/services/run_spec.h"
#include "engine/store/project.h"

namespace variate::services {

class ApproximationRecord {
 public:
  /// Creates the run (when the spec has a project) and tells observers.started.
  /// @throws store::ProjectError; ArgumentError for data that cannot be read.
  ApproximationRecord(const RunSpec& spec, const BoundModel& model, const RunFacts& facts,
                      const RunObservers& observers);
  /// A run neither finished nor failed is marked failed ("ended before it finished").
  ~ApproximationRecord();
  ApproximationRecord(const ApproximationRecord&) = delete;
  ApproximationRecord& operator=(const ApproximationRecord&) = delete;

  store::Project* project() { return project_.get(); }
  store::Id run_id() const { return run_; }

  /// Stores `rows` (each draw's outputs) with their log p and log q as the run's chain.
  void draws(const Rows& rows, const at::Tensor& log_p, const at::Tensor& log_q,
             const std::vector<double>& last_position, bool stopped_early);
  /// Ends the run as `status` (with `message`) and stores `document` as its summary.
  void finish(store::RunStatus status, const std::string& message, const nlohmann::ordered_json& document);
  /// Ends the run as failed with `message`; never throws.
  void fail(const std::string& message) noexcept;

 private:
  std::unique_ptr<store::Project> project_;
  store::Id run_ = -1;
  bool ended_ = false;
};

}  // namespace variate::services
