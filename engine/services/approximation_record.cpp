#include "engine/services/approximation_record.h"

#include "engine/services/approximation_draws.h"
#include "engine/services/run_record.h"

namespace variate::services {

ApproximationRecord::ApproximationRecord(const RunSpec& spec, const BoundModel& model, const RunFacts& facts,
                                         const RunObservers& observers) {
  const std::vector<std::string> outputs = model.columns.names(NameStyle::StanCsv);
  if (spec.record.project) {
    project_ = std::make_unique<store::Project>(*spec.record.project, store::Project::OpenMode::create);
    run_ = project_->create_run(new_run(*project_, spec, approximation_columns(outputs), facts));
  }
  if (!observers.started) return;
  RunStarted started;
  started.run_id = run_;
  started.columns = outputs;
  started.bracketed = model.columns.names(NameStyle::Bracketed);
  started.parameter_columns = model.parameter_columns;
  started.facts = facts;
  observers.started(started);
}

ApproximationRecord::~ApproximationRecord() {
  if (!ended_) fail("the run ended before it finished");
}

void ApproximationRecord::draws(const Rows& rows, const at::Tensor& log_p, const at::Tensor& log_q,
                                const std::vector<double>& last_position, bool stopped_early) {
  if (project_) record_approximation_draws(*project_, run_, rows, log_p, log_q, last_position, stopped_early);
}

void ApproximationRecord::finish(store::RunStatus status, const std::string& message,
                                 const nlohmann::ordered_json& document) {
  ended_ = true;
  if (!project_) return;
  project_->finish_run(run_, status, message);
  project_->set_diagnostics(run_, document.dump());
}

void ApproximationRecord::fail(const std::string& message) noexcept {
  ended_ = true;
  if (!project_) return;
  try {
    project_->finish_run(run_, store::RunStatus::failed, message);
  } catch (const std::exception&) {  // the file is unwritable: the message still reaches the front end
  }
}

}  // namespace variate::services
